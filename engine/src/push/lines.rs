//! Lines pushed one request each: an `ApiSynchronization` post-action naming an entry of lines
//! (`Items: {type: ApiSynchronization, path: InvoiceItems}`) pushes every line of the record
//! with that entry, once the record has its external id, which each line names
//! (`$.related.Invoice.IntegrationId`).
//!
//! The caller's synchronizer pushes them when there is one: the sync worker keeps each line's
//! state as it keeps a record's (its external id, an in-flight create and its idempotency key),
//! so a line pushed before a crash or a failure is not created again, and a changed line is
//! updated. Without one (a push from the command line, a dry-run), the engine pushes them
//! here, with the record's create only: it knows no line's external id, so on an update it
//! could only create every line again.

use std::collections::BTreeMap;
use std::sync::Arc;

use syncdef_transform::Value;

use crate::call::scope::Scope;
use crate::error::{EngineError, ErrorClass};
use crate::outcome::{PushOutcome, PushStatus};
use crate::plan::OperationKind;
use crate::push::operation::Pushing;
use crate::push::run::Run;
use crate::push::{self, Needs};
use crate::state::{Intent, RecordState};

/// Refuses a line pushed on its own, and a record pushed as a line of another.
pub(crate) fn check_parent(push: &Pushing<'_>) -> Result<(), EngineError> {
    let module = push.entry.module;
    match (module.parent, push.parent) {
        (Some(parent), None) => Err(EngineError::configuration(format!(
            "entry `{}` pushes lines of `{parent}` records, each within its record's push: push the record (its entry names `{}` in an `ApiSynchronization` post-action)",
            push.entry.name, push.entry.name
        ))),
        (None, Some(_)) => Err(EngineError::configuration(format!(
            "entry `{}` pushes `{}` records, not lines of another record",
            push.entry.name, module.name
        ))),
        _ => Ok(()),
    }
}

/// The lines of `push.record` that the entry `lines` pushes, as an array; `None` when the
/// record has none.
pub(crate) fn of_record<'r>(
    push: &Pushing<'r>,
    lines: &str,
) -> Result<Option<&'r [Value]>, EngineError> {
    let entry = push.plan.entry(lines).ok_or_else(|| {
        EngineError::configuration(format!("the definition has no entry `{lines}`"))
    })?;
    let Some(collection) = entry.module.line_collection() else {
        return Err(EngineError::configuration(format!(
            "entry `{lines}` does not push lines"
        )));
    };
    match push.record.get(collection.field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items.as_slice())),
        Some(other) => Err(EngineError::configuration(format!(
            "the record's `{}` holds {}, not the array of its lines",
            collection.field,
            other.type_name()
        ))),
    }
}

/// Pushes every line of the record with the entry `lines`, in order, after the record's create;
/// the first line that fails stops the others and fails the action.
pub(crate) async fn push_all(
    run: &mut Run,
    push: &Pushing<'_>,
    action: &str,
    lines: &str,
    scope: &Scope<'_>,
) -> Result<(), EngineError> {
    if run.operation != Some(OperationKind::Create) {
        run.trail.note(format!(
            "action `{action}`: the lines are pushed with the record's create here, where no line's external id is known; the sync worker, which keeps them, pushes changed lines on updates too"
        ));
        return Ok(());
    }
    let Some(items) = of_record(push, lines)? else {
        run.trail
            .note(format!("action `{action}`: the record has no lines"));
        return Ok(());
    };
    let state = line_state(push, scope);
    // The line's own post-actions have no caller to push related records.
    let needs = Needs {
        record_limits: push.needs.record_limits,
        synchronizer: None,
    };
    for (index, line) in items.iter().enumerate() {
        let label = line_label(action, index, line);
        let outcome = Box::pin(push::push(
            push.plan,
            push.conn,
            &needs,
            lines,
            line,
            Some(push.record),
            &state,
            Some(Arc::from(label.as_str())),
        ))
        .await;
        let failed = absorb(run, &label, outcome);
        if let Some(mut error) = failed {
            // The line's class and retry time stand; the message says which line, and how
            // far the lines got.
            error.message = format!(
                "line {} of {} failed ({} pushed before it): {}",
                index + 1,
                items.len(),
                index,
                error.message
            );
            error.step = Some(label);
            return Err(error);
        }
    }
    Ok(())
}

/// The external ids a line of the record names: the records the record names (an account a
/// pre-action pushed included), and the record itself under its entry's name
/// (`{Invoice.IntegrationId}`).
pub(crate) fn related(push: &Pushing<'_>, scope: &Scope<'_>) -> BTreeMap<String, String> {
    let mut related = scope.related.clone();
    if let Some(id) = &scope.external_id {
        related.insert(push.entry.name.to_string(), id.clone());
    }
    related
}

/// What a line's push knows when the engine pushes it: no external id, and [`related`] ids.
fn line_state(push: &Pushing<'_>, scope: &Scope<'_>) -> RecordState {
    RecordState {
        external_id: None,
        related: related(push, scope),
        server_variables: push.state.server_variables.clone(),
        intent: Intent::Upsert,
        unresolved_create: None,
    }
}

/// How messages and the audit trail name a line: the action, its position and its id.
pub(crate) fn line_label(action: &str, index: usize, line: &Value) -> String {
    match line.get("id") {
        Some(Value::String(id)) => format!("{action}[{index}] id {id}"),
        Some(Value::Int(id)) => format!("{action}[{index}] id {id}"),
        _ => format!("{action}[{index}]"),
    }
}

/// Moves a line's trail into the record's (its requests already named after the line, its
/// template outputs and notes named here); the line's error when it failed.
fn absorb(run: &mut Run, label: &str, outcome: PushOutcome) -> Option<EngineError> {
    let PushOutcome {
        status,
        error,
        exchanges,
        templates,
        notes,
        errors,
        ..
    } = outcome;
    for exchange in exchanges {
        run.trail.exchange(exchange);
    }
    for template in templates {
        run.trail.template(
            format!("{label}: {}", template.name).into(),
            template.output,
        );
    }
    for note in notes {
        run.trail.note(format!("{label}: {note}"));
    }
    run.trail.errors.extend(errors);
    (status == PushStatus::Failed).then(|| {
        error.unwrap_or_else(|| {
            EngineError::new(
                ErrorClass::UnknownOutcome,
                "the line failed without an error",
            )
        })
    })
}
