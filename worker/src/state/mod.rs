//! What the worker remembers between runs, behind the [`State`] trait.
//!
//! The sync loop only talks to [`State`] and its [`WorkQueue`]; [`SqliteState`] is the
//! embedded implementation (with a [`LocalQueue`] in memory), [`PostgresState`] the shared one
//! (its queue in the database); [`StateLocation`] picks one from `--state`.
//! See `docs/worker.md`, "State" and "Scaling out".

mod budget;
mod local_queue;
mod location;
pub(crate) mod postgres;
mod queue;
mod row;
mod schema;
pub(crate) mod sqlite;
#[cfg(test)]
mod suite;

use std::fmt;

use serde::Serialize;

pub use budget::{AccountBudget, AccountLimits, Grant};
pub use local_queue::LocalQueue;
pub use location::StateLocation;
pub use postgres::PostgresState;
pub use queue::{Lease, QueueDepth, WorkItem, WorkQueue};
pub use sqlite::SqliteState;

/// One platform record of one entry: the state's primary key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordKey {
    /// The definition's entry (`Account`).
    pub entry: String,
    /// The record's platform id, as text (`1042`, a GUID).
    pub platform_id: String,
}

impl RecordKey {
    /// The key of `platform_id` in `entry`.
    pub fn new(entry: impl Into<String>, platform_id: impl Into<String>) -> Self {
        RecordKey {
            entry: entry.into(),
            platform_id: platform_id.into(),
        }
    }
}

impl fmt::Display for RecordKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.entry, self.platform_id)
    }
}

/// Where a record stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RecordStatus {
    /// Pushed; `body_hash` is what was pushed.
    Done,
    /// The last push failed; retried after `next_attempt_at`.
    Failed,
    /// A create was about to be sent (or was sent) and its answer is not recorded yet. Only
    /// seen while a run is going; a run that finds one at start died mid-create.
    InFlight,
    /// A create may or may not have happened in the external system. Never retried by itself:
    /// an operator checks and resolves it (`syncdef sync resolve`).
    Unknown,
}

impl RecordStatus {
    /// The name stored and printed.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordStatus::Done => "done",
            RecordStatus::Failed => "failed",
            RecordStatus::InFlight => "inFlight",
            RecordStatus::Unknown => "unknown",
        }
    }

    /// Reads a stored name.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "done" => RecordStatus::Done,
            "failed" => RecordStatus::Failed,
            "inFlight" => RecordStatus::InFlight,
            "unknown" => RecordStatus::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for RecordStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything stored about one record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordRow {
    /// Entry and platform id.
    #[serde(flatten)]
    pub key: RecordKey,
    /// The id in the external system, once created.
    pub external_id: Option<String>,
    /// Hash of the input of the last successful push (see [`crate::hash`]).
    pub body_hash: Option<String>,
    /// The platform's `updatedAt` of the version last handled, as the platform wrote it.
    pub updated_at: Option<String>,
    /// Where the record stands.
    pub status: RecordStatus,
    /// The engine's error class of the last failure (`transient`, `externalValidation`, ...).
    pub error_class: Option<String>,
    /// The last failure's message.
    pub last_error: Option<String>,
    /// Failed attempts since the last success.
    pub attempts: u32,
    /// Unix seconds after which a failed record is tried again.
    pub next_attempt_at: Option<i64>,
    /// Unix seconds of the last change of this row.
    pub changed_at: i64,
    /// The create in flight, or of unknown outcome: kept until the record is pushed or
    /// resolved, so that the next create carries the same idempotency key and a lookup
    /// searches for what was sent.
    pub create: Option<InFlightCreate>,
}

/// A create as it left: what the engine needs to find out whether it was carried out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InFlightCreate {
    /// The idempotency key it carried.
    pub idempotency_key: Option<String>,
    /// The body it sent (JSON text); not shown by `sync status`.
    #[serde(skip)]
    pub body: Option<String>,
}

/// A successful push to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pushed {
    /// The external id (new on a create, the known one on an update).
    pub external_id: String,
    /// Hash of what was pushed.
    pub body_hash: String,
    /// The platform's `updatedAt` of the version pushed.
    pub updated_at: Option<String>,
}

