//! A transport wrapper that takes room in the shared request budget of the external account
//! (requests a minute, requests at once) before each request, so that all workers of a
//! shared state together keep the vendor's limits. The engine's own per-process limiter
//! still runs above it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use syncdef_engine::{HttpRequest, HttpResponse, Transport, TransportError};

use crate::observer::{Event, Observer};
use crate::shared::Setup;
use crate::state::{AccountLimits, Grant, State};

/// `setup`'s transport, taking room first in its account's budget when its state shares one
/// and the engine's policy limits requests (`docs/worker.md`, "Scaling out"); as it is
/// otherwise.
pub(crate) fn shared(setup: &Setup) -> Arc<dyn Transport> {
    let transport = setup.transport.clone();
    let (Some(key_values), false) = (&setup.account_key, setup.options.dry_run) else {
        return transport;
    };
    if setup.state.budget().is_none() {
        return transport;
    }
    let policy = setup.engine.rate_limit_policy();
    Arc::new(SharedBudget {
        inner: transport,
        state: setup.state.clone(),
        key_values: key_values.clone(),
        limits: AccountLimits {
            requests_per_minute: policy.requests_per_minute,
            window_ms: u64::try_from(policy.window().as_millis()).unwrap_or(60_000),
            concurrency: policy.concurrency,
        },
        worker_id: setup.worker_id.clone(),
        hold_seconds: setup.options.lease_seconds,
        observer: setup.observer.clone(),
    })
}

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
    /// Told of every wait for room.
    pub observer: Arc<dyn Observer>,
}

impl SharedBudget {
    fn account(&self, request: &HttpRequest) -> String {
        format!(
            "{}|{}",
            request.url.origin().ascii_serialization(),
            self.key_values
        )
    }

    async fn slot(&self, request: &HttpRequest) -> Result<i64, TransportError> {
        let Some(budget) = self.state.budget() else {
            return Ok(0);
        };
        let account = self.account(request);
        // When the budget first answered to wait, if it did.
        let mut waiting: Option<Instant> = None;
        loop {
            let grant = budget
                .take(&account, &self.worker_id, self.limits, self.hold_seconds)
                .map_err(|e| {
                    TransportError::NotSent(format!("cannot take room in the shared budget: {e}"))
                })?;
            match grant {
                Grant::Slot(slot) => {
                    if let Some(waiting) = waiting {
                        let origin = request.url.origin().ascii_serialization();
                        self.observer.event(&Event::Throttled {
                            account: crate::requests::account_label(&self.key_values, &origin),
                            waited: waiting.elapsed(),
                        });
                    }
                    return Ok(slot);
                }
                Grant::Wait(ms) => {
                    waiting.get_or_insert_with(Instant::now);
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                }
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
            let slot = self.slot(request).await?;
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
