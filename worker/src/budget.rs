//! A transport wrapper that takes room in the shared request budget of the external account
//! (requests a minute, requests at once) before each request, so that all workers of a
//! shared state together keep the vendor's limits. The engine's own per-process limiter
//! still runs above it.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use syncdef_engine::{Engine, HttpRequest, HttpResponse, Transport, TransportError};

use crate::options::SyncOptions;
use crate::state::{AccountLimits, Grant, State};

/// `transport`, taking room first in its account's budget when `state` shares one and the
/// engine's policy limits requests (`docs/worker.md`, "Scaling out"); as it is otherwise.
pub(crate) fn shared(
    engine: &Engine,
    transport: Arc<dyn Transport>,
    state: &Arc<dyn State>,
    options: &SyncOptions,
    worker_id: &str,
) -> Arc<dyn Transport> {
    let policy = engine.rate_limit_policy();
    if options.dry_run || policy.is_unlimited() || state.budget().is_none() {
        return transport;
    }
    let key_values = policy
        .key
        .iter()
        .map(|name| {
            let value = options
                .server_variables
                .get(name)
                .map_or("", String::as_str);
            format!("{name}={value}")
        })
        .collect::<Vec<_>>()
        .join("&");
    Arc::new(SharedBudget {
        inner: transport,
        state: state.clone(),
        key_values,
        limits: AccountLimits {
            requests_per_minute: policy.requests_per_minute,
            window_ms: u64::try_from(policy.window().as_millis()).unwrap_or(60_000),
            concurrency: policy.concurrency,
        },
        worker_id: worker_id.to_owned(),
        hold_seconds: options.lease_seconds,
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
