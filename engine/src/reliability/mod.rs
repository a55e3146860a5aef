//! What keeps a push correct when the external system misbehaves: retries with backoff
//! ([`retry`]), per-account rate limits and concurrency caps ([`rate_limit`]), stale
//! concurrency tokens ([`conflict`]), idempotency keys ([`idempotency`]), the definition's
//! `x-syncdef` extension that configures them ([`extension`]), and the settings laid over it by
//! `syncdef.toml` and the instance ([`overrides`]). docs/reliability.md says what is retried and
//! what a worker does with each error class.

pub mod conflict;
pub mod extension;
pub mod idempotency;
pub mod limits;
pub mod lookup;
pub mod overrides;
pub mod rate_limit;
pub mod retry;

pub use conflict::ConflictRule;
pub use extension::{Reliability, RequestValidation};
pub use idempotency::IdempotencyKey;
pub use limits::RecordLimits;
pub use lookup::{Lookup, Quote};
pub use overrides::{Limit, Overrides, RateLimitOverrides, RetryOverrides};
pub use rate_limit::{RateLimitPolicy, RateLimits};
pub use retry::RetryPolicy;
