//! `MalformedResponseTemplate`: a push response template does not make an object with `id`.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::templates::{response_name, response_template_problem};

declare_rule! {
    /// ## What it does
    /// Checks the form of each push response template (`createResponse`, `updateResponse`,
    /// `deleteResponse`), inline or written as a JSON string: it must be an object (a
    /// mapping) of the platform's create result `{id, success, errors}` (spec 2.6 rule 7). It reports a template that is an array (in YAML, in
    /// JSON text, or an object whose `#loop` key makes one), a constant, a single expression
    /// (`"#valueof($.Customer)"`). A `createResponse` mapping without `id` is SD804's finding.
    ///
    /// ## Why is this bad?
    /// The engine reads `id`, `success` and `errors` as members of the template's output. An
    /// array or a constant has none: every create would end with its outcome unknown (the
    /// record may exist, and no id was learnt), so the engine refuses to load such a template
    /// rather than send creates whose id it can never learn.
    ///
    /// ## Example
    /// ```yaml
    /// createResponse:
    ///   - id: "#valueof($.Customer.Id)"
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// createResponse:
    ///   id: "#valueof($.Customer.Id)"
    /// ```
    pub struct MalformedResponseTemplate {
        title: "a push response template does not make an object with `id`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for op in ["create", "update", "delete"] {
            if info.operation(op).is_none() {
                continue;
            }
            let name = response_name(op);
            let Some(template) = info.template(&name) else {
                continue;
            };
            // A template that is not JSON is SD403's.
            let Some(tree) = &template.tree else { continue };
            // A `createResponse` without `id` is SD804's.
            let Some((Rule::MalformedResponseTemplate, problem)) =
                response_template_problem(op, &tree.root().to_json())
            else {
                continue;
            };
            let d = sink
                .diagnostic(
                    Rule::MalformedResponseTemplate,
                    template.source.name.span,
                    format!("`{name}` {problem}"),
                )
                .with_pointer(template.source.pointer.clone())
                .with_help(format!(
                    "write `{name}` as a mapping: `{{id: \"#valueof($.<the new record's id>)\", success: ..., errors: ...}}`"
                ));
            sink.push(d);
        }
    }
}
