//! The `SQLite` schema and its migrations.
//!
//! `schema_version` holds one row; each migration moves it one step inside the same
//! transaction as its DDL, so a crash mid-migration leaves the old schema whole.

/// Migrations in order; version `n` is reached by running the first `n`.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: records and cursors.
    "CREATE TABLE records (
        entry           TEXT    NOT NULL,
        platform_id     TEXT    NOT NULL,
        external_id     TEXT,
        body_hash       TEXT,
        updated_at      TEXT,
        status          TEXT    NOT NULL
                        CHECK (status IN ('done', 'failed', 'inFlight', 'unknown')),
        error_class     TEXT,
        last_error      TEXT,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER,
        changed_at      INTEGER NOT NULL,
        PRIMARY KEY (entry, platform_id)
    ) WITHOUT ROWID;
    CREATE INDEX records_by_status ON records (entry, status, next_attempt_at);
    CREATE TABLE cursors (
        entry      TEXT    NOT NULL PRIMARY KEY,
        updated_at TEXT    NOT NULL,
        changed_at INTEGER NOT NULL
    ) WITHOUT ROWID;",
    // 2: the create in flight or of unknown outcome (its idempotency key and body), kept
    // until the record is pushed or resolved; unknown records become due for finding out.
    "ALTER TABLE records ADD COLUMN create_key TEXT;
    ALTER TABLE records ADD COLUMN create_body TEXT;
    UPDATE records SET next_attempt_at = changed_at
    WHERE status = 'unknown' AND next_attempt_at IS NULL;",
    // 3: pulls find platform records by their external id.
    "CREATE INDEX records_by_external_id ON records (external_id);",
    // 4: what the last run of each entry met that a person should know (a JSON array of
    // texts), for `syncdef sync status`.
    "CREATE TABLE warnings (
        entry      TEXT    NOT NULL PRIMARY KEY,
        messages   TEXT    NOT NULL,
        changed_at INTEGER NOT NULL
    ) WITHOUT ROWID;",
];

/// The newest schema version this build knows.
#[expect(clippy::cast_possible_wrap, reason = "a handful of migrations")]
pub(crate) const CURRENT: i64 = MIGRATIONS.len() as i64;

/// Creates the version table when the file is new.
pub(crate) const VERSION_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER NOT NULL
);";
