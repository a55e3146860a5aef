//! [`SqliteState`]: the state in one embedded `SQLite` file.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, Row, params};

use super::row::{COLUMNS, StoredRow};
use super::schema::{CURRENT, MIGRATIONS, VERSION_TABLE};
use super::{
    CursorRow, Failed, InFlightCreate, LocalQueue, Pushed, RecordKey, RecordRow, RecordStatus,
    Resolution, State, StateError, StatusCount, WarningRow, WorkQueue,
};

/// How the file is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A sync run: exclusive lock, migrations applied.
    Run,
    /// A dry-run: everything happens in one transaction that is never committed.
    DryRun,
    /// `sync status`: read-only.
    Read,
}

/// The state in an embedded `SQLite` database.
///
/// A run holds an exclusive lock on the file for its whole length, so two workers can never
/// share one file by mistake; writes are durable when a method returns (rollback journal,
/// `synchronous = FULL`). Its work queue is a [`LocalQueue`] in memory.
pub struct SqliteState {
    conn: Mutex<Connection>,
    path: String,
    queue: LocalQueue,
}

impl std::fmt::Debug for SqliteState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteState")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl SqliteState {
    /// Opens (or creates) `path` for a sync run: takes the exclusive lock and migrates.
    ///
    /// # Errors
    /// [`StateError::Busy`] when another run holds the file.
    pub fn open(path: &Path) -> Result<Self, StateError> {
        Self::open_mode(path, Mode::Run)
    }

    /// Opens `path` for a dry-run: reads what is stored, and keeps every write in a
    /// transaction that is rolled back when the state is dropped. A missing file is not
    /// created: the dry-run starts from an empty in-memory state.
    pub fn open_dry_run(path: &Path) -> Result<Self, StateError> {
        Self::open_mode(path, Mode::DryRun)
    }

    /// Opens `path` read-only, for `syncdef sync status`.
    pub fn open_read_only(path: &Path) -> Result<Self, StateError> {
        Self::open_mode(path, Mode::Read)
    }

    /// A fresh state in memory (tests, and dry-runs without a state file).
    pub fn in_memory() -> Result<Self, StateError> {
        let conn = Connection::open_in_memory().map_err(db(":memory:"))?;
        let state = SqliteState {
            conn: Mutex::new(conn),
            path: ":memory:".to_owned(),
            queue: LocalQueue::default(),
        };
        state.migrate()?;
        Ok(state)
    }

    /// The file's path, for messages.
    pub fn path(&self) -> &str {
        &self.path
    }

    fn open_mode(path: &Path, mode: Mode) -> Result<Self, StateError> {
        let shown = path.display().to_string();
        if mode != Mode::Run && !path.exists() {
            if mode == Mode::DryRun {
                return Self::in_memory();
            }
            return Err(StateError::backend(
                shown,
                "no such file: no sync has run with this state yet",
            ));
        }
        if mode == Mode::Run {
            make_private(path).map_err(|source| StateError::Permissions {
                path: shown.clone(),
                source,
            })?;
        }
        let flags = match mode {
            Mode::Read => OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            _ => OpenFlags::default(),
        };
        let conn = Connection::open_with_flags(path, flags).map_err(db(&shown))?;
        conn.busy_timeout(Duration::from_secs(2))
            .map_err(db(&shown))?;
        let state = SqliteState {
            conn: Mutex::new(conn),
            path: shown,
            queue: LocalQueue::default(),
        };
        match mode {
            Mode::Run => {
                state.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = FULL;")?;
                state.migrate()?;
            }
            Mode::DryRun => {
                state.migrate()?;
                state.exec("BEGIN")?;
            }
            Mode::Read => state.check_version()?,
        }
        Ok(state)
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite half-written (statements are
        // atomic), so a poisoned lock is still usable.
        self.conn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn exec(&self, sql: &str) -> Result<(), StateError> {
        self.lock().execute_batch(sql).map_err(self.err())
    }

    fn err(&self) -> impl Fn(rusqlite::Error) -> StateError + '_ {
        move |e| classify(&self.path, e)
    }

    fn version(conn: &Connection) -> rusqlite::Result<Option<i64>> {
        let exists: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'schema_version')",
            [],
            |r| r.get(0),
        )?;
        if !exists {
            return Ok(None);
        }
        conn.query_row("SELECT max(version) FROM schema_version", [], |r| r.get(0))
    }

    fn check_version(&self) -> Result<(), StateError> {
        let conn = self.lock();
        let version = Self::version(&conn).map_err(self.err())?.unwrap_or(0);
        if version > CURRENT {
            return Err(StateError::TooNew {
                path: self.path.clone(),
                found: version,
                known: CURRENT,
            });
        }
        if version < CURRENT {
            return Err(StateError::Corrupt {
                path: self.path.clone(),
                detail: format!(
                    "schema version {version}; run `syncdef sync` once to migrate it to {CURRENT}"
                ),
            });
        }
        Ok(())
    }

    /// Brings the schema to [`CURRENT`], one migration per transaction. `BEGIN EXCLUSIVE`
    /// also takes the run's lock (kept afterwards in exclusive locking mode).
    fn migrate(&self) -> Result<(), StateError> {
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)
            .map_err(self.err())?;
        tx.execute_batch(VERSION_TABLE).map_err(self.err())?;
        let version = Self::version(&tx).map_err(self.err())?.unwrap_or(0);
        if version > CURRENT {
            return Err(StateError::TooNew {
                path: self.path.clone(),
                found: version,
                known: CURRENT,
            });
        }
        for (index, sql) in MIGRATIONS
            .iter()
            .enumerate()
            .skip(usize::try_from(version).unwrap_or(usize::MAX))
        {
            tx.execute_batch(sql).map_err(self.err())?;
            tx.execute("DELETE FROM schema_version", [])
                .map_err(self.err())?;
            tx.execute(
                "INSERT INTO schema_version (version) VALUES (?1)",
                [i64::try_from(index + 1).unwrap_or(i64::MAX)],
            )
            .map_err(self.err())?;
            tracing::debug!(state = %self.path, version = index + 1, "state schema migrated");
        }
        tx.commit().map_err(self.err())
    }

    fn row(r: &Row<'_>) -> rusqlite::Result<RecordRow> {
        let stored = StoredRow {
            entry: r.get(0)?,
            platform_id: r.get(1)?,
            external_id: r.get(2)?,
            body_hash: r.get(3)?,
            updated_at: r.get(4)?,
            status: r.get(5)?,
            error_class: r.get(6)?,
            last_error: r.get(7)?,
            attempts: r.get(8)?,
            next_attempt_at: r.get(9)?,
            changed_at: r.get(10)?,
            create_key: r.get(11)?,
            create_body: r.get(12)?,
        };
        stored.decode().map_err(|detail| {
            rusqlite::Error::FromSqlConversionFailure(5, rusqlite::types::Type::Text, detail.into())
        })
    }

    fn rows(&self, sql: &str, params: impl rusqlite::Params) -> Result<Vec<RecordRow>, StateError> {
        let conn = self.lock();
        let mut statement = conn.prepare_cached(sql).map_err(self.err())?;
        let rows = statement.query_map(params, Self::row).map_err(self.err())?;
        rows.collect::<Result<_, _>>().map_err(self.err())
    }
}

