//! After a create sent again under the idempotency key of an earlier create whose outcome was
//! unknown: the external system answers such a repeat with what the earlier create did
//! (QuickBooks does for a repeated `requestid`), so the record there holds the body *that*
//! create sent, not the one sent now. When the two differ, or when what the earlier create sent
//! is not known, the record is brought up to date at once with an update: a change made while
//! the create was unresolved must still arrive.

use serde_json::Value as Json;

use crate::call::scope::Scope;
use crate::error::EngineError;
use crate::outcome::RepeatedCreate;
use crate::plan::OperationKind;
use crate::push::operation::{self, Pushing};
use crate::push::run::Run;

/// Brings the record created as `id` up to date when the create just sent repeated an earlier
/// one under its kept key with another body.
pub(crate) async fn after_repeat(
    run: &mut Run,
    push: &Pushing<'_>,
    scope: &mut Scope<'_>,
    id: &str,
) -> Result<(), EngineError> {
    let Some(unresolved) = &push.state.unresolved_create else {
        return Ok(());
    };
    let kept_key = unresolved.idempotency_key.as_deref();
    if kept_key.is_none() || run.idempotency_key.as_deref() != kept_key {
        // Sent under a fresh key (or none): a new create, whose answer is this body's.
        return Ok(());
    }
    if same_body(unresolved.body.as_deref(), run.create_body.as_deref()) {
        run.repeated_create = Some(RepeatedCreate::SameRecord);
        return Ok(());
    }
    let Some(call) = push.entry.operation(OperationKind::Update) else {
        run.repeated_create = Some(RepeatedCreate::NotUpdated);
        return Ok(());
    };
    scope.external_id = Some(id.to_owned());
    operation::reread_tokens(run, push, scope).await?;
    operation::carry_out_and_read(run, push, OperationKind::Update, call, scope).await?;
    // Said only once the update went through: a failed one is the push's error.
    run.repeated_create = Some(RepeatedCreate::Updated);
    Ok(())
}

/// Whether the body kept of the earlier create is the one sent now: the same JSON value, or the
/// same bytes where either is not JSON. An unknown kept body is never the same.
fn same_body(kept: Option<&str>, sent: Option<&[u8]>) -> bool {
    let (Some(kept), Some(sent)) = (kept, sent) else {
        return false;
    };
    match (
        serde_json::from_str::<Json>(kept),
        serde_json::from_slice::<Json>(sent),
    ) {
        (Ok(kept), Ok(sent)) => kept == sent,
        _ => kept.as_bytes() == sent,
    }
}

#[cfg(test)]
mod tests {
    use super::same_body;

    #[test]
    fn bodies_compare_as_json_and_an_unknown_one_differs() {
        assert!(same_body(
            Some(r#"{"a": 1, "b": 2}"#),
            Some(br#"{"b":2,"a":1}"#)
        ));
        assert!(!same_body(Some(r#"{"a": 1}"#), Some(br#"{"a":2}"#)));
        assert!(same_body(Some("a=1&b=2"), Some(b"a=1&b=2")));
        assert!(!same_body(Some("a=1"), Some(b"a=2")));
        assert!(!same_body(None, Some(b"{}")));
        assert!(!same_body(Some("{}"), None));
    }
}
