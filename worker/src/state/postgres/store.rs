//! [`State`] on PostgreSQL: the `SQLite` state's statements in PostgreSQL's dialect, each one
//! statement committed on its own, so each method is one durable step.

use tokio_postgres::Row;

use super::PostgresState;
use super::bridge::PgError;
use super::cached::Cached;
use crate::state::row::{COLUMNS, StoredRow};
use crate::state::{
    CursorRow, Failed, InFlightCreate, Pushed, RecordKey, RecordRow, RecordStatus, Resolution,
    State, StateError, StatusCount, WarningRow,
};

/// The message of a create found in flight without a worker to finish it.
pub(super) const CUT_SHORT: &str = "a previous run stopped while this create was in flight: \
     the record may exist in the external system; the engine finds out where the definition \
     lets it, else check, then `syncdef sync resolve`";

/// Reads a row selected with [`COLUMNS`].
pub(super) fn record_row(r: &Row) -> Result<RecordRow, PgError> {
    let stored = StoredRow {
        entry: r.try_get(0)?,
        platform_id: r.try_get(1)?,
        external_id: r.try_get(2)?,
        body_hash: r.try_get(3)?,
        updated_at: r.try_get(4)?,
        status: r.try_get(5)?,
        error_class: r.try_get(6)?,
        last_error: r.try_get(7)?,
        attempts: i64::from(r.try_get::<_, i32>(8)?),
        next_attempt_at: r.try_get(9)?,
        changed_at: r.try_get(10)?,
        create_key: r.try_get(11)?,
        create_body: r.try_get(12)?,
    };
    stored.decode().map_err(PgError::Corrupt)
}

fn record_rows(rows: &[Row]) -> Result<Vec<RecordRow>, PgError> {
    rows.iter().map(record_row).collect()
}

impl State for PostgresState {
    fn record(&self, key: &RecordKey) -> Result<Option<RecordRow>, StateError> {
        let key = key.clone();
        self.run(move |c| {
            let key = key.clone();
            async move {
                let sql =
                    format!("SELECT {COLUMNS} FROM records WHERE entry = $1 AND platform_id = $2");
                let row = c
                    .query_opt_cached(&sql, &[&key.entry, &key.platform_id])
                    .await?;
                row.as_ref().map(record_row).transpose()
            }
        })
    }

