//! The PostgreSQL schema and its versioned migrations.
//!
//! `schema_migrations` holds one row per applied version. Each migration runs in its own
//! transaction together with its row, under a transaction-scoped advisory lock, so workers
//! starting at once apply it once and a crash mid-migration leaves the old schema whole.

use tokio_postgres::{Client, GenericClient};

use super::bridge::PgError;

/// Migrations in order; version `n` is reached by running the first `n`.
///
/// Times are unix seconds (`BIGINT`) as in the `SQLite` state: every time comes from the
/// worker's clock, so that both stores behave alike and tests can step over backoffs and
/// leases.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: records and cursors, as in the SQLite state (its version 2).
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
        next_attempt_at BIGINT,
        changed_at      BIGINT  NOT NULL,
        create_key      TEXT,
        create_body     TEXT,
        PRIMARY KEY (entry, platform_id)
    );
    CREATE INDEX records_by_status ON records (entry, status, next_attempt_at);
    CREATE TABLE cursors (
        entry      TEXT   NOT NULL PRIMARY KEY,
        updated_at TEXT   NOT NULL,
        changed_at BIGINT NOT NULL
    );",
    // 2: the queue several workers share: records to push, with their leases, and the
    // lister of each entry.
    "CREATE TABLE work_items (
        entry       TEXT    NOT NULL,
        platform_id TEXT    NOT NULL,
        rank        INTEGER NOT NULL,
        updated_at  TEXT,
        retry       BOOLEAN NOT NULL DEFAULT false,
        requeued    BOOLEAN NOT NULL DEFAULT false,
        enqueued_at BIGINT  NOT NULL,
        leased_by   TEXT,
        lease_until BIGINT,
        PRIMARY KEY (entry, platform_id)
    );
    CREATE INDEX work_items_by_rank ON work_items (rank, enqueued_at);
    CREATE TABLE listers (
        entry       TEXT   NOT NULL PRIMARY KEY,
        leased_by   TEXT   NOT NULL,
        lease_until BIGINT NOT NULL
    );",
    // 3: the request budget of each external account, shared by every worker: requests of
    // the last minute and requests in flight (milliseconds of the database's clock).
    "CREATE TABLE account_requests (
        account    TEXT   NOT NULL,
        sent_at_ms BIGINT NOT NULL
    );
    CREATE INDEX account_requests_by_time ON account_requests (account, sent_at_ms);
    CREATE TABLE account_slots (
        id       BIGSERIAL PRIMARY KEY,
        account  TEXT   NOT NULL,
        worker   TEXT   NOT NULL,
        until_ms BIGINT NOT NULL
    );",
    // 4: pulls find platform records by their external id.
    "CREATE INDEX records_by_external_id ON records (external_id);",
    // 5: the request budget in two calls, each one statement (one round trip instead of ten:
    // the budget was the busiest statement of a pool). `syncdef_take_slot`, under the
    // account's advisory lock, forgets what left the window, then either grants a slot
    // (counting the request) or says how long to wait; null limits are not counted.
    // `syncdef_give_back` frees the slot and counts the request from its answer: the vendor
    // counts a request when it arrives, which is between the slot and the answer, so counted
    // from the answer a request never leaves this budget's window before the vendor's, however
    // late it arrived (a busy machine, a slow network). An unanswered request stays counted.
    "ALTER TABLE account_requests ADD COLUMN slot BIGINT;
    CREATE INDEX account_requests_by_slot ON account_requests (slot);
    CREATE FUNCTION syncdef_take_slot(
        p_account TEXT, p_worker TEXT, p_window_ms BIGINT, p_concurrency INTEGER,
        p_requests INTEGER, p_hold_ms BIGINT, p_poll_ms BIGINT,
        OUT slot BIGINT, OUT wait_ms BIGINT
    ) LANGUAGE plpgsql AS $$
    DECLARE
        now_ms BIGINT := (extract(epoch from clock_timestamp()) * 1000)::bigint;
        taken  BIGINT;
        oldest BIGINT;
    BEGIN
        PERFORM pg_advisory_xact_lock(hashtext(p_account));
        DELETE FROM account_slots WHERE account = p_account AND until_ms < now_ms;
        DELETE FROM account_requests r
            WHERE r.account = p_account AND r.sent_at_ms <= now_ms - p_window_ms
            AND NOT EXISTS (SELECT 1 FROM account_slots s WHERE s.id = r.slot);
        IF p_concurrency IS NOT NULL THEN
            SELECT count(*) INTO taken FROM account_slots WHERE account = p_account;
            IF taken >= p_concurrency THEN
                wait_ms := p_poll_ms;
                RETURN;
            END IF;
        END IF;
        IF p_requests IS NOT NULL THEN
            -- Room comes back when the oldest request of a full window is a window old.
            SELECT count(*), min(sent_at_ms) INTO taken, oldest
                FROM account_requests WHERE account = p_account;
            IF taken >= p_requests THEN
                wait_ms := greatest(coalesce(oldest + p_window_ms - now_ms + 1, p_poll_ms), 1);
                RETURN;
            END IF;
        END IF;
        INSERT INTO account_slots (account, worker, until_ms)
            VALUES (p_account, p_worker, now_ms + least(p_hold_ms, 9223372036854775807 - now_ms))
            RETURNING id INTO slot;
        INSERT INTO account_requests (account, sent_at_ms, slot) VALUES (p_account, now_ms, slot);
    END
    $$;
    CREATE FUNCTION syncdef_give_back(p_slot BIGINT) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE account_requests
            SET sent_at_ms = (extract(epoch from clock_timestamp()) * 1000)::bigint
            WHERE slot = p_slot;
        DELETE FROM account_slots WHERE id = p_slot;
    END
    $$;",
    // 6: what the last run of each entry met that a person should know (a JSON array of
    // texts), for `syncdef sync status`.
    "CREATE TABLE warnings (
        entry      TEXT   NOT NULL PRIMARY KEY,
        messages   TEXT   NOT NULL,
        changed_at BIGINT NOT NULL
    );",
];