/// A failed push to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed {
    /// The engine's error class, or `platform` for a failed platform read.
    pub class: String,
    /// What happened; never holds a secret (engine and platform messages are masked).
    pub message: String,
    /// Whether the outcome is unknown (a create may have happened): such a record is pushed
    /// again only when the engine can find out (a lookup, a kept idempotency key), else it
    /// waits for `syncdef sync resolve`.
    pub unknown: bool,
    /// The platform's `updatedAt` of the version tried, when known.
    pub updated_at: Option<String>,
    /// When to try again (unix seconds); for an unknown outcome, when to try finding out.
    pub next_attempt_at: i64,
    /// The record's id in the external system, when this attempt learnt it before failing (a
    /// create carried out, then the update that brings it up to date failed): stored, and the
    /// stored hash forgotten, so that the next attempt updates the record instead of creating
    /// it again.
    pub external_id: Option<String>,
}

impl Failed {
    /// A failure of class `class`, due again at once until [`Failed::next_attempt_at`] is set
    /// from the record's backoff; no external id learnt.
    #[must_use]
    pub fn new(class: &str, message: &str, unknown: bool, updated_at: Option<String>) -> Self {
        Failed {
            class: class.to_owned(),
            message: message.to_owned(),
            unknown,
            updated_at,
            next_attempt_at: 0,
            external_id: None,
        }
    }
}

/// How an operator settles a record in the `unknown` state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The record exists in the external system with this id: store it; the next change
    /// updates it.
    ExternalId(String),
    /// The record does not exist there: create it again on the next run.
    Recreate,
}

/// Counts by entry and status, for `syncdef sync status`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusCount {
    /// The entry.
    pub entry: String,
    /// The status.
    pub status: RecordStatus,
    /// How many records.
    pub count: u64,
}

/// A saved cursor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CursorRow {
    /// The entry.
    pub entry: String,
    /// The `updatedAt` below or at which every record is handled, as the platform wrote it.
    pub updated_at: String,
    /// Unix seconds of the last move.
    pub changed_at: i64,
}

/// What the last run of an entry met that a person should know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WarningRow {
    /// The entry; empty for the run's own (the platform's token endpoint).
    pub entry: String,
    /// The warnings, each once.
    pub messages: Vec<String>,
    /// Unix seconds of the run that met them.
    pub changed_at: i64,
}

impl WarningRow {
    /// The stored form of `messages`: a JSON array, each text redacted and bounded.
    pub(crate) fn stored(messages: &[String]) -> String {
        let shown: Vec<String> = messages
            .iter()
            .map(|m| syncdef_secrets::shown(m).into_owned())
            .collect();
        serde_json::Value::from(shown).to_string()
    }

    /// A row read back; text that is not an array of strings is shown as one warning.
    pub(crate) fn read(entry: String, stored: &str, changed_at: i64) -> Self {
        let messages =
            serde_json::from_str::<Vec<String>>(stored).unwrap_or_else(|_| vec![stored.to_owned()]);
        WarningRow {
            entry,
            messages,
            changed_at,
        }
    }
}

