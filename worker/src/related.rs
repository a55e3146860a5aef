//! The engine's `ApiSynchronization` callback: pushes the related record an entry needs first
//! (an invoice's account) when it has no external id yet.

use std::sync::Arc;

use futures::future::BoxFuture;
use syncdef_engine::{EngineError, ErrorClass, Phase, SyncRequest, Synchronizer};

use crate::error::WorkerError;
use crate::record::{Trigger, sync_one};
use crate::report::RecordResult;
use crate::shared::{Core, EntryInfo};

/// The callback of one push: knows the record being pushed (as platform JSON) so that it can
/// find the related record's platform id.
pub(crate) struct Related {
    pub core: Arc<Core>,
    pub source: EntryInfo,
    pub record: Arc<serde_json::Value>,
}

impl Synchronizer for Related {
    fn synchronize<'a>(
        &'a self,
        request: SyncRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<String>, EngineError>> {
        Box::pin(async move {
            // After the push the related record is already there; child collections
            // (`InvoiceItems`) are part of the record the worker read.
            if request.phase != Phase::Pre {
                return Ok(None);
            }
            let Some(target) = self.core.entry(request.target).cloned() else {
                return Ok(None);
            };
            let Some(id) = self.source.module.related_id(target.module, &self.record) else {
                return Err(EngineError::configuration(format!(
                    "the {} record names no {} (looked for {})",
                    self.source.name,
                    target.name,
                    self.source.module.related_places(target.module)
                )));
            };
            let handled = sync_one(&self.core, &target, &id, Trigger::Dependency)
                .await
                .map_err(|e| {
                    // Credentials refused while pushing the account stop the whole run, as
                    // they would for the invoice itself.
                    let class = match e {
                        WorkerError::Authentication(_) => ErrorClass::Authentication,
                        _ => ErrorClass::Transient,
                    };
                    EngineError::new(class, format!("{} {id}: {e}", target.name))
                })?;
            match (handled.result, handled.external_id) {
                (RecordResult::Failed | RecordResult::Unknown, _) | (_, None) => {
                    Err(EngineError::new(
                        ErrorClass::Transient,
                        format!(
                            "the related {} {id} must be pushed first and is not: {}",
                            target.name,
                            handled.error.as_deref().unwrap_or("it has no external id")
                        ),
                    ))
                }
                (_, Some(external)) => Ok(Some(external)),
            }
        })
    }
}