    fn mark_in_flight(
        &self,
        key: &RecordKey,
        create: &InFlightCreate,
        now: i64,
    ) -> Result<(), StateError> {
        let (key, create) = (key.clone(), create.clone());
        self.run(move |c| {
            let (create, key) = (create.clone(), key.clone());
            async move {
                c.execute_cached(
                    "INSERT INTO records (entry, platform_id, status, changed_at, create_key,
                                      create_body)
                 VALUES ($1, $2, 'inFlight', $3, $4, $5)
                 ON CONFLICT (entry, platform_id) DO UPDATE
                 SET status = 'inFlight', changed_at = excluded.changed_at,
                     create_key = excluded.create_key,
                     -- Sent again under its key with another body: which one the external
                     -- system acted on is unknown, so no body is kept (the engine then
                     -- updates the record after the repeat, whatever it holds).
                     create_body = CASE
                         WHEN records.create_key = excluded.create_key
                              AND records.create_body IS DISTINCT FROM excluded.create_body THEN NULL
                         ELSE excluded.create_body END",
                    &[
                        &key.entry,
                        &key.platform_id,
                        &now,
                        &create.idempotency_key,
                        &create.body,
                    ],
                )
                .await?;
                Ok(())
            }
        })
    }

    fn record_pushed(&self, key: &RecordKey, pushed: &Pushed, now: i64) -> Result<(), StateError> {
        let (key, pushed) = (key.clone(), pushed.clone());
        self.run(move |c| {
            let (key, pushed) = (key.clone(), pushed.clone());
            async move {
                c.execute_cached(
                    "INSERT INTO records (entry, platform_id, external_id, body_hash, updated_at,
                                      status, attempts, changed_at)
                 VALUES ($1, $2, $3, $4, $5, 'done', 0, $6)
                 ON CONFLICT (entry, platform_id) DO UPDATE
                 SET external_id = excluded.external_id, body_hash = excluded.body_hash,
                     updated_at = excluded.updated_at, status = 'done', error_class = NULL,
                     last_error = NULL, attempts = 0, next_attempt_at = NULL,
                     create_key = NULL, create_body = NULL,
                     changed_at = excluded.changed_at",
                    &[
                        &key.entry,
                        &key.platform_id,
                        &pushed.external_id,
                        &pushed.body_hash,
                        &pushed.updated_at,
                        &now,
                    ],
                )
                .await?;
                Ok(())
            }
        })
    }

    fn record_unchanged(
        &self,
        key: &RecordKey,
        updated_at: Option<&str>,
        now: i64,
    ) -> Result<(), StateError> {
        let (key, updated_at) = (key.clone(), updated_at.map(str::to_owned));
        self.run(move |c| {
            let (key, updated_at) = (key.clone(), updated_at.clone());
            async move {
                c.execute_cached(
                    "UPDATE records SET updated_at = coalesce($3, updated_at), changed_at = $4
                 WHERE entry = $1 AND platform_id = $2",
                    &[&key.entry, &key.platform_id, &updated_at, &now],
                )
                .await?;
                Ok(())
            }
        })
    }

    fn record_failed(&self, key: &RecordKey, failed: &Failed, now: i64) -> Result<(), StateError> {
        let status = if failed.unknown { "unknown" } else { "failed" };
        // The stored error is what `sync status` prints, possibly much later and elsewhere:
        // secrets redacted and the text bounded, whoever built the message.
        let message = syncdef_secrets::shown(&failed.message).into_owned();
        let (key, failed) = (key.clone(), failed.clone());
        self.run(move |c| {
            let (failed, key, message) = (failed.clone(), key.clone(), message.clone());
            async move {
                c.execute_cached(
                    "INSERT INTO records (entry, platform_id, updated_at, status, error_class,
                                      last_error, attempts, next_attempt_at, changed_at,
                                      external_id)
                 VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9)
                 ON CONFLICT (entry, platform_id) DO UPDATE
                 SET updated_at = coalesce(excluded.updated_at, records.updated_at),
                     external_id = coalesce(excluded.external_id, records.external_id),
                     body_hash = CASE WHEN excluded.external_id IS NULL
                                      THEN records.body_hash END,
                     status = excluded.status, error_class = excluded.error_class,
                     last_error = excluded.last_error, attempts = records.attempts + 1,
                     next_attempt_at = excluded.next_attempt_at,
                     create_key = CASE WHEN excluded.status = 'unknown'
                                       THEN records.create_key END,
                     create_body = CASE WHEN excluded.status = 'unknown'
                                        THEN records.create_body END,
                     changed_at = excluded.changed_at",
                    &[
                        &key.entry,
                        &key.platform_id,
                        &failed.updated_at,
                        &status,
                        &failed.class,
                        &message,
                        &failed.next_attempt_at,
                        &now,
                        &failed.external_id,
                    ],
                )
                .await?;
                Ok(())
            }
        })
    }

    fn by_external_id(
        &self,
        entries: &[String],
        external_id: &str,
    ) -> Result<Option<RecordRow>, StateError> {
        let (entries, external_id) = (entries.to_vec(), external_id.to_owned());
        self.run(move |c| {
            let (entries, external_id) = (entries.clone(), external_id.clone());
            async move {
                let sql = format!(
                    "SELECT {COLUMNS} FROM records WHERE external_id = $1 AND entry = ANY($2)
                 ORDER BY changed_at DESC LIMIT 1"
                );
                let row = c.query_opt_cached(&sql, &[&external_id, &entries]).await?;
                row.as_ref().map(record_row).transpose()
            }
        })
    }

    fn forget(&self, key: &RecordKey) -> Result<bool, StateError> {
        let key = key.clone();
        self.run(move |c| {
            let key = key.clone();
            async move {
                let n = c
                    .execute_cached(
                        "DELETE FROM records WHERE entry = $1 AND platform_id = $2",
                        &[&key.entry, &key.platform_id],
                    )
                    .await?;
                Ok(n > 0)
            }
        })
    }

    fn cursor(&self, entry: &str) -> Result<Option<String>, StateError> {
        let entry = entry.to_owned();
        self.run(move |c| {
            let entry = entry.clone();
            async move {
                let row = c
                    .query_opt_cached("SELECT updated_at FROM cursors WHERE entry = $1", &[&entry])
                    .await?;
                Ok(row.map(|r| r.try_get(0)).transpose()?)
            }
        })
    }

    fn set_cursor(&self, entry: &str, updated_at: &str, now: i64) -> Result<(), StateError> {
        let (entry, updated_at) = (entry.to_owned(), updated_at.to_owned());
        self.run(move |c| {
            let (entry, updated_at) = (entry.clone(), updated_at.clone());
            async move {
                c.execute_cached(
                    "INSERT INTO cursors (entry, updated_at, changed_at) VALUES ($1, $2, $3)
                 ON CONFLICT (entry) DO UPDATE
                 SET updated_at = excluded.updated_at, changed_at = excluded.changed_at",
                    &[&entry, &updated_at, &now],
                )
                .await?;
                Ok(())
            }
        })
    }

    fn reset_cursor(&self, entry: &str) -> Result<bool, StateError> {
        let entry = entry.to_owned();
        self.run(move |c| {
            let entry = entry.clone();
            async move {
                let removed = c
                    .execute_cached("DELETE FROM cursors WHERE entry = $1", &[&entry])
                    .await?;
                Ok(removed > 0)
            }
        })
    }

    fn set_warnings(&self, entry: &str, warnings: &[String], now: i64) -> Result<(), StateError> {
        let entry = entry.to_owned();
        let stored = (!warnings.is_empty()).then(|| WarningRow::stored(warnings));
        self.run(move |c| {
            let (entry, stored) = (entry.clone(), stored.clone());
            async move {
                match stored {
                    None => {
                        c.execute_cached("DELETE FROM warnings WHERE entry = $1", &[&entry])
                            .await?;
                    }
                    Some(stored) => {
                        c.execute_cached(
                            "INSERT INTO warnings (entry, messages, changed_at) VALUES ($1, $2, $3)
                             ON CONFLICT (entry) DO UPDATE
                             SET messages = excluded.messages, changed_at = excluded.changed_at",
                            &[&entry, &stored, &now],
                        )
                        .await?;
                    }
                }
                Ok(())
            }
        })
    }

    fn warnings(&self) -> Result<Vec<WarningRow>, StateError> {
        self.run(move |c| async move {
            let rows = c
                .query_cached(
                    "SELECT entry, messages, changed_at FROM warnings ORDER BY entry COLLATE \"C\"",
                    &[],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    let stored: String = r.try_get(1)?;
                    Ok(WarningRow::read(r.try_get(0)?, &stored, r.try_get(2)?))
                })
                .collect()
        })
    }

    fn rows_under(&self, entry: &str, prefix: &str) -> Result<Vec<RecordRow>, StateError> {
        let (entry, prefix) = (entry.to_owned(), prefix.to_owned());
        self.run(move |c| {
            let (entry, prefix) = (entry.clone(), prefix.clone());
            async move {
                // `starts_with`, not `LIKE`: a platform id may hold `%` or `_`; ordered as
                // SQLite orders (byte order), whatever the database's collation.
                let sql = format!(
                    "SELECT {COLUMNS} FROM records
                     WHERE entry = $1 AND starts_with(platform_id, $2)
                     ORDER BY platform_id COLLATE \"C\""
                );
                record_rows(&c.query_cached(&sql, &[&entry, &prefix]).await?)
            }
        })
    }

    fn due_retries(&self, entry: &str, now: i64) -> Result<Vec<RecordRow>, StateError> {
        let entry = entry.to_owned();
        self.run(move |c| {
            let entry = entry.clone();
            async move {
                let sql = format!(
                    "SELECT {COLUMNS} FROM records
                 WHERE entry = $1 AND status IN ('failed', 'unknown')
                       AND coalesce(next_attempt_at, 0) <= $2
                 ORDER BY next_attempt_at, platform_id"
                );
                record_rows(&c.query_cached(&sql, &[&entry, &now]).await?)
            }
        })
    }

    fn recover_in_flight(&self, now: i64) -> Result<u64, StateError> {
        self.run(move |c| async move {
            Ok(c.execute_cached(
                "UPDATE records
                 SET status = 'unknown', error_class = 'unknownOutcome', last_error = $2,
                     next_attempt_at = $1, changed_at = $1
                 WHERE status = 'inFlight'
                       AND NOT EXISTS (
                           SELECT 1 FROM work_items w
                           WHERE w.entry = records.entry AND w.platform_id = records.platform_id
                                 AND w.lease_until >= $1)",
                &[&now, &CUT_SHORT],
            )
            .await?)
        })
    }

    fn resolve(
        &self,
        key: &RecordKey,
        resolution: &Resolution,
        now: i64,
    ) -> Result<bool, StateError> {
        let (key, resolution) = (key.clone(), resolution.clone());
        self.run(move |c| {
            let (key, resolution) = (key.clone(), resolution.clone());
            async move {
                // The hash is cleared so that the next run pushes the record as an update (or a
                // create), bringing the external copy in line whatever it holds.
                let (external_id, note) = match resolution {
                    Resolution::ExternalId(id) => (Some(id), "resolved by an operator: update due"),
                    Resolution::Recreate => (None, "resolved by an operator: create due"),
                };
                let changed = c
                    .execute_cached(
                        "UPDATE records SET external_id = $3, body_hash = NULL, status = 'failed',
                            error_class = NULL, last_error = $4, attempts = 0,
                            next_attempt_at = 0, changed_at = $5,
                            create_key = NULL, create_body = NULL
                     WHERE entry = $1 AND platform_id = $2 AND status IN ('unknown', 'failed')",
                        &[&key.entry, &key.platform_id, &external_id, &note, &now],
                    )
                    .await?;
                Ok(changed > 0)
            }
        })
    }

    fn counts(&self) -> Result<Vec<StatusCount>, StateError> {
        self.run(move |c| async move {
            let rows = c
                .query_cached(
                    "SELECT entry, status, count(*) FROM records GROUP BY entry, status
                     ORDER BY entry, status",
                    &[],
                )
                .await?;
            let mut counts = Vec::new();
            for row in rows {
                let status: String = row.try_get(1)?;
                let status = RecordStatus::parse(&status)
                    .ok_or_else(|| PgError::Corrupt(format!("unknown status `{status}`")))?;
                let count: i64 = row.try_get(2)?;
                counts.push(StatusCount {
                    entry: row.try_get(0)?,
                    status,
                    count: u64::try_from(count).unwrap_or(0),
                });
            }
            Ok(counts)
        })
    }

    fn problems(&self, limit: u32) -> Result<Vec<RecordRow>, StateError> {
        self.run(move |c| async move {
            // "ORDER BY status DESC" must order as SQLite does (byte order), whatever the
            // database's collation.
            let sql = format!(
                "SELECT {COLUMNS} FROM records WHERE status != 'done'
                 ORDER BY entry COLLATE \"C\", status COLLATE \"C\" DESC,
                          platform_id COLLATE \"C\" LIMIT $1"
            );
            record_rows(&c.query_cached(&sql, &[&i64::from(limit)]).await?)
        })
    }

    fn queue(&self) -> &dyn crate::state::WorkQueue {
        self
    }

    fn budget(&self) -> Option<&dyn crate::state::AccountBudget> {
        Some(self)
    }

    fn cursors(&self) -> Result<Vec<CursorRow>, StateError> {
        self.run(move |c| async move {
            let rows = c
                .query_cached(
                    "SELECT entry, updated_at, changed_at FROM cursors
                     ORDER BY entry COLLATE \"C\"",
                    &[],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(CursorRow {
                        entry: r.try_get(0)?,
                        updated_at: r.try_get(1)?,
                        changed_at: r.try_get(2)?,
                    })
                })
                .collect()
        })
    }
}
