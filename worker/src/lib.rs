//! The sync worker: reads platform records changed since the last run, pushes them through
//! the engine in dependency order, and remembers what it did, crash-safely.
//!
//! - [`Worker`]: a run's steps (`syncdef sync` is a thin wrapper around it). Pushing is one
//!   loop for every state: listers fill the state's [`WorkQueue`], pushers empty it.
//! - [`State`]: what is remembered (external ids, input hashes, failures, cursors), with
//!   [`SqliteState`] as the embedded store (its queue in memory, [`state::LocalQueue`]) and
//!   [`PostgresState`] as the one several workers share (its queue in the database).
//! - [`Dependencies`]: the entry order, from `ApiSynchronization` actions and
//!   `{Entry.IntegrationId}` placeholders.
//! - [`status`]: the `syncdef sync status` view of a state.
//!
//! How to run, recover and scale it: `docs/worker.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod backoff;
mod budget;
mod entries;
mod error;
mod guard;
mod handling;
pub mod hash;
mod lines;
mod modules;
mod observer;
mod options;
mod order;
mod progress;
mod pull;
mod push;
mod record;
mod related;
pub mod render;
mod report;
mod requests;
mod scan;
mod shared;
mod stamp;
pub mod state;
pub mod status;
mod worker;

pub use backoff::Backoff;
pub use error::WorkerError;
pub use modules::Module;
pub use observer::{Event, Flow, Observer, Silent, StatusClass};
pub use options::{Direction, SyncOptions};
pub use order::Dependencies;
pub use pull::{OVERLAP_SECONDS, cursor_name as pull_cursor_name};
pub use report::{EntrySummary, PlannedPush, PullResult, PullSummary, RecordResult, SyncReport};
pub use shared::{Clock, StopHandle};
pub use stamp::{Stamp, utc_text};
pub use state::sqlite::default_state_path;
pub use state::{
    InFlightCreate, PostgresState, RecordKey, RecordStatus, Resolution, SqliteState, State,
    StateError, StateLocation, WorkQueue,
};
pub use worker::Worker;