/// The newest schema version this build knows.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "a handful of migrations"
)]
pub(crate) const CURRENT: i32 = MIGRATIONS.len() as i32;

/// The advisory lock key that serialises migrations (any fixed number; "syncdef" in ASCII).
const MIGRATION_LOCK: i64 = 0x73_79_6e_63_64_65_66;

const VERSION_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)";

/// The highest applied version, 0 for an empty database.
pub(crate) async fn version(client: &impl GenericClient) -> Result<i32, PgError> {
    let exists: bool = client
        .query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[])
        .await?
        .try_get(0)?;
    if !exists {
        return Ok(0);
    }
    let row = client
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )
        .await?;
    Ok(row.try_get(0)?)
}

/// Brings the schema to [`CURRENT`], one migration per transaction; [`PgError::TooNew`] for
/// a database of a newer syncdef. With a `namespace` (an instance's PostgreSQL schema, already
/// first on every connection's `search_path`) it is created first when missing.
pub(crate) async fn migrate(client: &mut Client, namespace: Option<&str>) -> Result<(), PgError> {
    loop {
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        if let Some(namespace) = namespace {
            // A checked plain identifier (`namespace::take_schema`): no quoting needed.
            tx.batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {namespace}"))
                .await?;
        }
        tx.batch_execute(VERSION_TABLE).await?;
        let version = version(&tx).await?;
        if version > CURRENT {
            return Err(PgError::TooNew(version));
        }
        let Some(sql) = MIGRATIONS.get(usize::try_from(version).unwrap_or(usize::MAX)) else {
            return Ok(tx.commit().await?);
        };
        tx.batch_execute(sql).await?;
        tx.execute(
            "INSERT INTO schema_migrations (version) VALUES ($1)",
            &[&(version + 1)],
        )
        .await?;
        tx.commit().await?;
        tracing::debug!(version = version + 1, "PostgreSQL state schema migrated");
    }
}
