//! `UnknownSynchronizationTarget`: an `ApiSynchronization` action names neither a child collection nor an entry.

use syncdef_definitions::platform::modules::Module;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports `ApiSynchronization` actions whose `path` is neither a child collection of the
    /// entry's module (`InvoiceItems` for `Invoices`, `OrderItems` for `Orders`) nor an entry of the
    /// `synchronization` section, with a did-you-mean.
///
    /// ## Why is this bad?
    /// The platform cannot synchronize what it cannot find: the invoice is pushed without its
    /// lines, or before its customer exists in the external system.
///
    /// ## Example
    /// ```yaml
    /// Invoice:
    ///   module: Invoices
    ///   push:
    ///     preSynchronizationAction:
    ///       Customer: {type: ApiSynchronization, path: Custmer}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///       Customer: {type: ApiSynchronization, path: Customer}
    /// ```
    pub struct UnknownSynchronizationTarget {
        title: "an `ApiSynchronization` action names neither a child collection nor an entry",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let children: Vec<&str> = info
            .module
            .into_iter()
            .flat_map(Module::child_names)
            .collect();
        for (_, action) in info.actions() {
            let Some(path) = action.synchronized() else {
                continue;
            };
            let target = path.as_str();
            if children.contains(&target) || ctx.entry_names().any(|n| n == target) {
                continue;
            }
            let candidates: Vec<&str> = children.iter().copied().chain(ctx.entry_names()).collect();
            let help = hint(target, candidates.iter()).unwrap_or_else(|| {
                format!(
                    "name a child collection of the module or an entry: {}",
                    candidates
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
            let d = sink
                .diagnostic(
                    Rule::UnknownSynchronizationTarget,
                    path.span,
                    format!(
                        "`{target}` is neither a child collection of `{}` nor an entry",
                        info.entry
                            .module
                            .as_ref()
                            .map_or("this module", |m| m.as_str())
                    ),
                )
                .with_pointer(format!("{}/path", action.pointer))
                .with_help(help);
            sink.push(d);
        }
    }
}
