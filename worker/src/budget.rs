//! A transport wrapper that takes room in the shared request budget of the external account
//! (requests a minute, requests at once) before each request, so that all workers of a
//! shared state together keep the vendor's limits. The engine's own per-process limiter
//! still runs above it.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use syncdef_engine::{HttpRequest, HttpResponse, Transport, TransportError};

use crate::state::{AccountLimits, Grant, State};

/// Waits for room in the account's budget, sends, gives the slot back.
pub(crate) struct SharedBudget {
    pub inner: Arc<dyn Transport>,
    pub state: Arc<dyn State>,
    /// The values of the policy's key variables (`realmId`), joined: with the request's
    /// origin they name the account, as the engine's own limiter does.
    pub key_values: String,
    pub limits: AccountLimits,
    pub worker_id: String,
    /// How long a slot outlives a worker that died holding it.
    pub hold_seconds: u64,
}

impl SharedBudget {
    fn account(&self, request: &HttpRequest) -> String {
        format!(
            "{}|{}",
            request.url.origin().ascii_serialization(),
            self.key_values
        )
    }

    async fn slot(&self, account: &str) -> Result<i64, TransportError> {
        let Some(budget) = self.state.budget() else {
            return Ok(0);
        };
        loop {
            let grant = budget
                .take(account, &self.worker_id, self.limits, self.hold_seconds)
                .map_err(|e| {
                    TransportError::NotSent(format!("cannot take room in the shared budget: {e}"))
                })?;
            match grant {
                Grant::Slot(slot) => return Ok(slot),
                Grant::Wait(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
            }
        }
    }
}

impl Transport for SharedBudget {
    fn send<'a>(
        &'a self,
        request: &'a HttpRequest,
    ) -> BoxFuture<'a, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            let slot = self.slot(&self.account(request)).await?;
            let answer = self.inner.send(request).await;
            if let Some(budget) = self.state.budget()
                && let Err(error) = budget.give_back(slot)
            {
                // The slot ends by itself after the hold time.
                tracing::warn!(%error, "could not give back a request slot");
            }
            answer
        })
    }

    fn replays(&self) -> bool {
        self.inner.replays()
    }
}
