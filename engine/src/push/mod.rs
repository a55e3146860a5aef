//! One push, as the steps it takes: [`prepare`] (the operation), [`resolve`] (an earlier create
//! of unknown outcome, found out before creating again), the pre-[`actions`], the record's own
//! request ([`operation`]: composed, sent with retries, conflicts re-read), the [`response`]
//! read, and the post-actions. Each phase is a file; the requests they make are the call
//! layer's steps ([`crate::call`]), and they record what they do in the [`Run`], the push's
//! audit trail and results. The caller pushes related records through its [`synchronizer`].

pub(crate) mod actions;
pub(crate) mod catch_up;
pub(crate) mod lines;
pub(crate) mod operation;
pub(crate) mod prepare;
pub(crate) mod resolve;
pub(crate) mod response;
pub(crate) mod run;
pub(crate) mod synchronizer;

use std::sync::Arc;

use syncdef_transform::Value;

use crate::call::connectors::Connectors;
use crate::call::scope::Scope;
use crate::error::EngineError;
use crate::outcome::{PushOutcome, PushStatus};
use crate::plan::{DefinitionPlan, OperationKind};
use crate::reliability::RecordLimits;
use crate::state::{Intent, RecordState};
use operation::Pushing;
use run::Run;
use synchronizer::{Phase, Synchronizer};

/// What a push needs of the engine beyond its plan and connectors.
pub(crate) struct Needs<'a> {
    /// A record beyond them is refused before anything is sent.
    pub record_limits: &'a RecordLimits,
    /// Pushes what `ApiSynchronization` actions name; none: those actions are skipped, noted.
    pub synchronizer: Option<&'a dyn Synchronizer>,
}

/// Pushes `record` of `entry` of `plan` through `conn`, a line of `parent` when the entry is
/// one of lines, its steps named after `prefix` when it is pushed within another push (a
/// line: `Items[0] id 90311: create`); every failure is in the outcome, classified.
#[expect(
    clippy::too_many_arguments,
    reason = "what a push is of, and the name of its steps"
)]
pub(crate) async fn push(
    plan: &DefinitionPlan,
    conn: &Connectors<'_>,
    needs: &Needs<'_>,
    entry: &str,
    record: &Value,
    parent: Option<&Value>,
    state: &RecordState,
    prefix: Option<Arc<str>>,
) -> PushOutcome {
    let planned = plan.entry(entry);
    // The plan's name when the entry is known: the outcome shares it.
    let name = planned.map_or_else(|| Arc::from(entry), |e| Arc::clone(&e.name));
    let mut run = Run::named(name, prefix);
    let result = match planned {
        Some(planned) => {
            let push = Pushing {
                plan,
                conn,
                needs,
                account: None,
                entry: planned,
                record,
                parent,
                state,
            };
            execute(&mut run, push).await
        }
        None => Err(EngineError::configuration(format!(
            "the definition has no entry `{entry}` (it has: {})",
            plan.entry_names().collect::<Vec<_>>().join(", ")
        ))),
    };
    run.finish(result)
}

async fn execute(run: &mut Run, push: Pushing<'_>) -> Result<PushStatus, EngineError> {
    let (conn, needs, entry, state) = (push.conn, push.needs, push.entry, push.state);
    lines::check_parent(&push)?;
    let server = conn.servers.resolve(&state.server_variables)?;
    let server = server.get();
    needs.record_limits.check(push.record)?;
    let account = conn.account(server);
    let push = Pushing {
        account: account.as_deref(),
        ..push
    };
    let mut scope = Scope::new(server, state.external_id.clone(), state.related.clone());
    let resolved = resolve::unresolved_create(run, &push, &mut scope).await?;
    if let resolve::Resolved::Found(id) = &resolved
        && !entry.has(OperationKind::Update)
    {
        // The create was carried out and nothing can bring the record up to date: it stands.
        run.trail.note(format!(
            "the entry has no `push.update`: the record {id} the earlier create made may hold the version that create sent"
        ));
        run.operation = Some(OperationKind::Create);
        run.external_id = Some(id.clone());
        return Ok(PushStatus::Created);
    }
    if state.intent == Intent::PostActions {
        return post_actions_again(run, &push, &mut scope).await;
    }
    let kind = prepare::operation(entry, state.intent, scope.external_id.as_deref())?;
    run.operation = Some(kind);
    actions::run_all(run, &push, Phase::Pre, &mut scope).await?;
    let Some(call) = entry.operation(kind) else {
        return Err(EngineError::configuration(format!(
            "entry `{}` has no `push.{}`",
            entry.name,
            kind.as_str()
        )));
    };
    let extracted = operation::carry_out_and_read(run, &push, kind, call, &mut scope).await?;
    let id = extracted.id.or_else(|| scope.external_id.clone());
    // Known before anything else is sent: a failure after the create still names the record.
    run.external_id.clone_from(&id);
    if let (OperationKind::Create, resolve::Resolved::CreateAgain, Some(id)) =
        (kind, &resolved, &id)
    {
        catch_up::after_repeat(run, &push, &mut scope, id).await?;
    }
    if !entry.post_actions.is_empty() {
        scope.external_id.clone_from(&id);
    }
    if let Err(e) = actions::run_all(run, &push, Phase::Post, &mut scope).await {
        run.post_action_error = Some(e);
    }
    Ok(response::status(kind))
}

/// Runs the post-actions of a record pushed before, whose post-actions failed: the record's
/// own request is not sent again.
async fn post_actions_again(
    run: &mut Run,
    push: &Pushing<'_>,
    scope: &mut Scope<'_>,
) -> Result<PushStatus, EngineError> {
    let Some(id) = scope.external_id.clone() else {
        return Err(EngineError::configuration(
            "the post-actions run again only for a record pushed before: give its external id",
        ));
    };
    run.external_id = Some(id);
    run.trail.note(
        "the record was pushed before and its post-actions failed: only they run again".to_owned(),
    );
    if let Err(e) = actions::run_all(run, push, Phase::Post, scope).await {
        run.post_action_error = Some(e);
    }
    Ok(PushStatus::Updated)
}
