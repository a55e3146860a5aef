//! `IncompleteHeaderAction`: a `Header` action lacks `schema.header` or `schema.headerValue`.

use syncdef_definitions::model::ActionIn;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports actions with `in: Header` whose `schema` does not name both the header to send
    /// (`header`) and the response field that supplies its value (`headerValue`).
///
    /// ## Why is this bad?
    /// Without a header name the platform does not know which header to set; without a value field
    /// it has nothing to put in it. Business Central then refuses the update for lack of `If-Match`.
///
    /// ## Example
    /// ```yaml
    /// HeaderETag:
    ///   type: ApiPath
    ///   path: "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')/get"
    ///   schema: {type: String, header: If-Match}
    ///   in: Header
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///   schema: {type: String, header: If-Match, headerValue: "@odata.etag"}
    /// ```
    pub struct IncompleteHeaderAction {
        title: "a `Header` action lacks `schema.header` or `schema.headerValue`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for (_, action) in info.actions() {
            let Some(placement) = &action.placement else {
                continue;
            };
            if placement.value != ActionIn::Header {
                continue;
            }
            let (header, value) = match &action.schema {
                Some(s) => (s.header.is_some(), s.header_value.is_some()),
                None => (false, false),
            };
            let missing: Vec<&str> = [
                (!header).then_some("`header`"),
                (!value).then_some("`headerValue`"),
            ]
            .into_iter()
            .flatten()
            .collect();
            if missing.is_empty() {
                continue;
            }
            let (span, pointer) = match &action.schema {
                Some(s) => (s.span, s.pointer.clone()),
                None => (action.name.span, action.pointer.clone()),
            };
            let d = sink
                .diagnostic(
                    Rule::IncompleteHeaderAction,
                    span,
                    format!("header action `{}` has no {} in its `schema`", action.name.value, missing.join(" and ")),
                )
                .with_pointer(pointer)
                .with_label(placement.span, "the value goes into a header")
                .with_help("name the header to send (`header: If-Match`) and the response field that supplies its value (`headerValue: \"@odata.etag\"`)");
            sink.push(d);
        }
    }
}
