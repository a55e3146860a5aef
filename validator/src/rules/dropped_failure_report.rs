//! `DroppedFailureReport`: a response template drops the `success` or `errors` its answer
//! declares.

use syncdef_transform::JsonPath;

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Resolution, Sink, Template};
use crate::rule::declare_rule;
use crate::templates::response_name;
use crate::typecheck::reads::walk;
use crate::typecheck::response_schemas;

declare_rule! {
    /// ## What it does
    /// Reports a `createResponse` or `updateResponse` that does not map `success` or `errors`
    /// when the operation's 2xx answer declares them (the spec's create result `{id, errors,
    /// success}`, spec 2.6 rule 7).
    ///
    /// ## Why is this bad?
    /// An answer `{"id": 0, "success": false, "errors": ["Duplicate name"]}` is a failed create.
    /// syncdef's engine reads the answer's own `success: false` whatever the template maps
    /// (spec 7.1), and the reasons from the body's known error shapes; but the platform,
    /// running the same definition, reads what the template gives: there, a template reading
    /// only the id records the failed create as created with the external id 0, and every
    /// later update goes to a record that does not exist.
    ///
    /// ## Example
    /// ```yaml
    /// createResponse:
    ///   id: "#valueof($.id)"
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// createResponse:
    ///   id: "#valueof($.id)"
    ///   success: "#valueof($.success)"
    ///   errors: "#valueof($.errors)"
    /// ```
    pub struct DroppedFailureReport {
        title: "a response template drops the `success` or `errors` its answer declares",
        severity: Warning,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for op in ["create", "update"] {
            let Some(template) = info.template(&response_name(op)) else {
                continue;
            };
            check_template(ctx, sink, info, op, template);
        }
    }
}

fn check_template(ctx: &Context, sink: &mut Sink, info: &EntryInfo, op: &str, template: &Template) {
    let Some(tree) = &template.tree else { return };
    // Not an object is SD812's; computed keys may write the members.
    let Some(members) = tree.root().as_object() else {
        return;
    };
    if members.iter().any(|m| m.key.name.starts_with('#')) {
        return;
    }
    let Some(site) = info.operation(op) else {
        return;
    };
    let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
        return;
    };
    let dropped: Vec<&str> = ["success", "errors"]
        .into_iter()
        .filter(|member| members.get(member).is_none() && declares(ctx, &operation, member))
        .collect();
    if dropped.is_empty() {
        return;
    }
    let names = dropped
        .iter()
        .map(|m| format!("`{m}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    let mapping = dropped
        .iter()
        .map(|m| format!("{m}: \"#valueof($.{m})\""))
        .collect::<Vec<_>>()
        .join(", ");
    let d = sink
        .diagnostic(
            Rule::DroppedFailureReport,
            template.source.name.span,
            format!(
                "`{}` drops {names}, which the answer of `{}` declares: a failed {op} reads as one that succeeded",
                template.name(),
                site.text.value
            ),
        )
        .with_pointer(template.source.pointer.clone())
        .with_label(site.text.span, "its 2xx answer declares them")
        .with_help(format!("map them: {mapping}"));
    sink.push(d);
}

/// Whether a 2xx answer of `operation` declares the top-level member `member`.
fn declares(ctx: &Context, operation: &syncdef_definitions::Node, member: &str) -> bool {
    let Ok(path) = JsonPath::parse(&format!("$.{member}")) else {
        return false;
    };
    response_schemas(ctx, operation, true)
        .iter()
        .any(|converted| {
            converted
                .root()
                .is_some_and(|root| matches!(walk(root, path.text(), path.steps()), Ok(Some(_))))
        })
}
