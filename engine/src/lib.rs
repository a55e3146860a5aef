//! The push engine: carries out the push of a synchronization definition for one platform
//! record at a time, as the platform's specification describes it (part 2.6, "push": pre-
//! synchronization actions, create / update / delete, the response template, post-
//! synchronization actions; part 7.1, the create result `{id, success, errors}`), and the pull
//! of external records. The dry-run and the real push are the same code with a different
//! [`Transport`].
//!
//! **Syncing many records, with their state kept between runs, is `syncdef-worker`'s job**:
//! it lists the platform's changed records, pushes them in dependency order, keeps each
//! record's external id, concurrency token and unresolved creates in SQLite or PostgreSQL, and
//! survives crashes (`cargo run --release -p syncdef-worker --example first_sync`). Use the
//! engine directly to push a record whose state you keep yourself:
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use syncdef_definitions::Definition;
//! use syncdef_engine::{Engine, RecordState, ReqwestTransport, StaticToken};
//! use syncdef_transform::Value;
//!
//! let definition = Definition::load_path("catalog/quickbooks-online/definition.yaml".as_ref())?;
//! let loaded = Engine::load(definition)?; // refuses a definition with lint errors
//! let engine = loaded
//!     .engine
//!     .with_transport(Arc::new(ReqwestTransport::new()?))
//!     .with_token_provider(Arc::new(StaticToken::new("access-token")));
//! let record = Value::from_json_str(r#"{"id": 7, "name": "Acme"}"#)?;
//!
//! // The company the requests go to: the definition's server variable `realmId`, whose
//! // default is a placeholder. Set it for every push of that company.
//! let state = RecordState::new().with_server_variable("realmId", "9130356288744876");
//! let outcome = engine.push("Account", &record, &state).await;
//!
//! // Keep the external id the create returned: the next push of the record passes it, and
//! // becomes an update (with the concurrency token its pre-actions read).
//! if let Some(id) = outcome.external_id() {
//!     let next = state.clone().with_external_id(id);
//!     let _update = engine.push("Account", &record, &next).await;
//! }
//! # Ok(()) }
//! ```
//!
//! `engine/examples/push_one.rs` runs this against the local QuickBooks company of
//! `syncdef-mock` (`cargo run --release -p syncdef-engine --example push_one`).
//!
//! Layers, in the order a push flows: [`plan`] (the definition compiled once), [`state`] (what
//! the caller knows of the record), request building (URL, placeholders, body), [`transport`]
//! (real or recorded HTTP), extraction (the response template), [`outcome`] (typed result and
//! audit trail, secrets masked). [`auth`] provides the credentials each operation's security
//! requirement names, OAuth2 included.
//!
//! Inside, [`Engine`] is a façade: a push and a pull ([`Engine::pull_page`], [`Engine::read`])
//! are each a module of their own, given the plan and the engine's connectors, and both make
//! their requests through one call layer (compose, send, check the answer, keep the audit
//! trail); neither imports the other. docs/architecture.md describes the files.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod auth;
mod body_media;
mod call;
mod engine;
mod error;
pub mod error_shapes;
mod extract;
mod lookup;
pub mod mask;
mod masked;
pub mod outcome;
pub mod plan;
mod projection;
mod pull;
mod push;
mod received;
pub mod refusals;
pub mod reliability;
pub mod render;
mod request;
mod request_check;
mod servers;
pub mod state;
mod synth;
pub mod transport;

pub use auth::{NoToken, StaticToken, TokenProvider};
pub use engine::{Engine, Loaded};
pub use error::{EngineError, ErrorClass, LoadRefused};
pub use outcome::{
    Exchange, MaskedHeaders, MaskedJson, PushOutcome, PushStatus, RecordedRequest,
    RecordedResponse, RepeatedCreate,
};
pub use plan::{DefinitionPlan, EntryPlan, OperationKind};
pub use pull::position::PagePosition;
pub use pull::records::{INTEGRATION_ID, PulledRecord, RejectedRecord};
pub use pull::{PageRequest, PullPage};
pub use push::synchronizer::{Lines, Phase, SyncRequest, Synchronizer};
pub use reliability::{
    ConflictRule, IdempotencyKey, Limit, Overrides, RateLimitOverrides, RateLimitPolicy,
    RateLimits, RecordLimits, Reliability, RequestValidation, RetryOverrides, RetryPolicy,
};
pub use state::{Intent, RecordState, UnresolvedCreate};
pub use transport::{
    HeaderMap, HttpRequest, HttpResponse, RecordingTransport, ReqwestTransport, StepResponse,
    Transport, TransportError,
};
