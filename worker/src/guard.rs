//! A transport wrapper that writes "in flight" to the state before a create leaves.
//!
//! The engine decides inside `push` whether a request is the record's create; the guard sees
//! the request with its step name, so the mark is written exactly before the create's bytes
//! go out, not before pre-actions that cannot duplicate anything.

use std::sync::Arc;

use futures::future::BoxFuture;
use syncdef_engine::{HttpRequest, HttpResponse, OperationKind, Transport, TransportError};

use crate::state::{RecordKey, State};

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
                self.state
                    .mark_in_flight(&self.key, self.now)
                    .map_err(|e| {
                        TransportError::NotSent(format!(
                            "cannot record the create as in flight: {e}"
                        ))
                    })?;
            }
            self.inner.send(request).await
        })
    }
}
