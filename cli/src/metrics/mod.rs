//! `syncdef sync --metrics ADDR`: what an operator scrapes from a running worker. The worker
//! tells an [`Observer`] of everything it does; [`Metrics`] counts it in a Prometheus
//! registry, and [`server`] serves that registry on `/metrics` and the worker's health on
//! `/healthz` (docs/worker.md, "Metrics and health").

mod health;
mod refreshes;
mod registry;
mod server;

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use syncdef_engine::Engine;
use syncdef_engine::auth::{FileTokenStore, TokenProvider};
use syncdef_worker::{Event, Observer};

use refreshes::CountedRefreshes;
pub use registry::Metrics;

use crate::failure::Failure;

/// The flags of `syncdef sync` for metrics and health.
#[derive(Debug, Args)]
pub struct MetricsArgs {
    /// Serve Prometheus metrics on `http://ADDR/metrics` and the worker's health on
    /// `http://ADDR/healthz` (200 while it makes progress, 503 when it stalled). Port 0 takes a
    /// free port; the address listened on is logged.
    #[arg(long = "metrics", value_name = "ADDR", value_parser = listen_address)]
    pub address: Option<SocketAddr>,

    /// With --metrics: /healthz answers 503 once the worker showed no progress for this many
    /// seconds (as `syncdef sync alive --within`). Choose more than the longest a single
    /// request may take with its retries.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 120,
        requires = "address"
    )]
    pub healthz_within: u64,
}

impl MetricsArgs {
    /// The registry to count in, when `--metrics` is given.
    pub fn metrics(&self) -> Option<Arc<Metrics>> {
        self.address
            .map(|_| Arc::new(Metrics::new(Duration::from_secs(self.healthz_within))))
    }

    /// Listens on `--metrics` and serves `metrics` from a thread of its own until the process
    /// ends; the address listened on. Nothing without `--metrics`.
    ///
    /// # Errors
    /// The address cannot be listened on: a usage error naming it.
    pub fn serve(&self, metrics: Option<&Arc<Metrics>>) -> Result<Option<SocketAddr>, Failure> {
        match (self.address, metrics) {
            (Some(address), Some(metrics)) => server::start(address, Arc::clone(metrics)).map(Some),
            _ => Ok(None),
        }
    }
}

/// `--metrics`'s address: `IP:PORT`, or `HOST:PORT` resolved to its first address
/// (`localhost:9464`).
fn listen_address(text: &str) -> Result<SocketAddr, String> {
    if let Ok(address) = text.parse() {
        return Ok(address);
    }
    let mut found = text.to_socket_addrs().map_err(|e| {
        format!("`{text}` is not IP:PORT or HOST:PORT ({e}); for example 127.0.0.1:9464")
    })?;
    found.next().ok_or_else(|| {
        format!("`{text}` resolves to no address; give IP:PORT, e.g. 127.0.0.1:9464")
    })
}

/// The `--token-store`'s tokens, as `syncdef sync` takes them, each refresh counted in
/// `metrics`.
///
/// # Errors
/// As [`crate::commands::tokens::stored_tokens`].
pub fn counted_tokens(
    engine: &Engine,
    token_store: &Path,
    client_file: Option<&Path>,
    metrics: &Arc<Metrics>,
) -> Result<Arc<dyn TokenProvider>, Failure> {
    let store = CountedRefreshes {
        inner: Arc::new(FileTokenStore::new(token_store)),
        metrics: Arc::clone(metrics),
    };
    crate::commands::tokens::oauth_tokens(engine, Arc::new(store), client_file)
}

/// Hands every event to each of `observers`, in order.
pub struct Fanout(pub Vec<Arc<dyn Observer>>);

impl Observer for Fanout {
    fn event(&self, event: &Event<'_>) {
        for observer in &self.0 {
            observer.event(event);
        }
    }
}

/// `observer`, and `metrics` too when there are any.
pub fn observed(observer: Arc<dyn Observer>, metrics: Option<&Arc<Metrics>>) -> Arc<dyn Observer> {
    match metrics {
        Some(metrics) => Arc::new(Fanout(vec![
            Arc::clone(metrics) as Arc<dyn Observer>,
            observer,
        ])),
        None => observer,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_is_ip_and_port_or_a_host_that_resolves() {
        assert_eq!(
            listen_address("127.0.0.1:9464"),
            Ok(SocketAddr::from(([127, 0, 0, 1], 9464)))
        );
        assert_eq!(
            listen_address("[::1]:0"),
            Ok(SocketAddr::from(([0, 0, 0, 0, 0, 0, 0, 1], 0)))
        );
        let local = listen_address("localhost:9464").expect("localhost resolves");
        assert!(local.ip().is_loopback() && local.port() == 9464, "{local}");
        let refused = listen_address("9464").expect_err("no host");
        assert!(refused.contains("IP:PORT or HOST:PORT"), "{refused}");
    }
}