/// Makes the state file private to its owner before `SQLite` opens it: a new file is created
/// with mode 0600 (`SQLite` gives its journal the database's mode), an existing one readable or
/// writable by group or others is tightened to its owner's bits. The state holds external ids
/// and error messages of the company's records.
#[cfg(unix)]
fn make_private(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        // An empty file is an empty SQLite database.
        Ok(_) => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let journals = ["-journal", "-wal", "-shm"].map(|suffix| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    });
    for file in std::iter::once(path.to_path_buf()).chain(journals) {
        let metadata = match std::fs::metadata(&file) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        let mode = metadata.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode & 0o700))?;
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn make_private(_path: &Path) -> std::io::Result<()> {
    // Windows ACLs do not map to mode bits; a file inherits its directory's ACL.
    Ok(())
}

fn db(path: &str) -> impl Fn(rusqlite::Error) -> StateError + '_ {
    move |e| classify(path, e)
}

fn classify(path: &str, error: rusqlite::Error) -> StateError {
    if let rusqlite::Error::SqliteFailure(e, _) = &error
        && matches!(e.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    {
        return StateError::Busy {
            path: path.to_owned(),
        };
    }
    if let rusqlite::Error::FromSqlConversionFailure(_, _, detail) = &error {
        return StateError::Corrupt {
            path: path.to_owned(),
            detail: detail.to_string(),
        };
    }
    StateError::backend(path, error)
}

impl State for SqliteState {
    fn queue(&self) -> &dyn WorkQueue {
        &self.queue
    }

    fn record(&self, key: &RecordKey) -> Result<Option<RecordRow>, StateError> {
        let conn = self.lock();
        conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM records WHERE entry = ?1 AND platform_id = ?2"
        ))
        .and_then(|mut s| {
            s.query_row(params![key.entry, key.platform_id], Self::row)
                .optional()
        })
        .map_err(self.err())
    }

    fn mark_in_flight(
        &self,
        key: &RecordKey,
        create: &InFlightCreate,
        now: i64,
    ) -> Result<(), StateError> {
        self.lock()
            .execute(
                "INSERT INTO records (entry, platform_id, status, changed_at, create_key,
                                      create_body)
                 VALUES (?1, ?2, 'inFlight', ?3, ?4, ?5)
                 ON CONFLICT (entry, platform_id) DO UPDATE
                 SET status = 'inFlight', changed_at = excluded.changed_at,
                     create_key = excluded.create_key,
                     -- Sent again under its key with another body: which one the external
                     -- system acted on is unknown, so no body is kept (the engine then
                     -- updates the record after the repeat, whatever it holds).
                     create_body = CASE
                         WHEN records.create_key = excluded.create_key
                              AND records.create_body IS NOT excluded.create_body THEN NULL
                         ELSE excluded.create_body END",
                params![
                    key.entry,
                    key.platform_id,
                    now,
                    create.idempotency_key,
                    create.body
                ],
            )
            .map(drop)
            .map_err(self.err())
    }

    fn record_pushed(&self, key: &RecordKey, pushed: &Pushed, now: i64) -> Result<(), StateError> {
        self.lock()
            .execute(
                "INSERT INTO records (entry, platform_id, external_id, body_hash, updated_at,
                                      status, attempts, changed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'done', 0, ?6)
                 ON CONFLICT (entry, platform_id) DO UPDATE
                 SET external_id = excluded.external_id, body_hash = excluded.body_hash,
                     updated_at = excluded.updated_at, status = 'done', error_class = NULL,
                     last_error = NULL, attempts = 0, next_attempt_at = NULL,
                     create_key = NULL, create_body = NULL,
                     changed_at = excluded.changed_at",
                params![
                    key.entry,
                    key.platform_id,
                    pushed.external_id,
                    pushed.body_hash,
                    pushed.updated_at,
                    now
                ],
            )
            .map(drop)
            .map_err(self.err())
    }

    fn record_unchanged(
        &self,
        key: &RecordKey,
        updated_at: Option<&str>,
        now: i64,
    ) -> Result<(), StateError> {
        self.lock()
            .execute(
                "UPDATE records SET updated_at = coalesce(?3, updated_at), changed_at = ?4
                 WHERE entry = ?1 AND platform_id = ?2",
                params![key.entry, key.platform_id, updated_at, now],
            )
            .map(drop)
            .map_err(self.err())
    }

    fn record_failed(&self, key: &RecordKey, failed: &Failed, now: i64) -> Result<(), StateError> {
        let status = if failed.unknown { "unknown" } else { "failed" };
        // The stored error is what `sync status` prints, possibly much later and elsewhere:
        // secrets redacted and the text bounded, whoever built the message.
        let message = syncdef_secrets::shown(&failed.message);
        self.lock()
            .execute(
                "INSERT INTO records (entry, platform_id, updated_at, status, error_class,
                                      last_error, attempts, next_attempt_at, changed_at,
                                      external_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?8, ?9)
                 ON CONFLICT (entry, platform_id) DO UPDATE
                 SET updated_at = coalesce(excluded.updated_at, updated_at),
                     external_id = coalesce(excluded.external_id, external_id),
                     body_hash = CASE WHEN excluded.external_id IS NULL THEN body_hash END,
                     status = excluded.status, error_class = excluded.error_class,
                     last_error = excluded.last_error, attempts = attempts + 1,
                     next_attempt_at = excluded.next_attempt_at,
                     create_key = CASE WHEN excluded.status = 'unknown' THEN create_key END,
                     create_body = CASE WHEN excluded.status = 'unknown' THEN create_body END,
                     changed_at = excluded.changed_at",
                params![
                    key.entry,
                    key.platform_id,
                    failed.updated_at,
                    status,
                    failed.class,
                    message.as_ref(),
                    failed.next_attempt_at,
                    now,
                    failed.external_id
                ],
            )
            .map(drop)
            .map_err(self.err())
    }

    fn by_external_id(
        &self,
        entries: &[String],
        external_id: &str,
    ) -> Result<Option<RecordRow>, StateError> {
        let conn = self.lock();
        let rows = conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM records WHERE external_id = ?1 ORDER BY changed_at DESC"
            ))
            .and_then(|mut s| {
                s.query_map([external_id], Self::row)?
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(self.err())?;
        Ok(rows.into_iter().find(|r| entries.contains(&r.key.entry)))
    }

    fn forget(&self, key: &RecordKey) -> Result<bool, StateError> {
        self.lock()
            .execute(
                "DELETE FROM records WHERE entry = ?1 AND platform_id = ?2",
                params![key.entry, key.platform_id],
            )
            .map(|n| n > 0)
            .map_err(self.err())
    }

    fn cursor(&self, entry: &str) -> Result<Option<String>, StateError> {
        self.lock()
            .query_row(
                "SELECT updated_at FROM cursors WHERE entry = ?1",
                [entry],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.err())
    }

    fn set_cursor(&self, entry: &str, updated_at: &str, now: i64) -> Result<(), StateError> {
        self.lock()
            .execute(
                "INSERT INTO cursors (entry, updated_at, changed_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (entry) DO UPDATE
                 SET updated_at = excluded.updated_at, changed_at = excluded.changed_at",
                params![entry, updated_at, now],
            )
            .map(drop)
            .map_err(self.err())
    }

    fn reset_cursor(&self, entry: &str) -> Result<bool, StateError> {
        self.lock()
            .execute("DELETE FROM cursors WHERE entry = ?1", [entry])
            .map(|n| n > 0)
            .map_err(self.err())
    }

    fn set_warnings(&self, entry: &str, warnings: &[String], now: i64) -> Result<(), StateError> {
        let conn = self.lock();
        let done = if warnings.is_empty() {
            conn.execute("DELETE FROM warnings WHERE entry = ?1", [entry])
        } else {
            conn.execute(
                "INSERT INTO warnings (entry, messages, changed_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (entry) DO UPDATE
                 SET messages = excluded.messages, changed_at = excluded.changed_at",
                params![entry, WarningRow::stored(warnings), now],
            )
        };
        done.map(drop).map_err(self.err())
    }

    fn warnings(&self) -> Result<Vec<WarningRow>, StateError> {
        let conn = self.lock();
        let mut statement = conn
            .prepare_cached("SELECT entry, messages, changed_at FROM warnings ORDER BY entry")
            .map_err(self.err())?;
        let rows = statement
            .query_map([], |r| {
                Ok(WarningRow::read(
                    r.get(0)?,
                    &r.get::<_, String>(1)?,
                    r.get(2)?,
                ))
            })
            .map_err(self.err())?;
        rows.collect::<Result<_, _>>().map_err(self.err())
    }

    fn rows_under(&self, entry: &str, prefix: &str) -> Result<Vec<RecordRow>, StateError> {
        // `substr`, not `LIKE`: a platform id may hold `%` or `_`.
        self.rows(
            &format!(
                "SELECT {COLUMNS} FROM records
                 WHERE entry = ?1 AND substr(platform_id, 1, length(?2)) = ?2
                 ORDER BY platform_id"
            ),
            params![entry, prefix],
        )
    }

    fn due_retries(&self, entry: &str, now: i64) -> Result<Vec<RecordRow>, StateError> {
        self.rows(
            &format!(
                "SELECT {COLUMNS} FROM records
                 WHERE entry = ?1 AND status IN ('failed', 'unknown')
                       AND coalesce(next_attempt_at, 0) <= ?2
                 ORDER BY next_attempt_at, platform_id"
            ),
            params![entry, now],
        )
    }

    fn recover_in_flight(&self, now: i64) -> Result<u64, StateError> {
        self.lock()
            .execute(
                "UPDATE records
                 SET status = 'unknown', error_class = 'unknownOutcome',
                     last_error = 'a previous run stopped while this create was in flight: \
                                   the record may exist in the external system; the engine \
                                   finds out where the definition lets it, else check, then \
                                   `syncdef sync resolve`',
                     next_attempt_at = ?1, changed_at = ?1
                 WHERE status = 'inFlight'",
                [now],
            )
            .map(|n| n as u64)
            .map_err(self.err())
    }

    fn resolve(
        &self,
        key: &RecordKey,
        resolution: &Resolution,
        now: i64,
    ) -> Result<bool, StateError> {
        let conn = self.lock();
        let changed = match resolution {
            Resolution::ExternalId(id) => conn.execute(
                // The hash is cleared so that the next run pushes the record as an update,
                // bringing the external copy in line whatever it holds.
                "UPDATE records SET external_id = ?3, body_hash = NULL, status = 'failed',
                        error_class = NULL, last_error = 'resolved by an operator: update due',
                        attempts = 0, next_attempt_at = 0, changed_at = ?4,
                        create_key = NULL, create_body = NULL
                 WHERE entry = ?1 AND platform_id = ?2 AND status IN ('unknown', 'failed')",
                params![key.entry, key.platform_id, id, now],
            ),
            Resolution::Recreate => conn.execute(
                "UPDATE records SET external_id = NULL, body_hash = NULL, status = 'failed',
                        error_class = NULL, last_error = 'resolved by an operator: create due',
                        attempts = 0, next_attempt_at = 0, changed_at = ?3,
                        create_key = NULL, create_body = NULL
                 WHERE entry = ?1 AND platform_id = ?2 AND status IN ('unknown', 'failed')",
                params![key.entry, key.platform_id, now],
            ),
        };
        changed.map(|n| n > 0).map_err(self.err())
    }

    fn counts(&self) -> Result<Vec<StatusCount>, StateError> {
        let conn = self.lock();
        let mut statement = conn
            .prepare_cached(
                "SELECT entry, status, count(*) FROM records GROUP BY entry, status
                 ORDER BY entry, status",
            )
            .map_err(self.err())?;
        let rows = statement
            .query_map([], |r| {
                let status: String = r.get(1)?;
                Ok((r.get::<_, String>(0)?, status, r.get::<_, i64>(2)?))
            })
            .map_err(self.err())?;
        let mut counts = Vec::new();
        for row in rows {
            let (entry, status, count) = row.map_err(self.err())?;
            let status = RecordStatus::parse(&status).ok_or_else(|| StateError::Corrupt {
                path: self.path.clone(),
                detail: format!("unknown status `{status}`"),
            })?;
            counts.push(StatusCount {
                entry,
                status,
                count: u64::try_from(count).unwrap_or(0),
            });
        }
        Ok(counts)
    }

    fn problems(&self, limit: u32) -> Result<Vec<RecordRow>, StateError> {
        self.rows(
            &format!(
                "SELECT {COLUMNS} FROM records WHERE status != 'done'
                 ORDER BY entry, status DESC, platform_id LIMIT ?1"
            ),
            [limit],
        )
    }

    fn cursors(&self) -> Result<Vec<CursorRow>, StateError> {
        let conn = self.lock();
        let mut statement = conn
            .prepare_cached("SELECT entry, updated_at, changed_at FROM cursors ORDER BY entry")
            .map_err(self.err())?;
        let rows = statement
            .query_map([], |r| {
                Ok(CursorRow {
                    entry: r.get(0)?,
                    updated_at: r.get(1)?,
                    changed_at: r.get(2)?,
                })
            })
            .map_err(self.err())?;
        rows.collect::<Result<_, _>>().map_err(self.err())
    }
}

