//! Pre- and post-synchronization actions: `ApiPath` calls and `ApiSynchronization` hand-offs.

use serde_json::Value as Json;
use syncdef_definitions::operation_ref::HttpMethod;

use crate::call::answer::check_status;
use crate::call::scope::Scope;
use crate::call::trail::Trail;
use crate::call::{compose, send};
use crate::error::EngineError;
use crate::lookup;
use crate::plan::{ActionPlan, Placement};
use crate::push::lines;
use crate::push::operation::Pushing;
use crate::push::run::Run;
use crate::push::synchronizer::{Lines, Phase, SyncRequest};
use crate::reliability::retry::RequestNature;
use crate::transport::HttpResponse;

/// Runs every action of `phase`, in document order; the first that fails stops the others.
pub(crate) async fn run_all(
    run: &mut Run,
    push: &Pushing<'_>,
    phase: Phase,
    scope: &mut Scope<'_>,
) -> Result<(), EngineError> {
    let list = match phase {
        Phase::Pre => &push.entry.pre_actions,
        Phase::Post => &push.entry.post_actions,
    };
    for action in list {
        self::run(run, push, action, phase, scope).await?;
    }
    Ok(())
}

/// Runs one action: hands an `ApiSynchronization` target to the caller's synchronizer, or
/// calls an `ApiPath` operation and reads what it places.
pub(crate) async fn run(
    run: &mut Run,
    push: &Pushing<'_>,
    action: &ActionPlan,
    phase: Phase,
    scope: &mut Scope<'_>,
) -> Result<(), EngineError> {
    match action {
        ActionPlan::Synchronize {
            name,
            target,
            lines,
        } => synchronize(run, push, name, target, lines.as_deref(), phase, scope).await,
        ActionPlan::Call {
            name,
            call,
            placement,
        } => {
            if call.needs_external_id() && scope.external_id.is_none() {
                // Every create of an entry with such an action says so: joined, not formatted.
                run.trail.note(
                    [
                        "action `",
                        name,
                        "` skipped: its path needs `{IntegrationId}` and the record has no external id yet (it is being created)",
                    ]
                    .concat(),
                );
                return Ok(());
            }
            let input = push.input(scope);
            let outgoing = compose::request(&mut run.trail, call, scope, &input, Vec::new(), None)?;
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
            let nature = RequestNature {
                repeatable,
                duplicates: !repeatable,
            };
            let answer = send::send(
                &mut run.trail,
                push.conn,
                push.account,
                call,
                outgoing,
                nature,
            )
            .await?;
            check_status(&mut run.trail, name, &answer)?;
            let response = answer.response();
            // Values are read from a JSON body or headers; a body that is not JSON can still
            // supply headers.
            let json = answer.body().json().unwrap_or(&Json::Null);
            place(&mut run.trail, name, placement, json, response, scope)
        }
    }
}

async fn synchronize(
    run: &mut Run,
    push: &Pushing<'_>,
    name: &str,
    target: &str,
    lines: Option<&str>,
    phase: Phase,
    scope: &mut Scope<'_>,
) -> Result<(), EngineError> {
    let Some(synchronizer) = push.needs.synchronizer else {
        if let Some(lines) = lines {
            // The plan refuses lines before the record's own request.
            return lines::push_all(run, push, name, lines, scope).await;
        }
        let child = syncdef_definitions::platform::modules::MODULES
            .iter()
            .any(|m| m.child_names().any(|c| c == target));
        run.trail.note(if child {
            format!(
                "action `{name}` (ApiSynchronization of the child collection `{target}`) skipped: no synchronizer is set, so its items are not pushed here (a caller with a synchronizer pushes them: `Engine::with_synchronizer`, the sync worker)"
            )
        } else {
            format!(
                "action `{name}` (ApiSynchronization of `{target}`) skipped: no synchronizer is set; `{{{target}.IntegrationId}}` comes from the record state"
            )
        });
        return Ok(());
    };
    let lines = match lines {
        Some(entry) => Some(Lines {
            entry,
            items: lines::of_record(push, entry)
                .map_err(|e| e.at(name))?
                .unwrap_or_default(),
            related: lines::related(push, scope),
        }),
        None => None,
    };
    let request = SyncRequest {
        entry: &push.entry.name,
        action: name,
        target,
        phase,
        record: push.record,
        state: push.state,
        external_id: scope.external_id.as_deref(),
        lines,
    };
    let id = synchronizer
        .synchronize(request)
        .await
        .map_err(|e| e.at(name))?;
    if let Some(id) = id {
        scope.related.insert(target.to_owned(), id);
    }
    Ok(())
}

/// Puts what `placement` names from the response into the scope.
fn place(
    trail: &mut Trail,
    name: &str,
    placement: &Placement,
    json: &Json,
    response: &HttpResponse,
    scope: &mut Scope<'_>,
) -> Result<(), EngineError> {
    match placement {
        Placement::Body(fields) => {
            for (field, source) in fields {
                let value = read(trail, name, json, response, source)?;
                scope.body_values.retain(|(k, _)| k != field);
                scope.body_values.push((field.clone(), value));
            }
        }
        Placement::Header {
            name: header,
            source,
        } => {
            let value = read(trail, name, json, response, source)?;
            scope
                .headers
                .retain(|(k, _)| !k.eq_ignore_ascii_case(header));
            scope.headers.push((header.clone(), value));
        }
        Placement::Nothing => {}
    }
    Ok(())
}

/// A value named `source` from the response: a body member (nested by dots), else a response
/// header of that name. A synthesised response that lacks it gets a stand-in, noted.
fn read(
    trail: &mut Trail,
    action: &str,
    body: &Json,
    response: &HttpResponse,
    source: &str,
) -> Result<String, EngineError> {
    if let Some(v) = lookup::field(body, source).and_then(lookup::scalar_text) {
        return Ok(v);
    }
    if let Some(v) = response.header(source) {
        return Ok(v.to_owned());
    }
    if response.synthesized {
        trail.note(format!(
            "action `{action}`: the synthesised response has no `{source}`; a stand-in value is used"
        ));
        return Ok(syncdef_definitions::answer::stand_in(source, action));
    }
    Err(EngineError::configuration(format!(
        "the response has no `{source}`, neither as a body member nor as a header; check the action's `schema`"
    ))
    .at(action))
}
