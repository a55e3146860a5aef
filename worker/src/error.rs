//! Errors that stop a sync run (record-level failures are stored, not returned).

use syncdef_platform::PlatformError;

use crate::state::StateError;
use syncdef_engine::ErrorClass;

/// Why a run could not start or had to stop. Failures of single records never end up here:
/// they are stored with their error and retried.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The request cannot be carried out as asked (unknown entry, unsupported module, cycle).
    #[error("{0}")]
    Usage(String),
    /// The state store failed; the run stops, since without state no duplicate can be ruled out.
    #[error(transparent)]
    State(#[from] StateError),
    /// Listing changed records failed; the cursor stays where the last complete group left it.
    #[error("listing the changed records of `{entry}` failed: {source}")]
    Listing {
        /// The entry.
        entry: String,
        /// The platform error (boxed: it is large and rare).
        source: Box<PlatformError>,
    },
    /// The listing of an entry makes no progress (the platform ignores `$filter` or paging):
    /// listing again would list the same records forever. The cursor stays where the last
    /// complete group left it.
    #[error(
        "the listing of `{entry}` makes no progress: {why}. Nothing was lost (the cursor stays where it was); check that the platform, and any proxy before it, honours `$filter`, `$orderby` and paging, then run again"
    )]
    Stalled {
        /// The entry.
        entry: String,
        /// What showed it.
        why: String,
    },
    /// The external system refused the credentials: every further push would fail the same
    /// way, so the run stops. The record that met it is stored as failed.
    #[error("{0}; re-authorize (`syncdef auth login`) and run again")]
    Authentication(String),
}

impl WorkerError {
    /// The engine's class of a push that met this error while pushing a record another one
    /// needs (its account, its lines): refused credentials stay what they are, so that the
    /// run stops; anything else is worth trying again.
    pub(crate) fn class(&self) -> ErrorClass {
        match self {
            WorkerError::Authentication(_) => ErrorClass::Authentication,
            _ => ErrorClass::Transient,
        }
    }
}
