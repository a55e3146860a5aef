//! `UnknownKey`: a key of the `synchronization` section is not one the format defines.

use syncdef_definitions::model::UnknownField;
use syncdef_definitions::model::keys::{ACTION_KEYS, ENTRY_KEYS, PULL_KEYS, PUSH_KEYS};

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports keys of the `synchronization` section that the format does not define and that
    /// are no near miss of a defined key (those are errors: SD112), with a did-you-mean when
    /// one is close. Keys starting with `x-` are extensions and never reported.
///
    /// ## Why is this bad?
    /// A key the platform does not know is ignored: what it holds silently never happens.
    ///
    /// ## Example
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   retryPolicy: daily
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   x-retryPolicy: daily   # an extension, kept for other tools
    /// ```
    pub struct UnknownKey {
        title: "a key of the `synchronization` section is not one the format defines",
        severity: Warning,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let entry = info.entry;
        report(sink, &entry.unknown, ENTRY_KEYS, "an entry");
        if let Some(push) = &entry.push {
            report(sink, &push.common.unknown, PUSH_KEYS, "`push`");
        }
        if let Some(pull) = &entry.pull {
            report(sink, &pull.common.unknown, PULL_KEYS, "`pull`");
        }
        for (_, action) in info.actions() {
            report(sink, &action.unknown, ACTION_KEYS, "an action");
        }
    }
}

fn report(sink: &mut Sink, unknown: &[UnknownField], known: &[&str], owner: &str) {
    for field in unknown.iter().filter(|f| f.meant.is_none()) {
        let key = field.key.as_str();
        // `x-` keys are vendor extensions, as in OpenAPI.
        if key.starts_with("x-") {
            continue;
        }
        let help = hint(key, known.iter().copied()).unwrap_or_else(|| {
            format!(
                "{owner} may have {}; remove the key or prefix it with `x-`",
                list(known)
            )
        });
        let d = sink
            .diagnostic(
                Rule::UnknownKey,
                field.key.span,
                format!("unknown key `{key}` in {owner}"),
            )
            .with_pointer(field.pointer.clone())
            .with_help(help);
        sink.push(d);
    }
}

fn list(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
