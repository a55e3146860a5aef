//! `UnknownModule`: `module` is not a platform module.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::platform::MODULES;
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports entries whose `module` is not one of the platform's modules (the table "Platform
    /// modules" of docs/rules/README.md, written from the module table the checker uses), with a
    /// did-you-mean.
///
    /// ## Why is this bad?
    /// The platform attaches entries to modules by name; an unknown module is never triggered, so
    /// nothing is ever synchronized.
///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   module: Account
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// Customer:
    ///   module: Accounts
    /// ```
    pub struct UnknownModule {
        title: "`module` is not a platform module",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let (Some(module), None) = (&info.entry.module, info.module) else {
            continue;
        };
        let names = MODULES.iter().map(|m| m.name);
        let help = hint(module.as_str(), names.clone()).unwrap_or_else(|| {
            format!(
                "platform modules: {}",
                names
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
        let d = sink
            .diagnostic(
                Rule::UnknownModule,
                module.span,
                format!("`{}` is not a platform module", module.as_str()),
            )
            .with_pointer(format!("{}/module", info.entry.pointer))
            .with_help(help);
        sink.push(d);
    }
}
