//! A transport wrapper that writes "in flight" to the state before a create leaves, with the
//! idempotency key and body the create carries: after a crash, the next run finds out with them
//! whether the create was carried out.
//!
//! The engine decides inside `push` whether a request is the record's create; the guard sees
//! the request with its step name, so the mark is written exactly before the create's bytes
//! go out, not before pre-actions that cannot duplicate anything.

use std::sync::Arc;

use futures::future::BoxFuture;
use syncdef_engine::{HttpRequest, HttpResponse, OperationKind, Transport, TransportError};

use crate::state::{InFlightCreate, RecordKey, State};

/// Marks `key` in flight before forwarding its create to `inner`.
pub(crate) struct InFlightGuard {
    pub inner: Arc<dyn Transport>,
    pub state: Arc<dyn State>,
    pub key: RecordKey,
    pub now: i64,
}

impl Transport for InFlightGuard {
    fn send<'a>(
        &'a self,
        request: &'a HttpRequest,
    ) -> BoxFuture<'a, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            if &*request.step == OperationKind::Create.as_str() {
                // Not durable means not sent: a create the state does not know about could be
                // duplicated after a crash.
                let create = InFlightCreate {
                    idempotency_key: request.idempotency_key.as_deref().map(str::to_owned),
                    body: request
                        .body
                        .as_ref()
                        .map(|b| String::from_utf8_lossy(b).into_owned()),
                };
                self.state
                    .mark_in_flight(&self.key, &create, self.now)
                    .map_err(|e| {
                        TransportError::NotSent(format!(
                            "cannot record the create as in flight: {e}"
                        ))
                    })?;
            }
            self.inner.send(request).await
        })
    }

    /// A dry-run's guard replays as its transport does: the engine must not retry or throttle
    /// it.
    fn replays(&self) -> bool {
        self.inner.replays()
    }
}

#[cfg(test)]
mod tests {
    use syncdef_engine::{RecordingTransport, ReqwestTransport};

    use super::*;
    use crate::state::SqliteState;

    fn guard(inner: Arc<dyn Transport>) -> InFlightGuard {
        InFlightGuard {
            inner,
            state: Arc::new(SqliteState::in_memory().expect("an in-memory state")),
            key: RecordKey::new("Account", "1"),
            now: 0,
        }
    }

    #[test]
    fn replays_as_the_transport_it_guards() {
        // A guarded dry-run must still be one for the engine: no retries, no throttling, and
        // answers synthesised where none are given.
        assert!(guard(Arc::new(RecordingTransport::synthesizing())).replays());
        let real = ReqwestTransport::new().expect("a client");
        assert!(!guard(Arc::new(real)).replays());
    }
}
