//! The bridge between the synchronous [`crate::State`] methods and the asynchronous
//! PostgreSQL client.
//!
//! The state owns a small Tokio runtime of its own: each method spawns its queries there and
//! waits for them, so it can be called from any thread, inside or outside the caller's
//! runtime, exactly like the `SQLite` state's blocking calls. Connections come from a
//! `deadpool-postgres` pool; a dry-run holds one connection with its never-committed
//! transaction instead.

use std::future::Future;
use std::sync::Arc;

use deadpool_postgres::{Object, Pool, PoolError};
use tokio::runtime::Runtime;
use tokio::sync::{Mutex, OwnedMutexGuard};

use crate::state::StateError;

/// What can go wrong talking to PostgreSQL, before it is worded as a [`StateError`].
#[derive(Debug)]
pub(crate) enum PgError {
    /// No connection from the pool (server down, refused, bad credentials).
    Pool(PoolError),
    /// A query failed.
    Query(tokio_postgres::Error),
    /// The database was migrated by a newer syncdef (its version).
    TooNew(i32),
    /// A stored value this version cannot read.
    Corrupt(String),
    /// The runtime could not run the query (it is shutting down).
    Runtime(String),
}

impl From<PoolError> for PgError {
    fn from(e: PoolError) -> Self {
        PgError::Pool(e)
    }
}

impl From<tokio_postgres::Error> for PgError {
    fn from(e: tokio_postgres::Error) -> Self {
        PgError::Query(e)
    }
}

impl PgError {
    /// Words the failure for `location` (already without its password).
    pub(crate) fn into_state_error(self, location: &str) -> StateError {
        let location = location.to_owned();
        match self {
            PgError::TooNew(found) => StateError::TooNew {
                path: location,
                found: i64::from(found),
                known: i64::from(super::schema::CURRENT),
            },
            PgError::Corrupt(detail) => StateError::Corrupt {
                path: location,
                detail,
            },
            PgError::Pool(e) => StateError::backend(location, with_tls_advice(chain(&e))),
            PgError::Query(e) => StateError::backend(
                location,
                match e.as_db_error() {
                    Some(db) => format!("{} ({})", db.message(), db.code().code()),
                    None => chain(&e),
                },
            ),
            PgError::Runtime(detail) => StateError::backend(location, detail),
        }
    }
}

/// A refused certificate says what the URL needs: the server's CA, unless a public CA
/// signed it.
fn with_tls_advice(detail: String) -> String {
    if detail.contains("invalid peer certificate") {
        format!(
            "{detail}; give the CA that signed the server's certificate with \
             `sslrootcert=/path/to/ca.pem` in the URL (a managed database publishes it)"
        )
    } else {
        detail
    }
}

/// An error with its sources: tokio-postgres says "error connecting to server" at the top
/// and why underneath.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// Where connections come from.
#[derive(Clone)]
pub(crate) enum Connections {
    /// A pool: every method takes a connection and gives it back.
    Pool(Pool),
    /// One connection holding an open transaction (a dry-run): every method uses it.
    Held(Arc<Mutex<Object>>),
}

/// A connection lent to one method.
pub(crate) enum Lent {
    // Boxed: a pool object is large, and a lent connection is moved into each query's task.
    Pooled(Box<Object>),
    Held(OwnedMutexGuard<Object>),
}

impl std::ops::Deref for Lent {
    type Target = deadpool_postgres::ClientWrapper;

    fn deref(&self) -> &Self::Target {
        match self {
            Lent::Pooled(object) => object,
            Lent::Held(guard) => guard,
        }
    }
}

impl std::ops::DerefMut for Lent {
    fn deref_mut(&mut self) -> &mut Self::Target {
        match self {
            Lent::Pooled(object) => object,
            Lent::Held(guard) => &mut *guard,
        }
    }
}

impl Connections {
    /// A connection for one method.
    pub(crate) async fn get(&self) -> Result<Lent, PgError> {
        Ok(match self {
            Connections::Pool(pool) => Lent::Pooled(Box::new(pool.get().await?)),
            Connections::Held(held) => Lent::Held(held.clone().lock_owned().await),
        })
    }
}

/// The state's own runtime; shut down without waiting when the state is dropped (dropping a
/// runtime inside another one's task would panic).
pub(crate) struct Bridge {
    runtime: Option<Runtime>,
}

impl Bridge {
    pub(crate) fn new() -> Result<Self, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("syncdef-postgres")
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the PostgreSQL client's runtime: {e}"))?;
        Ok(Bridge {
            runtime: Some(runtime),
        })
    }

    /// Runs `work` on the state's runtime and waits for its result.
    pub(crate) fn run<T, F>(&self, work: F) -> Result<T, PgError>
    where
        T: Send + 'static,
        F: Future<Output = Result<T, PgError>> + Send + 'static,
    {
        let Some(runtime) = &self.runtime else {
            return Err(PgError::Runtime("the state is closed".into()));
        };
        // Polling a tokio `JoinHandle` spends the calling task's cooperative budget. When the
        // caller is a task of another runtime, that budget runs out after about a hundred
        // waits within one of its turns; tokio then hands the waker to that runtime, to be
        // woken once the turn ends, and the turn never ends because this thread waits here.
        // `unconstrained` waits outside the budget.
        let task = tokio::task::unconstrained(runtime.spawn(work));
        // Waiting blocks this thread. On a worker thread of a multi-threaded runtime, tell the
        // runtime first, so that the tasks queued behind this one on the thread move to
        // another (a blocked worker thread stalls them, the lease heartbeat among them).
        let wait = || futures::executor::block_on(task);
        let joined = match tokio::runtime::Handle::try_current() {
            Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(wait)
            }
            _ => wait(),
        };
        joined.map_err(|e| PgError::Runtime(format!("a state query stopped: {e}")))?
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}
