//! `MisspeltKey`: a key of the `synchronization` section is a near miss of a key the format
//! defines.

use syncdef_definitions::model::UnknownField;

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a key of the `synchronization` section that is a near miss of a key the format
    /// defines at that place and that the object lacks: the same but for case, or one to
    /// three edits away (`preSyncronizationAction`, `crate`, `schemaTransformer`). The key's
    /// value is checked as if it were spelt right, so its paths, placeholders and templates are
    /// reported too; but what it would supply counts for nothing (a template that reads
    /// `$.syncToken` from a misspelt pre-action is reported by SD405).
    ///
    /// ## Why is this bad?
    /// The platform ignores a key it does not know: a misspelt `preSynchronizationAction`
    /// never runs, and the update sends `"SyncToken": null`; a misspelt `create` never
    /// creates. Nothing fails; the feature silently drops.
    ///
    /// ## Example
    /// ```yaml
    /// push:
    ///   update: /customer/post
    ///   preSyncronizationAction:
    ///     SyncToken: {type: ApiPath, path: /customer/{IntegrationId}/get, in: Body}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   update: /customer/post
    ///   preSynchronizationAction:
    ///     SyncToken: {type: ApiPath, path: /customer/{IntegrationId}/get, in: Body}
    /// ```
    pub struct MisspeltKey {
        title: "a key of the `synchronization` section is a near miss of a defined key",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for field in ctx.entries.iter().flat_map(EntryInfo::unknown_fields) {
        report(sink, field);
    }
}

fn report(sink: &mut Sink, field: &UnknownField) {
    let Some(meant) = field.meant else { return };
    let key = field.key.as_str();
    let d = sink
        .diagnostic(
            Rule::MisspeltKey,
            field.key.span,
            format!("`{key}` is not a key of the format; did you mean `{meant}`?"),
        )
        .with_pointer(field.pointer.clone())
        .with_help(format!(
            "rename it to `{meant}`: the platform ignores `{key}`, so what it holds never runs"
        ));
    sink.push(d);
}
