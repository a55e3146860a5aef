//! What the steps of a push or a pull need of the engine to send: its transport, tokens and
//! policies, and where its server comes from. The engine hands them this, borrowed, and they
//! talk through it and small types of their own, not through the whole engine.

use std::sync::Arc;

use crate::auth::{Credentials, TokenProvider};
use crate::call::server::Servers;
use crate::reliability::rate_limit::Account;
use crate::reliability::{RateLimitPolicy, RateLimits, Reliability, RetryPolicy};
use crate::request::RequestHeaders;
use crate::servers::Server;
use crate::transport::Transport;

/// The engine's connectors and policies, as one push or pull uses them.
pub(crate) struct Connectors<'a> {
    /// Where requests go; `None` fails the first request with a configuration error.
    pub transport: Option<&'a dyn Transport>,
    pub tokens: &'a dyn TokenProvider,
    /// The credentials of the schemes other than OAuth2.
    pub credentials: &'a Credentials,
    pub headers: &'a RequestHeaders,
    pub retry: &'a RetryPolicy,
    /// Conflict rules, the idempotency key, lookups.
    pub reliability: &'a Reliability,
    /// The server requests go to.
    pub servers: Servers<'a>,
    /// The rate limits in force.
    pub rate_limit: &'a RateLimitPolicy,
    /// Where per-account budgets live.
    pub rate_limits: &'a RateLimits,
}

impl Connectors<'_> {
    /// The budget of the account `server` belongs to, which the requests to it draw on, when
    /// the policy limits anything. Dry-runs are never throttled.
    pub fn account(&self, server: &Server) -> Option<Arc<Account>> {
        let policy = self.rate_limit;
        if policy.is_unlimited() || self.transport.is_none_or(Transport::replays) {
            return None;
        }
        let mut key = server.base.origin().ascii_serialization();
        for name in &policy.key {
            key.push('\u{1f}');
            key.push_str(name);
            key.push('=');
            key.push_str(server.variables.get(name).map_or("", String::as_str));
        }
        Some(self.rate_limits.account(&key, policy))
    }
}
