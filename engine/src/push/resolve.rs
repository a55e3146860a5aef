//! An earlier create of the record whose outcome is unknown: found out before the record is
//! created again, so that it is never created twice.
//!
//! In order: a lookup the definition declares for the entry (`x-syncdef.lookup`) searches the
//! external system for what the create sent; one record found, it is the record (updated, not
//! created); none, the record is created; several, or a failed search, and nothing is sent.
//! Without a lookup, a kept idempotency key makes the create safe to send again (the external
//! system answers the repeat with what it did). Without either nothing can tell, and nothing is
//! sent: the caller resolves the record by hand.

use serde_json::Value as Json;
use syncdef_transform::Value;

use crate::call::answer::check_status;
use crate::call::compose::{self, Outgoing};
use crate::call::scope::Scope;
use crate::call::send;
use crate::error::{EngineError, ErrorClass};
use crate::plan::{LookupPlan, OperationKind};
use crate::push::operation::Pushing;
use crate::push::run::Run;
use crate::reliability::retry::RequestNature;
use crate::state::{Intent, UnresolvedCreate};

/// What finding out came to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Resolved {
    /// Nothing to find out: no unresolved create, or the record's id is known.
    Nothing,
    /// The create was carried out: the record has this id (now in the scope).
    Found(String),
    /// The create can be sent (again): the lookup found nothing, or a kept key makes the
    /// repeat safe.
    CreateAgain,
}

/// Settles `push.state.unresolved_create`, if any, into the scope's external id, or refuses
/// to go on.
pub(crate) async fn unresolved_create(
    run: &mut Run,
    push: &Pushing<'_>,
    scope: &mut Scope<'_>,
) -> Result<Resolved, EngineError> {
    let Some(unresolved) = &push.state.unresolved_create else {
        return Ok(Resolved::Nothing);
    };
    if scope.external_id.is_some() || push.state.intent == Intent::Delete {
        return Ok(Resolved::Nothing);
    }
    if let Some(lookup) = &push.entry.lookup {
        return look_up(run, push, scope, lookup, unresolved).await;
    }
    match &unresolved.idempotency_key {
        Some(key) if push.conn.reliability.keys_creates() => {
            run.trail.note(format!(
                "an earlier create of this record may have been carried out; it is sent again with the same idempotency key ({key}), which the external system answers as a repeat"
            ));
            Ok(Resolved::CreateAgain)
        }
        _ => Err(still_unknown(
            "the definition gives no way to find out (no `x-syncdef.lookup` for the entry, no idempotency key kept): nothing was sent; check the external system and resolve the record (`syncdef sync resolve`)",
        )),
    }
}

fn still_unknown(why: &str) -> EngineError {
    EngineError::new(
        ErrorClass::UnknownOutcome,
        format!("an earlier create of this record may have been carried out, and {why}"),
    )
    .at("lookup")
}

/// Searches the external system for what the unresolved create sent.
async fn look_up(
    run: &mut Run,
    push: &Pushing<'_>,
    scope: &mut Scope<'_>,
    lookup: &LookupPlan,
    unresolved: &UnresolvedCreate,
) -> Result<Resolved, EngineError> {
    let sent = sent_body(run, push, scope, unresolved)?;
    let parameters = lookup.declared.parameters(&sent).map_err(|e| {
        still_unknown(&format!(
            "the lookup cannot be made: {e}; resolve the record by hand"
        ))
    })?;
    let mut target = compose::target(&lookup.call, scope)?;
    target.edit(|url| {
        url.query_pairs_mut().extend_pairs(&parameters);
    });
    let outgoing = Outgoing {
        target,
        body: None,
        headers: compose::parameter_headers(&lookup.call, scope)?,
        idempotency_key: None,
    };
    let nature = RequestNature {
        repeatable: true,
        duplicates: false,
    };
    let answer = send::send(
        &mut run.trail,
        push.conn,
        push.account,
        &lookup.call,
        outgoing,
        nature,
    )
    .await
    .map_err(|e| still_unknown(&format!("the lookup failed: {}", e.message)))?;
    check_status(&mut run.trail, "lookup", &answer)
        .map_err(|e| still_unknown(&format!("the lookup failed: {}", e.message)))?;
    let found = answer
        .body()
        .value()
        .map_err(|e| still_unknown(&format!("the lookup's answer is not JSON ({e})")))?;
    let mut ids: Vec<String> = lookup
        .ids
        .select(&found)
        .into_iter()
        .filter_map(|v| match v {
            Value::Null => None,
            Value::String(s) if s.is_empty() => None,
            Value::String(s) => Some(s.to_string()),
            other => Some(other.to_json_compact()),
        })
        .collect();
    ids.sort();
    ids.dedup();
    match ids.as_slice() {
        [] => {
            run.trail.note(format!(
                "the lookup (`{}`) found no record: the earlier create was not carried out, so the record is created",
                lookup.declared.ids
            ));
            Ok(Resolved::CreateAgain)
        }
        [id] => {
            run.trail.note(format!(
                "the lookup found the record an earlier create made ({id}): it is updated, not created again"
            ));
            scope.external_id = Some(id.clone());
            Ok(Resolved::Found(id.clone()))
        }
        many => Err(still_unknown(&format!(
            "the lookup found {} records matching it ({}): nothing was sent; resolve the record by hand (`syncdef sync resolve`)",
            many.len(),
            many.join(", ")
        ))),
    }
}

/// The body the unresolved create sent, as kept; else the one the record renders to now.
fn sent_body(
    run: &mut Run,
    push: &Pushing<'_>,
    scope: &Scope<'_>,
    unresolved: &UnresolvedCreate,
) -> Result<Json, EngineError> {
    if let Some(kept) = &unresolved.body {
        return serde_json::from_str(kept)
            .map_err(|e| still_unknown(&format!("the kept create body is not JSON ({e})")));
    }
    let Some(create) = push.entry.operation(OperationKind::Create) else {
        return Ok(Json::Null);
    };
    let input = push.input(scope);
    let body = compose::body(&mut run.trail, create, &input)?;
    Ok(body
        .and_then(|b| serde_json::from_slice(&b.json).ok())
        .unwrap_or(Json::Null))
}
