//! `PullAction`: a `pull` declares synchronization actions, which a pull does not run.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports `preSynchronizationAction` and `postSynchronizationAction` under an entry's
    /// `pull`. Actions read a concurrency token for a push's request or push a related entry
    /// first; a pull only reads (`batchRead`, `read`) and maps what it reads, so the engine
    /// refuses to load a definition whose pull has actions rather than ignore them.
///
    /// ## Why is this bad?
    /// Whatever the action was meant to do would silently not happen.
///
    /// ## Example
    /// ```yaml
    /// pull:
    ///   batchRead: /v3/company/{realmId}/query/get
    ///   preSynchronizationAction:
    ///     SyncToken: {type: ApiPath, path: /v3/company/{realmId}/customer/{IntegrationId}/get, in: Body}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// pull:
    ///   batchRead: /v3/company/{realmId}/query/get
    /// ```
    pub struct PullAction {
        title: "a `pull` declares synchronization actions, which a pull does not run",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let Some(pull) = &info.entry.pull else {
            continue;
        };
        let actions = pull
            .common
            .pre_actions
            .iter()
            .chain(&pull.common.post_actions);
        for action in actions {
            let d = sink
                .diagnostic(
                    Rule::PullAction,
                    action.name.span,
                    format!(
                        "action `{}` is under `pull`, and a pull runs no actions",
                        action.name.value
                    ),
                )
                .with_pointer(action.pointer.clone())
                .with_help(
                    "remove it: a pull only reads and maps; token and related-record actions belong to `push`",
                );
            sink.push(d);
        }
    }
}
