//! What the steps of a push or a pull need of the engine to send, gathered once: they talk
//! through this and small types of their own, not through the whole [`Engine`].

use std::sync::Arc;

use crate::auth::TokenProvider;
use crate::engine::Engine;
use crate::reliability::rate_limit::Account;
use crate::reliability::{Reliability, RetryPolicy};
use crate::request::RequestHeaders;
use crate::servers::Server;
use crate::transport::Transport;

/// The engine's connectors and policies, as one push or pull uses them.
pub(crate) struct Connectors<'a> {
    /// Where requests go; `None` fails the first request with a configuration error.
    pub transport: Option<&'a dyn Transport>,
    pub tokens: &'a dyn TokenProvider,
    pub headers: &'a RequestHeaders,
    pub retry: &'a RetryPolicy,
    /// Conflict rules, the idempotency key, lookups.
    pub reliability: &'a Reliability,
    /// The external account's budget the requests draw on (none: unlimited, or a dry-run).
    pub account: Option<Arc<Account>>,
}

impl<'a> Connectors<'a> {
    /// The connectors of `engine` for requests to `server`.
    pub fn of(engine: &'a Engine, server: &Server) -> Connectors<'a> {
        Connectors {
            transport: engine.transport.as_deref(),
            tokens: engine.tokens.as_ref(),
            headers: &engine.request_headers,
            retry: engine.retry_policy(),
            reliability: &engine.plan.reliability,
            account: engine.account(server),
        }
    }
}
