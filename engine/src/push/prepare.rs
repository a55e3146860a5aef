//! Before anything is sent: the operation the push carries out.

use crate::error::EngineError;
use crate::plan::{EntryPlan, OperationKind};
use crate::state::Intent;

/// Create without an external id, update with one, delete on request.
pub(crate) fn operation(
    entry: &EntryPlan,
    intent: Intent,
    external_id: Option<&str>,
) -> Result<OperationKind, EngineError> {
    let kind = match (intent, external_id) {
        (Intent::Delete, None) => {
            return Err(EngineError::configuration(
                "a delete needs the record's external id",
            ));
        }
        (Intent::Delete, Some(_)) => OperationKind::Delete,
        (Intent::Upsert, None) => OperationKind::Create,
        (Intent::Upsert, Some(_)) => OperationKind::Update,
        (Intent::PostActions, _) => {
            return Err(EngineError::configuration(
                "a push that runs only the post-actions carries out no operation of the record",
            ));
        }
    };
    if !entry.has(kind) {
        return Err(EngineError::configuration(format!(
            "entry `{}` has no `push.{}`{}",
            entry.name,
            kind.as_str(),
            if kind == OperationKind::Update {
                "; the record has an external id, so it can only be updated"
            } else {
                ""
            }
        )));
    }
    Ok(kind)
}
