//! `PulledRecordShape`: a pull's response template does not make platform records under the
//! module's root, each with its external id.

use syncdef_definitions::Node;

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Sink, Template};
use crate::rule::declare_rule;
use crate::templates::response_name;
use crate::typecheck::pulled::{PULL_OPERATIONS, record_element, written_members};

declare_rule! {
    /// ## What it does
    /// Reads the record a `batchReadResponse` or `readResponse` makes (the body of a root
    /// `#loop`, or the template itself) and reports an element that is not the module's root
    /// alone (`{"account": {...}}` for `Accounts`), and a record that writes no
    /// `integrationId`. The contents of `#ifgroup` keys count as written; levels with other
    /// function keys (`#eval`) are not judged.
///
    /// ## Why is this bad?
    /// The engine sets apart every element that is not `{"<root>": {...}}` with a non-empty
    /// `integrationId` (docs/pull.md): without the external id the pulled record cannot be
    /// matched with the platform's, so every record of every page would be dropped.
///
    /// ## Example
    /// ```yaml
    /// batchReadResponse:
    ///   "#loop($.QueryResponse.Customer)":
    ///     name: "#currentvalueatpath($.DisplayName)"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// batchReadResponse:
    ///   "#loop($.QueryResponse.Customer)":
    ///     account:
    ///       integrationId: "#currentvalueatpath($.Id)"
    ///       name: "#currentvalueatpath($.DisplayName)"
    /// ```
    pub struct PulledRecordShape {
        title: "a pull template does not make records under the module's root with an `integrationId`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let Some(module) = info.module else { continue };
        for (template, tree_root) in pull_templates(info) {
            let Some(element) = record_element(&tree_root) else {
                continue;
            };
            check_element(ctx, sink, template, &element, module.root);
        }
    }
}

/// The entry's pull response templates that parsed, with their tree roots.
pub(crate) fn pull_templates<'i, 'a>(
    info: &'i EntryInfo<'a>,
) -> impl Iterator<Item = (&'i Template<'a>, Node<'i>)> {
    PULL_OPERATIONS.into_iter().filter_map(move |op| {
        info.entry.pull.as_ref()?;
        let template = info.template(&response_name(op))?;
        let root = template.tree.as_ref()?.root();
        Some((template, root))
    })
}

fn check_element(ctx: &Context, sink: &mut Sink, template: &Template, element: &Node, root: &str) {
    let Some(members) = written_members(element) else {
        return;
    };
    let tree = template
        .tree
        .as_ref()
        .expect("pull_templates gives parsed templates");
    let name = &template.source.name.value;
    let mut report = |span, message: String, help: String| {
        let span = tree.node_span(ctx.text(), span);
        let d = sink
            .diagnostic(Rule::PulledRecordShape, span, message)
            .with_pointer(template.source.pointer.clone())
            .with_help(help);
        sink.push(d);
    };
    let wrap =
        format!("write each record under `{root}`: `{{\"{root}\": {{\"integrationId\": …, …}}}}`");
    let Some(record) = members.iter().find(|m| m.key.name == root) else {
        report(
            element.span,
            format!(
                "`{name}` makes elements without `{root}`: a pulled record is under its module's root"
            ),
            wrap,
        );
        return;
    };
    for other in members.iter().filter(|m| m.key.name != root) {
        report(
            other.key.span,
            format!(
                "`{name}` writes `{}` beside `{root}`: a pulled record is its module's root alone",
                other.key.name
            ),
            format!("move it into `{root}`, or remove it"),
        );
    }
    let Some(fields) = written_members(&record.value) else {
        return;
    };
    if !fields.iter().any(|m| m.key.name == "integrationId") {
        report(
            record.key.span,
            format!(
                "`{name}` gives its records no `integrationId`: the external id is how a pulled record is matched with the platform's"
            ),
            "add `integrationId`, read from the external record's id (`\"integrationId\": \"#currentvalueatpath($.Id)\"` in a loop)".into(),
        );
    }
}