/// A failure of the state store. Fatal for the run: without state the worker cannot promise
/// "no duplicate".
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// Another process holds the state.
    #[error(
        "the state {path} is in use by another `syncdef sync` run; wait for it to end (only one worker may use a state file at a time; several share a PostgreSQL state: --state postgres://...)"
    )]
    Busy {
        /// The state file.
        path: String,
    },
    /// The file was written by a newer syncdef.
    #[error(
        "the state {path} has schema version {found}, newer than this syncdef knows ({known}); use a newer syncdef"
    )]
    TooNew {
        /// The state file.
        path: String,
        /// Version found.
        found: i64,
        /// Newest version known.
        known: i64,
    },
    /// A stored value this version cannot read.
    #[error("the state {path} holds an unreadable value: {detail}")]
    Corrupt {
        /// The state file.
        path: String,
        /// What.
        detail: String,
    },
    /// The state file could not be made private to its owner (mode 0600).
    #[error(
        "cannot make the state {path} private to its owner (mode 0600): {source}; check that you own the file and may write its directory"
    )]
    Permissions {
        /// The state file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The store itself failed: a `SQLite` error, a PostgreSQL server unreachable or refusing,
    /// a query failing. Each store says what happened in its own terms.
    #[error("state {location}: {source}")]
    Backend {
        /// The state file, or the database's URL without its password.
        location: String,
        /// The store's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl StateError {
    /// A failure of the store at `location`.
    pub(crate) fn backend(
        location: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        StateError::Backend {
            location: location.into(),
            source: source.into(),
        }
    }
}

/// The store of the sync loop. Every method is one atomic, durable step: when it returns, a
/// crash cannot undo it. Implementations synchronise internally (`&self`).
pub trait State: Send + Sync {
    /// The stored row of `key`.
    fn record(&self, key: &RecordKey) -> Result<Option<RecordRow>, StateError>;

    /// Notes that `create` of `key` is about to be sent, with its idempotency key and body.
    /// Must be durable before the request leaves: a crash after it leaves the record
    /// `InFlight`, which [`State::recover_in_flight`] turns into `Unknown`, with the create
    /// kept for finding out. A create sent again under the kept key with a different body
    /// keeps no body: the external system answers a repeat with the first create it received,
    /// and which body that was is unknown.
    fn mark_in_flight(
        &self,
        key: &RecordKey,
        create: &InFlightCreate,
        now: i64,
    ) -> Result<(), StateError>;

    /// Stores a successful push: status `Done`, attempts reset.
    fn record_pushed(&self, key: &RecordKey, pushed: &Pushed, now: i64) -> Result<(), StateError>;

    /// Notes that the version `updated_at` of a `Done` record needed no push.
    fn record_unchanged(
        &self,
        key: &RecordKey,
        updated_at: Option<&str>,
        now: i64,
    ) -> Result<(), StateError>;

    /// Stores a failure: status `Failed` (or `Unknown`), attempts + 1. Keeps the external id
    /// and hash of the last success; keeps the in-flight create when `Unknown`, forgets it
    /// when `Failed` (nothing was created).
    fn record_failed(&self, key: &RecordKey, failed: &Failed, now: i64) -> Result<(), StateError>;

    /// The record of one of `entries` known in the external system as `external_id`: how a
    /// pull pairs what it reads with the platform record (the most recently changed row when
    /// several entries know the id).
    fn by_external_id(
        &self,
        entries: &[String],
        external_id: &str,
    ) -> Result<Option<RecordRow>, StateError>;

    /// Forgets the row of `key` (a pull's create marker, once the record it created has a row
    /// of its own); `true` when there was one.
    fn forget(&self, key: &RecordKey) -> Result<bool, StateError>;

    /// The saved cursor of `entry`.
    fn cursor(&self, entry: &str) -> Result<Option<String>, StateError>;

    /// Moves the cursor of `entry` to `updated_at`.
    fn set_cursor(&self, entry: &str, updated_at: &str, now: i64) -> Result<(), StateError>;

    /// Forgets the cursor of `entry`: the next run starts from `--since` or the beginning.
    fn reset_cursor(&self, entry: &str) -> Result<bool, StateError>;

    /// Replaces what the last run met of `entry` (`""`: the run itself) with `warnings`; none
    /// forgets them.
    fn set_warnings(&self, entry: &str, warnings: &[String], now: i64) -> Result<(), StateError>;

    /// The warnings of the last runs, by entry.
    fn warnings(&self) -> Result<Vec<WarningRow>, StateError>;

    /// The rows of `entry` whose platform id starts with `prefix`, by platform id: the lines
    /// of one record (`<invoice id>/`), each stored as a record of its own.
    fn rows_under(&self, entry: &str, prefix: &str) -> Result<Vec<RecordRow>, StateError>;

    /// Failed and unknown records of `entry` whose next attempt is due at `now`, oldest first.
    fn due_retries(&self, entry: &str, now: i64) -> Result<Vec<RecordRow>, StateError>;

    /// Turns every `InFlight` record into `Unknown`, due at once; called when a run starts,
    /// so that a create cut short by a crash is never re-sent blindly (the engine finds out
    /// first, or the record waits for an operator). Returns how many. A shared store turns
    /// only those no live lease holds: the others are another worker's creates in flight.
    fn recover_in_flight(&self, now: i64) -> Result<u64, StateError>;

    /// Settles a record; `false` when it is not in the `Unknown` or `Failed` state.
    fn resolve(
        &self,
        key: &RecordKey,
        resolution: &Resolution,
        now: i64,
    ) -> Result<bool, StateError>;

    /// Counts by entry and status.
    fn counts(&self) -> Result<Vec<StatusCount>, StateError>;

    /// Failed, unknown and in-flight records, by entry and platform id (at most `limit`).
    fn problems(&self, limit: u32) -> Result<Vec<RecordRow>, StateError>;

    /// Every saved cursor.
    fn cursors(&self) -> Result<Vec<CursorRow>, StateError>;

    /// The queue the records to push go through: in the store when several workers share it
    /// (PostgreSQL), else in this process (a [`LocalQueue`]).
    fn queue(&self) -> &dyn WorkQueue;

    /// The request budget several workers share per external account, for a store that has
    /// one (PostgreSQL); `None` where one process's own limits are the account's.
    fn budget(&self) -> Option<&dyn AccountBudget> {
        None
    }
}
