//! The record's own request (create, update or delete): composed, sent, and, when the
//! external system reports a stale concurrency token, composed again after the pre-actions
//! read it afresh, and sent once more.

use syncdef_transform::Value;

use crate::call::answer::{Answer, check_status};
use crate::call::compose::{self, KeySource};
use crate::call::connectors::Connectors;
use crate::call::scope::Scope;
use crate::call::send;
use crate::error::{EngineError, ErrorClass};
use crate::extract::{self, Extracted};
use crate::plan::{ActionPlan, CallPlan, DefinitionPlan, EntryPlan, OperationKind};
use crate::push::Needs;
use crate::push::actions;
use crate::push::response;
use crate::push::run::Run;
use crate::push::synchronizer::Phase;
use crate::reliability::conflict;
use crate::reliability::rate_limit::Account;
use crate::reliability::retry::RequestNature;
use crate::state::RecordState;

/// The push being carried out: what every step of it reads.
pub(crate) struct Pushing<'a> {
    /// The definition, whose entries of lines a post-action may push.
    pub plan: &'a DefinitionPlan,
    pub conn: &'a Connectors<'a>,
    pub needs: &'a Needs<'a>,
    /// The budget of the server's account the push's requests draw on.
    pub account: Option<&'a Account>,
    pub entry: &'a EntryPlan,
    pub record: &'a Value,
    /// For a line, the record it is a line of (the invoice of an invoice item).
    pub parent: Option<&'a Value>,
    pub state: &'a RecordState,
}

impl Pushing<'_> {
    /// The template input of the push's templates as `scope` stands now.
    pub fn input(&self, scope: &Scope<'_>) -> Value {
        scope.input(&self.entry.input_shape, self.record, self.parent)
    }
}

/// Sends the record's `kind` request through `call` and returns the answer the push stands
/// on: the first, or the one after a conflict was resolved.
pub(crate) async fn carry_out(
    run: &mut Run,
    push: &Pushing<'_>,
    kind: OperationKind,
    call: &CallPlan,
    scope: &mut Scope<'_>,
) -> Result<Answer, EngineError> {
    let step = &*call.step;
    let declared = push
        .conn
        .reliability
        .idempotency
        .as_ref()
        .filter(|k| k.applies_to(kind));
    let kept = (kind == OperationKind::Create)
        .then_some(push.state.unresolved_create.as_ref())
        .flatten()
        .and_then(|u| u.idempotency_key.as_deref());
    let nature = RequestNature {
        // A create sent twice may create twice; only an idempotency key makes its re-send
        // safe. An update or delete re-sent leaves the record as one would (and a concurrency
        // token turns a re-sent update that already succeeded into a conflict, handled below).
        repeatable: kind != OperationKind::Create || declared.is_some(),
        duplicates: kind == OperationKind::Create,
    };
    let mut conflicted = false;
    loop {
        let input = push.input(scope);
        let source = match kept {
            Some(kept) => KeySource::Kept(kept),
            None => KeySource::Derived {
                entry: &push.entry.name,
                record: push.record,
            },
        };
        let outgoing = compose::request(
            &mut run.trail,
            call,
            scope,
            &input,
            scope.headers.clone(),
            declared.map(|d| (d, source)),
        )?;
        if kind == OperationKind::Create {
            run.idempotency_key.clone_from(&outgoing.idempotency_key);
            run.create_body = outgoing.body.as_ref().map(|b| b.json.clone());
        }
        let answer = send::send(
            &mut run.trail,
            push.conn,
            push.account,
            call,
            outgoing,
            nature,
        )
        .await?;
        let Some(rule) = conflict_in(push, kind, &answer) else {
            return Ok(answer);
        };
        let status = rule.status;
        let rereads = push
            .entry
            .pre_actions
            .iter()
            .any(|a| matches!(a, ActionPlan::Call { .. }));
        if conflicted || !rereads {
            run.trail.errors = answer
                .body()
                .json()
                .map(extract::error_messages)
                .unwrap_or_default();
            return Err(second_conflict(status, rereads).at(step));
        }
        conflicted = true;
        run.trail.note(format!(
            "step `{step}`: the external system reports a stale concurrency token (HTTP {status}); the pre-actions read it again and the {step} is sent once more"
        ));
        reread_tokens(run, push, scope).await?;
    }
}

/// Sends the record's `kind` request through `call` ([`carry_out`]) and reads the answer it
/// stands on: its status, then what the response template makes of it.
pub(crate) async fn carry_out_and_read(
    run: &mut Run,
    push: &Pushing<'_>,
    kind: OperationKind,
    call: &CallPlan,
    scope: &mut Scope<'_>,
) -> Result<Extracted, EngineError> {
    let answer = carry_out(run, push, kind, call, scope).await?;
    check_status(&mut run.trail, &call.step, &answer)?;
    response::extract(&mut run.trail, kind, call, &answer)
}

/// The conflict rule `answer` matches, for an update or delete.
fn conflict_in<'a>(
    push: &'a Pushing<'_>,
    kind: OperationKind,
    answer: &Answer,
) -> Option<&'a conflict::ConflictRule> {
    if kind == OperationKind::Create {
        return None;
    }
    conflict::find(
        &push.conn.reliability.conflicts,
        answer.response(),
        answer.body(),
    )
}

fn second_conflict(status: u16, rereads: bool) -> EngineError {
    let why = if rereads {
        "again after its concurrency token was read afresh: the record is being changed in the external system while it is pushed. Push it again later; if it persists, check that the pre-actions read the token the update checks"
    } else {
        "and the entry has no pre-action that reads the token again: add one (`preSynchronizationAction` of type ApiPath reading `SyncToken` or `@odata.etag`)"
    };
    EngineError::new(
        ErrorClass::Transient,
        format!("the external system reports a stale concurrency token (HTTP {status}) {why}"),
    )
}

/// Runs again the pre-actions that read tokens. Related records pushed by
/// `ApiSynchronization` actions already have their ids in the scope.
pub(crate) async fn reread_tokens(
    run: &mut Run,
    push: &Pushing<'_>,
    scope: &mut Scope<'_>,
) -> Result<(), EngineError> {
    scope.body_values.clear();
    scope.headers.clear();
    for a in &push.entry.pre_actions {
        if matches!(a, ActionPlan::Call { .. }) {
            actions::run(run, push, a, Phase::Pre, scope).await?;
        }
    }
    Ok(())
}
