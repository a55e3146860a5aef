//! Pre- and post-synchronization actions: `ApiPath` calls and `ApiSynchronization` hand-offs.

use futures::future::BoxFuture;
use serde_json::Value as Json;
use syncdef_definitions::operation_ref::HttpMethod;
use syncdef_transform::Value;

use crate::engine::Engine;
use crate::error::PushError;
use crate::lookup;
use crate::plan::{ActionPlan, EntryPlan, Placement};
use crate::run::{Run, Scope};
use crate::state::RecordState;
use crate::transport::HttpResponse;

/// Whether an action runs before or after the record's own request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `preSynchronizationAction`.
    Pre,
    /// `postSynchronizationAction` (runs only after a successful push).
    Post,
}

/// What an `ApiSynchronization` action asks the caller to push.
#[derive(Debug)]
pub struct SyncRequest<'a> {
    /// The entry being pushed (`Invoice`).
    pub entry: &'a str,
    /// The action's name.
    pub action: &'a str,
    /// The entry or child collection to push (`Account`, `InvoiceItems`).
    pub target: &'a str,
    /// Before or after the record's own request.
    pub phase: Phase,
    /// The record being pushed (the invoice, whose account the caller looks up).
    pub record: &'a Value,
    /// The record's state.
    pub state: &'a RecordState,
    /// The record's external id as known now (after a create, the new one).
    pub external_id: Option<&'a str>,
}

/// Pushes what `ApiSynchronization` actions name, for the engine: the caller knows where the
/// related records are (an invoice's account) and usually pushes them with the same engine.
pub trait Synchronizer: Send + Sync {
    /// Pushes `request.target`; returns the external id of the pushed record when the target is
    /// an entry, so that `{<target>.IntegrationId}` placeholders can use it. An error fails the
    /// push (before) or is reported as a post-action error (after).
    fn synchronize<'a>(
        &'a self,
        request: SyncRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<String>, PushError>>;
}

#[allow(clippy::too_many_arguments)]
pub(crate) async fn run(
    engine: &Engine,
    run: &mut Run,
    entry: &EntryPlan,
    action: &ActionPlan,
    phase: Phase,
    record: &Value,
    state: &RecordState,
    scope: &mut Scope<'_>,
) -> Result<(), PushError> {
    match action {
        ActionPlan::Synchronize { name, target } => {
            let Some(synchronizer) = &engine.synchronizer else {
                run.note(format!(
                    "action `{name}` (ApiSynchronization of `{target}`) skipped: no synchronizer is set; `{{{target}.IntegrationId}}` comes from the record state"
                ));
                return Ok(());
            };
            let request = SyncRequest {
                entry: &entry.name,
                action: name,
                target,
                phase,
                record,
                state,
                external_id: scope.external_id.as_deref(),
            };
            let id = synchronizer
                .synchronize(request)
                .await
                .map_err(|e| e.at(name))?;
            if let Some(id) = id {
                scope.related.insert(target.clone(), id);
            }
            Ok(())
        }
        ActionPlan::Call {
            name,
            call,
            placement,
        } => {
            if call.needs_external_id() && scope.external_id.is_none() {
                // Every create of an entry with such an action says so: joined, not formatted.
                run.note(
                    [
                        "action `",
                        name,
                        "` skipped: its path needs `{IntegrationId}` and the record has no external id yet (it is being created)",
                    ]
                    .concat(),
                );
                return Ok(());
            }
            let input = scope.input(&entry.input_shape, record);
            let body = run.request_body(call, &input)?;
            let target = call
                .target(scope.server, &scope.fill())
                .map_err(|e| e.at(name))?;
            // An action is retried after a lost answer only when its method is idempotent
            // (reads, PUT, DELETE): a POST action may have taken effect.
            let repeatable = matches!(
                call.reference.method,
                HttpMethod::Get
                    | HttpMethod::Head
                    | HttpMethod::Options
                    | HttpMethod::Put
                    | HttpMethod::Delete
            );
            let answer = run
                .send(engine, call, target, body, &[], repeatable)
                .await?;
            run.check_status(name, &answer)?;
            let response = answer.response();
            // Values are read from a JSON body or headers; a body that is not JSON can still
            // supply headers.
            let json = answer.body().json().unwrap_or(&Json::Null);
            match placement {
                Placement::Body(fields) => {
                    for (field, source) in fields {
                        let value = read(run, name, json, response, source)?;
                        scope.body_values.retain(|(k, _)| k != field);
                        scope.body_values.push((field.clone(), value));
                    }
                }
                Placement::Header {
                    name: header,
                    source,
                } => {
                    let value = read(run, name, json, response, source)?;
                    scope
                        .headers
                        .retain(|(k, _)| !k.eq_ignore_ascii_case(header));
                    scope.headers.push((header.clone(), value));
                }
                Placement::Nothing => {}
            }
            Ok(())
        }
    }
}

/// A value named `source` from the response: a body member (nested by dots), else a response
/// header of that name. A synthesised response that lacks it gets a stand-in, noted.
fn read(
    run: &mut Run,
    action: &str,
    body: &Json,
    response: &HttpResponse,
    source: &str,
) -> Result<String, PushError> {
    if let Some(v) = lookup::field(body, source).and_then(lookup::scalar_text) {
        return Ok(v);
    }
    if let Some(v) = response.header(source) {
        return Ok(v.to_owned());
    }
    if response.synthesized {
        run.note(format!(
            "action `{action}`: the synthesised response has no `{source}`; a stand-in value is used"
        ));
        return Ok(format!("<{source} from {action}>"));
    }
    Err(PushError::configuration(format!(
        "the response has no `{source}`, neither as a body member nor as a header; check the action's `schema`"
    ))
    .at(action))
}
