//! [`PostgresState`]: the state in a PostgreSQL database, shared by several workers.
//!
//! The same records and cursors as the `SQLite` state, with the same rules (the in-flight mark
//! is committed before a create leaves; a create cut short becomes `unknown`, never a second
//! create).

mod bridge;
mod budget;
mod cached;
mod location;
mod namespace;
mod queue;
mod reconnect;
mod schema;
mod store;
mod tls;

use std::sync::Arc;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::NoTls;

use self::bridge::{Bridge, Connections, PgError};
use crate::state::StateError;

pub use self::location::shown_location;

/// How the database is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A sync run: migrations applied. Several runs share the database: the queue's leases
    /// keep them from pushing one record twice.
    Run,
    /// A dry-run: every write in one transaction that is never committed.
    DryRun,
    /// `sync status`: nothing migrated, nothing written.
    Read,
}

/// Connections a process opens at most.
const POOL_SIZE: usize = 4;

/// The state in a PostgreSQL database (`postgres://user@host/db`).
pub struct PostgresState {
    connections: Connections,
    location: String,
    bridge: Bridge,
}

impl std::fmt::Debug for PostgresState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresState")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl PostgresState {
    /// Connects to `url` for a sync run: migrates the schema.
    ///
    /// # Errors
    /// [`StateError::Backend`] when it cannot be reached; [`StateError::TooNew`] for a newer
    /// syncdef's schema.
    pub fn open(url: &str) -> Result<Self, StateError> {
        Self::connect(url, Mode::Run)
    }

    /// Connects to `url` for a dry-run: reads what is stored and keeps every write in a
    /// transaction that is rolled back when the state is dropped.
    pub fn open_dry_run(url: &str) -> Result<Self, StateError> {
        Self::connect(url, Mode::DryRun)
    }

    /// Connects to `url` to read it only (`syncdef sync status`).
    pub fn open_read_only(url: &str) -> Result<Self, StateError> {
        Self::connect(url, Mode::Read)
    }

    /// The database's URL without its password, for messages.
    pub fn location(&self) -> &str {
        &self.location
    }

    fn connect(url: &str, mode: Mode) -> Result<Self, StateError> {
        let location = shown_location(url);
        let fail = |detail: String| StateError::backend(location.clone(), detail);
        let (url, schema) = namespace::take_schema(url).map_err(fail)?;
        let prepared = tls::prepare(&url).map_err(fail)?;
        let mut config: tokio_postgres::Config = prepared
            .url
            .parse()
            .map_err(|e| fail(format!("not a PostgreSQL connection URL: {e}")))?;
        if let Some(schema) = &schema {
            let options = namespace::search_path_option(config.get_options(), schema);
            config.options(&options);
        }
        let bridge = Bridge::new().map_err(fail)?;
        let recycling = ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        };
        let manager = match prepared.tls {
            Some(tls) => Manager::from_config(config, tls, recycling),
            None => Manager::from_config(config, NoTls, recycling),
        };
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .create_timeout(Some(std::time::Duration::from_secs(10)))
            .wait_timeout(Some(std::time::Duration::from_secs(30)))
            .build()
            .map_err(|e| fail(format!("cannot set up the connection pool: {e}")))?;
        let held = bridge
            .run(prepare(pool.clone(), mode, schema))
            .map_err(|e| e.into_state_error(&location))?;
        let connections = match held {
            None => Connections::Pool(pool),
            Some(object) => Connections::Held(Arc::new(tokio::sync::Mutex::new(object))),
        };
        Ok(PostgresState {
            connections,
            location,
            bridge,
        })
    }

    /// Runs `work` with a connection, on the state's runtime. When the connection is lost
    /// (the server restarted, a failover) `work` runs again on a new one, for up to
    /// [`reconnect::PATIENCE`]: every method is one statement or one transaction that may run
    /// twice (see `reconnect`).
    fn run<T, W, F>(&self, work: W) -> Result<T, StateError>
    where
        T: Send + 'static,
        W: Fn(bridge::Lent) -> F + Send + Sync + 'static,
        F: std::future::Future<Output = Result<T, PgError>> + Send + 'static,
    {
        let connections = self.connections.clone();
        let location = self.location.clone();
        self.bridge
            .run(async move {
                let mut patience = reconnect::Patience::new();
                loop {
                    let result = match connections.get().await {
                        Ok(connection) => work(connection).await,
                        Err(error) => Err(error),
                    };
                    // A dry-run's one connection holds its transaction: lost, it is gone.
                    let pooled = matches!(connections, bridge::Connections::Pool(_));
                    match result {
                        Err(error) if pooled && reconnect::lost(&error) => {
                            patience.wait(&error, &location).await?;
                        }
                        done => return done,
                    }
                }
            })
            .map_err(|e| e.into_state_error(&self.location))
    }
}

/// Migrates or checks the schema; returns the connection a dry-run keeps, with its open
/// transaction.
async fn prepare(
    pool: Pool,
    mode: Mode,
    namespace: Option<String>,
) -> Result<Option<deadpool_postgres::Object>, PgError> {
    let mut client = pool.get().await?;
    match mode {
        Mode::Run => {
            schema::migrate(&mut client, namespace.as_deref()).await?;
            Ok(None)
        }
        Mode::DryRun => {
            schema::migrate(&mut client, namespace.as_deref()).await?;
            client.batch_execute("BEGIN").await?;
            Ok(Some(client))
        }
        Mode::Read => {
            check_version(&client).await?;
            Ok(None)
        }
    }
}

/// A reader needs the current schema: it neither migrates nor misreads an older or newer one.
async fn check_version(client: &tokio_postgres::Client) -> Result<(), PgError> {
    let version = schema::version(client).await?;
    if version > schema::CURRENT {
        return Err(PgError::TooNew(version));
    }
    if version < schema::CURRENT {
        return Err(PgError::Corrupt(format!(
            "schema version {version}; run `syncdef sync` once to migrate it to {}",
            schema::CURRENT
        )));
    }
    Ok(())
}

#[cfg(test)]
mod queue_tests;
#[cfg(test)]
mod tests;
