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
//!   lookup:
//!     Account:
//!       path: /query/get
//!       query: {query: "select Id from Customer where DisplayName = {body.DisplayName}"}
//!       quote: quickbooks
//!       ids: $.QueryResponse.Customer[*].Id
//!   requestValidation: {skip: [Invoice]}
//! ```

use std::collections::BTreeMap;
use std::time::Duration;

use syncdef_definitions::Definition;
use syncdef_definitions::extension::{self as spec, Extension, PullSpec};

use super::conflict::ConflictRule;
use super::idempotency::IdempotencyKey;
use super::lookup::Lookup;
use super::overrides::RetryOverrides;
use super::rate_limit::RateLimitPolicy;
use super::retry::RetryPolicy;
use crate::plan::OperationKind;

/// The top-level key of the extension.
pub const EXTENSION_KEY: &str = spec::EXTENSION_KEY;

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
    /// How to search the external system for a record, by entry name.
    pub lookups: BTreeMap<String, Lookup>,
    /// Which entries' request bodies are not checked against their schemas before sending.
    pub request_validation: RequestValidation,
    /// How each entry's `pull.batchRead` pages (`x-syncdef.pull`), by entry name.
    pub pull: BTreeMap<String, PullSpec>,
}

/// `x-syncdef.requestValidation`: every rendered request body is checked against its
/// operation's request body schema before it is sent, unless its entry is listed in `skip`.
/// The way out is per entry, not global, because a schema stricter than the external system
/// (a limit the vendor has since raised) usually concerns one object type; the other entries
/// keep the check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestValidation {
    /// Entry names (`Invoice`) whose bodies are sent unchecked.
    pub skip: Vec<String>,
}

impl Default for Reliability {
    fn default() -> Self {
        Reliability {
            retry: RetryPolicy::default(),
            rate_limit: RateLimitPolicy::default(),
            conflicts: vec![ConflictRule::precondition_failed()],
            idempotency: None,
            lookups: BTreeMap::new(),
            request_validation: RequestValidation::default(),
            pull: BTreeMap::new(),
        }
    }
}

impl Reliability {
    /// Whether creates carry the declared idempotency key.
    #[must_use]
    pub fn keys_creates(&self) -> bool {
        self.idempotency
            .as_ref()
            .is_some_and(|k| k.applies_to(OperationKind::Create))
    }
}

/// `x-syncdef` of `definition` (empty when absent), read with the reader the linter uses.
///
/// # Errors
/// A message naming each extension member that is wrong.
pub(crate) fn read_extension(definition: &Definition) -> Result<Extension, String> {
    let read = Extension::read(definition).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    Ok(read.unwrap_or_default())
}

impl From<Extension> for Reliability {
    /// The policies of a checked extension: each member over its default.
    fn from(extension: Extension) -> Reliability {
        let d = Reliability::default();
        let retry = extension.retry.map_or(d.retry, |r| {
            RetryOverrides {
                max_attempts: r.max_attempts,
                initial_backoff: r.initial_backoff_ms.map(Duration::from_millis),
                max_backoff: r.max_backoff_ms.map(Duration::from_millis),
                deadline: r.deadline_ms.map(Duration::from_millis),
                statuses: r.statuses,
            }
            .over(&RetryPolicy::default())
        });
        let rate_limit = extension
            .rate_limit
            .map_or(d.rate_limit, |r| RateLimitPolicy {
                key: r.key,
                requests_per_minute: r.requests_per_minute,
                window_seconds: r.window_seconds,
                concurrency: r.concurrency,
            });
        let conflicts = extension.conflicts.map_or(d.conflicts, |rules| {
            rules
                .into_iter()
                .map(|r| ConflictRule {
                    status: r.status,
                    path: r.path,
                    equals: r.equals,
                })
                .collect()
        });
        let idempotency = extension.idempotency.map(|k| IdempotencyKey {
            placement: k.placement,
            name: k.name,
            operations: k.operations.map_or_else(
                || vec![OperationKind::Create],
                |ops| ops.into_iter().map(OperationKind::from).collect(),
            ),
        });
        let lookups = extension
            .lookup
            .unwrap_or_default()
            .into_iter()
            .map(|(entry, l)| (entry, Lookup::from(l)))
            .collect();
        let request_validation = RequestValidation {
            skip: extension
                .request_validation
                .map(|r| r.skip)
                .unwrap_or_default(),
        };
        Reliability {
            retry,
            rate_limit,
            conflicts,
            idempotency,
            lookups,
            request_validation,
            pull: extension.pull.unwrap_or_default(),
        }
    }
}
