//! `UnknownKey`: a key of the `synchronization` section is not one the format defines.

use syncdef_definitions::model::UnknownField;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports keys of the `synchronization` section that the format does not define, with a
    /// did-you-mean when the key is close to a known one (`preSyncronizationAction`). Keys starting
    /// with `x-` are extensions and never reported.
///
    /// ## Why is this bad?
    /// A misspelt key is ignored by the platform: the action, template or path it holds silently
    /// never runs.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   preSyncronizationAction:
    ///     SyncToken: {type: ApiPath, path: "/v3/company/{realmId}/customer/{IntegrationId}/get"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   preSynchronizationAction:
    ///     SyncToken: {type: ApiPath, path: "/v3/company/{realmId}/customer/{IntegrationId}/get"}
    /// ```
    pub struct UnknownKey {
        title: "a key of the `synchronization` section is not one the format defines",
        severity: Warning,
    }
}

const ENTRY_KEYS: &[&str] = &["description", "module", "push", "pull"];
const PUSH_KEYS: &[&str] = &[
    "create",
    "update",
    "delete",
    "preSynchronizationAction",
    "postSynchronizationAction",
    "schemasTransformer",
];
const PULL_KEYS: &[&str] = &[
    "read",
    "batchRead",
    "preSynchronizationAction",
    "postSynchronizationAction",
    "schemasTransformer",
];
const ACTION_KEYS: &[&str] = &["type", "path", "schema", "in"];

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
    for field in unknown {
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
