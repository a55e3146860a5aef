//! `UnknownActionType`: an action's `type` is not `ApiPath` or `ApiSynchronization`.

use syncdef_definitions::model::ActionType;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports pre- and post-synchronization actions whose `type` is neither `ApiPath` (call an
    /// operation of the external system) nor `ApiSynchronization` (synchronize a child collection or
    /// another entry), with a did-you-mean.
///
    /// ## Why is this bad?
    /// The platform skips an action of unknown type; a concurrency token it should have fetched is
    /// then missing and the update is refused.
///
    /// ## Example
    /// ```yaml
    /// preSynchronizationAction:
    ///   SyncToken:
    ///     type: ApiCall
    ///     path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// preSynchronizationAction:
    ///   SyncToken:
    ///     type: ApiPath
    ///     path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    /// ```
    pub struct UnknownActionType {
        title: "an action's `type` is not `ApiPath` or `ApiSynchronization`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for (_, action) in info.actions() {
            let Some(kind) = &action.kind else { continue };
            let ActionType::Unknown(written) = &kind.value else {
                continue;
            };
            let help = hint(written, ["ApiPath", "ApiSynchronization"])
                .unwrap_or_else(|| "use `ApiPath` to call an external operation, or `ApiSynchronization` to synchronize a child collection or another entry".into());
            let d = sink
                .diagnostic(
                    Rule::UnknownActionType,
                    kind.span,
                    format!("`{written}` is not an action type"),
                )
                .with_pointer(format!("{}/type", action.pointer))
                .with_help(help);
            sink.push(d);
        }
    }
}
