//! The engine's `ApiSynchronization` callback: pushes the related record an entry needs first
//! (an invoice's account) when it has no external id yet.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use syncdef_engine::{EngineError, ErrorClass, Phase, SyncRequest, Synchronizer};

use crate::error::WorkerError;
use crate::record::{Handled, Trigger, sync_one};
use crate::report::RecordResult;
use crate::shared::{Core, EntryInfo};

/// The callback of one push: knows the record being pushed (as platform JSON) so that it can
/// find the related record's platform id.
pub(crate) struct Related {
    pub core: Arc<Core>,
    pub source: EntryInfo,
    /// The record's id on the platform: its lines are known by it and their own.
    pub platform_id: String,
    pub record: Arc<serde_json::Value>,
}

impl Synchronizer for Related {
    fn synchronize<'a>(
        &'a self,
        request: SyncRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<String>, EngineError>> {
        Box::pin(async move {
            if let Some(lines) = &request.lines {
                crate::lines::push_all(&self.core, &self.platform_id, &request, lines).await?;
                return Ok(None);
            }
            // After the push the related record is already there; child collections no
            // entry pushes (`InvoiceItems` written in the invoice's own request) are part of
            // the record the worker read.
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
            let most = Duration::from_secs(self.core.options.lease_seconds);
            let handled = until_free(BUSY_POLL, most, || {
                sync_one(&self.core, &target, &id, Trigger::Dependency)
            })
            .await
            // Credentials refused while pushing the account stop the whole run, as they would
            // for the invoice itself.
            .map_err(|e| EngineError::new(e.class(), format!("{} {id}: {e}", target.name)))?;
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

/// How often a dependency another pusher or worker holds is asked for again.
const BUSY_POLL: Duration = Duration::from_millis(200);

/// `push` (a dependency's push) until it is not skipped as busy, asked every `poll`, for
/// `most` at the longest: a record being pushed elsewhere is done within moments, and a dead
/// holder's lease ends within the lease's length, after which this worker takes the record
/// over. The record that needs it waits instead of failing into a backoff of minutes.
async fn until_free<F, Fut>(
    poll: Duration,
    most: Duration,
    mut push: F,
) -> Result<Handled, WorkerError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Handled, WorkerError>>,
{
    let deadline = tokio::time::Instant::now() + most;
    loop {
        let handled = push().await?;
        if !handled.busy || tokio::time::Instant::now() + poll > deadline {
            return Ok(handled);
        }
        tokio::time::sleep(poll).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::RecordResult;

    fn handled(busy: bool) -> Handled {
        Handled {
            result: if busy {
                RecordResult::Skipped
            } else {
                RecordResult::Created
            },
            external_id: (!busy).then(|| "58".to_owned()),
            error: None,
            busy,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_dependency_held_elsewhere_is_waited_for_until_it_is_done() {
        let mut asked = 0;
        let done = until_free(BUSY_POLL, Duration::from_secs(60), || {
            asked += 1;
            std::future::ready(Ok(handled(asked < 3)))
        })
        .await
        .expect("done");
        assert_eq!(asked, 3);
        assert_eq!(done.external_id.as_deref(), Some("58"));
    }

    #[tokio::test(start_paused = true)]
    async fn a_dependency_still_held_after_the_lease_s_length_is_given_up() {
        let mut asked = 0;
        let started = tokio::time::Instant::now();
        let given_up = until_free(BUSY_POLL, Duration::from_secs(2), || {
            asked += 1;
            std::future::ready(Ok(handled(true)))
        })
        .await
        .expect("an answer");
        assert!(given_up.busy);
        assert!(started.elapsed() <= Duration::from_secs(2));
        // At once, then every 200 ms for the 2 s.
        assert_eq!(asked, 11);
    }
}
