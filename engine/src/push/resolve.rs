//! An earlier create of the record whose outcome is unknown: found out before the record is
//! created again, so that it is never created twice.
//!
//! In order: a lookup the definition declares for the entry (`x-syncdef.lookup`) searches the
//! external system for what the create sent; found, the record is updated instead; not found,
//! created. Without a lookup, a kept idempotency key makes the create safe to send again (the
//! external system answers the repeat with what it did). Without either nothing can tell, and
//! nothing is sent: the caller resolves the record by hand.

use crate::error::{ErrorClass, PushError};
use crate::plan::OperationKind;
use crate::push::operation::Pushing;
use crate::push::run::Run;
use crate::push::scope::Scope;
use crate::state::Intent;

/// Settles `push.state.unresolved_create`, if any, into the scope's external id, or refuses
/// to go on.
pub(crate) async fn unresolved_create(
    run: &mut Run,
    push: &Pushing<'_>,
    scope: &mut Scope<'_>,
) -> Result<(), PushError> {
    let Some(unresolved) = &push.state.unresolved_create else {
        return Ok(());
    };
    if scope.external_id.is_some() || push.state.intent == Intent::Delete {
        return Ok(());
    }
    let keyed = push
        .conn
        .reliability
        .idempotency
        .as_ref()
        .is_some_and(|k| k.applies_to(OperationKind::Create));
    match &unresolved.idempotency_key {
        Some(key) if keyed => {
            run.note(format!(
                "an earlier create of this record may have been carried out; it is sent again with the same idempotency key ({key}), which the external system answers as a repeat"
            ));
            Ok(())
        }
        _ => Err(PushError::new(
            ErrorClass::UnknownOutcome,
            "an earlier create of this record may have been carried out, and the definition gives no way to find out (no `x-syncdef.lookup` for the entry, no idempotency key kept): nothing was sent; check the external system and resolve the record (`syncdef sync resolve`)",
        )
        .at(OperationKind::Create.as_str())),
    }
}
