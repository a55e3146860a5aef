//! `UnknownActionPlacement`: an action's `in` is not `Body` or `Header`.

use syncdef_definitions::model::ActionIn;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports actions whose `in` (where the value read by the action goes) is neither `Body` (a
    /// property of the pushed record, read by templates as `$.syncToken`) nor `Header` (a request
    /// header named by `schema.header`).
///
    /// ## Why is this bad?
    /// The value read by the action is dropped, so the concurrency token never reaches the
    /// request.
///
    /// ## Example
    /// ```yaml
    /// ETag:
    ///   type: ApiPath
    ///   path: "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')/get"
    ///   schema: {type: String, ETag: "@odata.etag"}
    ///   in: body
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///   in: Body
    /// ```
    pub struct UnknownActionPlacement {
        title: "an action's `in` is not `Body` or `Header`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for (_, action) in info.actions() {
            let Some(placement) = &action.placement else {
                continue;
            };
            let ActionIn::Unknown(written) = &placement.value else {
                continue;
            };
            let help = hint(written, ["Body", "Header"])
                .unwrap_or_else(|| "use `Body` (a value templates read as `$.syncToken`) or `Header` (a request header named by `schema.header`)".into());
            let d = sink
                .diagnostic(
                    Rule::UnknownActionPlacement,
                    placement.span,
                    format!("`in` must be `Body` or `Header`, not `{written}`"),
                )
                .with_pointer(format!("{}/in", action.pointer))
                .with_help(help);
            sink.push(d);
        }
    }
}
