//! `MisplacedLines`: an entry of lines is pushed where it cannot be, or never.

use syncdef_definitions::platform::lines::{LinesTarget, lines_target};

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// An entry whose `module` is a collection of lines (`InvoiceItems`, `OrderItems`) pushes
    /// each line of its parent record in a request of its own, within the parent's push: an
    /// `ApiSynchronization` post-action of the parent's entry names it (by its name, or by the
    /// collection when one entry alone has that module). This rule reports such an action in
    /// `preSynchronizationAction` (the parent does not exist yet in the external system, so a
    /// line cannot name it), an action of an entry of another module, a collection that
    /// several entries push, an entry of lines that no action pushes, and one with a `pull`
    /// (lines are read with their parent record).
///
    /// ## Why is this bad?
    /// Lines pushed before their invoice cannot be attached to it; lines no action pushes are
    /// never sent, and the invoice arrives empty.
///
    /// ## Example
    /// ```yaml
    /// Invoice:
    ///   module: Invoices
    ///   push:
    ///     preSynchronizationAction:
    ///       Items: {type: ApiSynchronization, path: InvoiceItems}
    /// InvoiceItems:
    ///   module: InvoiceItems
    ///   push: {create: /v1/invoiceitems/post}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///     postSynchronizationAction:
    ///       Items: {type: ApiSynchronization, path: InvoiceItems}
    /// ```
    pub struct MisplacedLines {
        title: "an entry of lines is pushed where it cannot be, or never",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let entries = || {
        ctx.entries.iter().map(|e| {
            (
                e.name(),
                e.entry
                    .module
                    .as_ref()
                    .map(syncdef_definitions::model::Text::as_str),
            )
        })
    };
    let mut pushed: Vec<&str> = Vec::new();
    for info in &ctx.entries {
        let Some(module) = info.module else { continue };
        for (pre, action) in info.actions() {
            let Some(path) = action.synchronized() else {
                continue;
            };
            let problem = match lines_target(module, path.as_str(), entries()) {
                LinesTarget::NotLines => continue,
                LinesTarget::Entry(name) if !pre => {
                    pushed.push(name);
                    continue;
                }
                LinesTarget::Entry(name) => {
                    pushed.push(name);
                    (
                        format!(
                            "`{name}` pushes lines, which need their {} to exist in the external system first",
                            module.root
                        ),
                        "move the action to `postSynchronizationAction`: it runs once the record has its external id, which each line names".to_owned(),
                    )
                }
                LinesTarget::Ambiguous => (
                    format!(
                        "several entries push `{}`: the action does not say which",
                        path.as_str()
                    ),
                    "name the entry that pushes the lines in `path`".to_owned(),
                ),
                LinesTarget::ForeignParent(lines) => (
                    format!(
                        "`{}` pushes lines of `{}`, not of `{}`",
                        path.as_str(),
                        lines.parent.unwrap_or_default(),
                        module.name
                    ),
                    format!(
                        "name an entry whose module is a collection of `{}` lines ({})",
                        module.name,
                        module
                            .child_names()
                            .map(|c| format!("`{c}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ),
            };
            let d = sink
                .diagnostic(Rule::MisplacedLines, path.span, problem.0)
                .with_pointer(format!("{}/path", action.pointer))
                .with_help(problem.1);
            sink.push(d);
        }
    }
    for info in ctx.entries.iter().filter(|e| is_lines(e)) {
        if let Some(pull) = &info.entry.pull {
            report_pulled(sink, info, pull);
        }
        if pushed.contains(&info.name()) {
            continue;
        }
        report_never_pushed(sink, info);
    }
}

fn report_pulled(sink: &mut Sink, info: &EntryInfo, pull: &syncdef_definitions::model::Pull) {
    let parent = info.module.and_then(|m| m.parent).unwrap_or_default();
    let d = sink
        .diagnostic(
            Rule::MisplacedLines,
            pull.span,
            format!("lines are not pulled on their own: they are read with their {parent} record"),
        )
        .with_pointer(pull.pointer.clone())
        .with_help("remove the `pull`");
    sink.push(d);
}

fn is_lines(info: &EntryInfo) -> bool {
    info.module.is_some_and(|m| m.parent.is_some())
}

fn report_never_pushed(sink: &mut Sink, info: &EntryInfo) {
    let Some(module) = info.module else { return };
    let Some(module_text) = &info.entry.module else {
        return;
    };
    let parent = module.parent.unwrap_or_default();
    let d = sink
        .diagnostic(
            Rule::MisplacedLines,
            module_text.span,
            format!(
                "no entry pushes these lines: lines are pushed within their {parent} record's push"
            ),
        )
        .with_pointer(format!("{}/module", info.entry.pointer))
        .with_help(format!(
            "add `postSynchronizationAction: {{Lines: {{type: ApiSynchronization, path: {}}}}}` to the entry of module `{parent}`",
            info.name()
        ));
    sink.push(d);
}