/// The default state file of a definition: `<definition>.sync.sqlite` beside it.
pub fn default_state_path(definition: &Path) -> PathBuf {
    let mut name = definition
        .file_name()
        .map(std::ffi::OsStr::to_os_string)
        .unwrap_or_default();
    name.push(".sync.sqlite");
    definition.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: &str) -> RecordKey {
        RecordKey::new("Account", id)
    }

    /// A fresh state in a file of its own, for the suite every store passes.
    fn fresh() -> (Box<dyn State>, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("dir");
        let state = SqliteState::open(&dir.path().join("s.sqlite")).expect("state");
        (Box::new(state), dir)
    }

    crate::state::suite::state_suite!(fresh);

    #[test]
    fn a_first_version_file_migrates_and_its_unknown_records_become_due() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("s.sqlite");
        {
            let conn = Connection::open(&path).expect("open");
            conn.execute_batch(VERSION_TABLE).expect("version table");
            conn.execute_batch(MIGRATIONS[0]).expect("version 1");
            conn.execute_batch(
                "INSERT INTO schema_version (version) VALUES (1);
                 INSERT INTO records (entry, platform_id, status, changed_at)
                 VALUES ('Account', '1', 'unknown', 7);",
            )
            .expect("a version 1 row");
        }
        let state = SqliteState::open(&path).expect("migrates");
        let due = state.due_retries("Account", 7).expect("due");
        assert_eq!(due.len(), 1);
        assert_eq!(
            (due[0].status, due[0].create.as_ref()),
            (RecordStatus::Unknown, None)
        );
    }

    #[test]
    fn failures_are_stored_redacted_and_bounded_in_the_file_too() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("s.sqlite");
        let state = SqliteState::open(&path).expect("state");
        // What every store promises; then what this one leaves on disk.
        crate::state::suite::stored_failures_are_redacted_and_bounded(&state);
        drop(state);
        let bytes = std::fs::read(&path).expect("file");
        assert!(bytes.len() < 200_000, "{} bytes", bytes.len());
        assert!(!bytes.windows(18).any(|w| w == b"stored-secret-4e9a"));
    }

    #[cfg(unix)]
    #[test]
    fn the_state_file_is_private_to_its_owner() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("s.sqlite");
        let state = SqliteState::open(&path).expect("create");
        state
            .record_failed(
                &key("1"),
                &Failed {
                    class: "transient".into(),
                    message: "503".into(),
                    unknown: false,
                    updated_at: None,
                    next_attempt_at: 1,
                    external_id: None,
                },
                1,
            )
            .expect("write");
        assert_eq!(mode(&path), 0o600);
        drop(state);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).expect("chmod");
        drop(SqliteState::open(&path).expect("open"));
        assert_eq!(mode(&path), 0o600);
        // Reading does not change the file.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        drop(SqliteState::open_read_only(&path).expect("read"));
        assert_eq!(mode(&path), 0o640);
    }

    #[test]
    fn migrations_are_recorded_and_a_newer_file_is_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("s.sqlite");
        drop(SqliteState::open(&path).expect("create"));
        drop(SqliteState::open(&path).expect("reopen"));
        let conn = Connection::open(&path).expect("open");
        conn.execute("UPDATE schema_version SET version = 99", [])
            .expect("bump");
        drop(conn);
        let error = SqliteState::open(&path).expect_err("too new");
        assert!(matches!(error, StateError::TooNew { found: 99, .. }));
    }

    #[test]
    fn a_second_run_on_the_same_file_is_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("s.sqlite");
        let first = SqliteState::open(&path).expect("first");
        first.set_cursor("Account", "2026-01-01", 1).expect("write");
        let second = SqliteState::open(&path).expect_err("busy");
        assert!(matches!(second, StateError::Busy { .. }), "{second}");
    }

    #[test]
    fn dry_runs_write_nothing() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("s.sqlite");
        drop(SqliteState::open(&path).expect("create"));
        {
            let dry = SqliteState::open_dry_run(&path).expect("dry");
            dry.set_cursor("Account", "2026-01-01", 1).expect("write");
            assert!(dry.cursor("Account").expect("read").is_some());
        }
        let state = SqliteState::open(&path).expect("reopen");
        assert_eq!(state.cursor("Account").expect("read"), None);
    }
}
