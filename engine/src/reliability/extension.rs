//! The definition's `x-syncdef` extension: retries, rate limits, conflict rules and the
//! idempotency key of the external system. Schema (all optional):
//!
//! ```yaml
//! x-syncdef:
//!   retry: {maxAttempts: 4, initialBackoffMs: 500, maxBackoffMs: 30000, deadlineMs: 120000,
//!           statuses: [429, 502, 503, 504]}
//!   rateLimit: {key: [realmId], requestsPerMinute: 500, concurrency: 10}
//!   conflicts:
//!     - {status: 400, path: "$.Fault.Error[*].code", equals: ["5010"]}
//!   idempotency: {in: query, name: requestid, operations: [create]}
//!   requestValidation: {skip: [Invoice]}
//! ```

use serde::Deserialize;
use syncdef_definitions::Definition;

use super::conflict::ConflictRule;
use super::idempotency::IdempotencyKey;
use super::rate_limit::{RateLimitPolicy, RateLimitSpec};
use super::retry::{RetryPolicy, RetrySpec};

/// The top-level key of the extension.
pub const EXTENSION_KEY: &str = "x-syncdef";

/// What a definition declares about its external system's behaviour, defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reliability {
    /// How failed requests are retried.
    pub retry: RetryPolicy,
    /// Per-account throttling.
    pub rate_limit: RateLimitPolicy,
    /// How a stale concurrency token is recognised (default: 412).
    pub conflicts: Vec<ConflictRule>,
    /// The idempotency key the system accepts, if any.
    pub idempotency: Option<IdempotencyKey>,
    /// Which entries' request bodies are not checked against their schemas before sending.
    pub request_validation: RequestValidation,
}

/// `x-syncdef.requestValidation`: every rendered request body is checked against its
/// operation's request body schema before it is sent, unless its entry is listed in `skip`.
/// The way out is per entry, not global, because a schema stricter than the external system
/// (a limit the vendor has since raised) usually concerns one object type; the other entries
/// keep the check.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RequestValidation {
    /// Entry names (`Invoice`) whose bodies are sent unchecked. The names are checked against
    /// the `synchronization` section when the definition is compiled.
    #[serde(default)]
    pub skip: Vec<String>,
}

impl Default for Reliability {
    fn default() -> Self {
        Reliability {
            retry: RetryPolicy::default(),
            rate_limit: RateLimitPolicy::default(),
            conflicts: vec![ConflictRule::precondition_failed()],
            idempotency: None,
            request_validation: RequestValidation::default(),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Spec {
    retry: Option<RetrySpec>,
    rate_limit: Option<RateLimitSpec>,
    conflicts: Option<Vec<ConflictRule>>,
    idempotency: Option<IdempotencyKey>,
    request_validation: Option<RequestValidation>,
}

impl Reliability {
    /// Reads `x-syncdef` from `definition` (defaults when absent).
    ///
    /// # Errors
    /// A message naming the extension member that is wrong.
    pub fn from_definition(definition: &Definition) -> Result<Reliability, String> {
        let Some(node) = definition.root.get(EXTENSION_KEY) else {
            return Ok(Reliability::default());
        };
        let at = |e: String| {
            format!(
                "`{EXTENSION_KEY}` (line {}): {e}",
                definition
                    .source
                    .line_index()
                    .line_col(definition.source.text(), node.span.start)
                    .line
            )
        };
        let spec: Spec = serde_json::from_value(node.to_json())
            .map_err(|e| at(format!("{e}; see docs/reliability.md for its schema")))?;
        let d = Reliability::default();
        let conflicts = spec.conflicts.unwrap_or(d.conflicts);
        for rule in &conflicts {
            rule.validate().map_err(at)?;
        }
        if let Some(key) = &spec.idempotency
            && key.name.trim().is_empty()
        {
            return Err(at("`idempotency.name` is empty".into()));
        }
        Ok(Reliability {
            retry: spec
                .retry
                .map_or(Ok(d.retry), RetrySpec::policy)
                .map_err(at)?,
            rate_limit: spec
                .rate_limit
                .map_or(Ok(d.rate_limit), RateLimitSpec::policy)
                .map_err(at)?,
            conflicts,
            idempotency: spec.idempotency,
            request_validation: spec.request_validation.unwrap_or_default(),
        })
    }
}
