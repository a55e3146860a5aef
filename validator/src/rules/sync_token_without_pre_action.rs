//! `SyncTokenWithoutPreAction`: a template reads `$.syncToken` but no pre-action supplies it.

use syncdef_definitions::model::ActionIn;

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Sink};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Reports templates reading `$.syncToken` in an entry that has no `preSynchronizationAction`
    /// placing a value in the body (`in: Body`). The token is the value such an action reads from
    /// the external record before the push.
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
        // An action with a misspelt `in`, or a misspelt `preSynchronizationAction` key, is
        // already reported (SD502, SD109) and is most likely the supplier: no second finding.
        let supplied = info.actions().any(|(pre, action)| {
            pre && matches!(
                action.placement.as_ref().map(|p| &p.value),
                Some(ActionIn::Body | ActionIn::Unknown(_))
            )
        });
        if supplied || misspelt_pre_actions(info) {
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

fn misspelt_pre_actions(info: &EntryInfo) -> bool {
    let commons = [
        info.entry.push.as_ref().map(|p| &p.common),
        info.entry.pull.as_ref().map(|p| &p.common),
    ];
    commons
        .into_iter()
        .flatten()
        .flat_map(|c| &c.unknown)
        .any(|u| did_you_mean(u.key.as_str(), ["preSynchronizationAction"]).is_some())
}
