//! `SyncTokenWithoutPreAction`: a template reads `$.syncToken` but no pre-action supplies it.

use syncdef_definitions::model::{Action, ActionIn};

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports templates reading `$.syncToken` in an entry that has no `preSynchronizationAction`
    /// placing a value in the body (`in: Body`) through a `name: response field` mapping of its
    /// `schema` (an action whose `schema` maps nothing supplies nothing). The token is the value
    /// such an action reads from the external record before the push.
///
    /// ## Why is this bad?
    /// Without the action the token is always empty, and systems with optimistic concurrency
    /// (QuickBooks `SyncToken`, Business Central `@odata.etag`) refuse every update.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   update: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     updateRequest: {Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)", sparse: true}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   update: "/v3/company/{realmId}/customer/post"
    ///   preSynchronizationAction:
    ///     SyncToken:
    ///       type: ApiPath
    ///       path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    ///       schema: {type: String, SyncToken: "Customer.SyncToken"}
    ///       in: Body
    ///   schemasTransformer:
    ///     updateRequest: {Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)", sparse: true}
    /// ```
    pub struct SyncTokenWithoutPreAction {
        title: "a template reads `$.syncToken` but no pre-action supplies it",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        // An action with a misspelt `in` is already reported (SD502) and is most likely the
        // supplier: no second finding. Actions under a misspelt `preSynchronizationAction`
        // (SD112) supply nothing: the platform never runs them.
        // A `Body` action supplies the token only through a `name: response field` mapping
        // of its `schema`: without one, `$.syncToken` is null in every update.
        let supplied = supplying_pre_actions(info).any(|action| {
            match action.placement.as_ref().map(|p| &p.value) {
                Some(ActionIn::Unknown(_)) => true,
                Some(ActionIn::Body) => {
                    action.schema.as_ref().is_some_and(|s| !s.fields.is_empty())
                }
                _ => false,
            }
        });
        if supplied {
            continue;
        }
        for template in &info.templates {
            // One finding per template: every further read has the same cause.
            let Some(read) = template.reads.iter().find(|r| r.root == "syncToken") else {
                continue;
            };
            let d = sink
                .diagnostic(Rule::SyncTokenWithoutPreAction, read.span, format!("`{}` reads `$.syncToken` but no pre-action supplies it", template.name()))
                .with_pointer(template.source.pointer.clone())
                .with_help("add a `preSynchronizationAction` of type `ApiPath` with `in: Body` that reads the token from the external record");
            sink.push(d);
        }
    }
}

/// The pre-actions the platform runs: those under a correctly spelt key.
fn supplying_pre_actions<'a>(info: &EntryInfo<'a>) -> impl Iterator<Item = &'a Action> {
    let commons = [
        info.entry.push.as_ref().map(|p| &p.common),
        info.entry.pull.as_ref().map(|p| &p.common),
    ];
    commons
        .into_iter()
        .flatten()
        .filter(|c| {
            !c.unknown
                .iter()
                .any(|u| u.meant == Some("preSynchronizationAction"))
        })
        .flat_map(|c| &c.pre_actions)
}
