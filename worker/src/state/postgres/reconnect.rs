//! Riding out a lost connection: a PostgreSQL restart or failover breaks every pooled
//! connection, and for a few seconds new ones are refused. A method whose connection is lost
//! runs again on a new one (the pool drops closed connections and opens new ones), with a
//! growing pause, for up to [`PATIENCE`]; then the error goes to the worker as before.
//!
//! Running a method again is safe because each is one statement or one transaction whose
//! second run, after a first that may have committed unseen, leaves the same state: records
//! and cursors are upserts of the same values, a lease or lister taken again by the same
//! worker stays its own, an item completed twice is gone either way, and a request slot or
//! budget entry taken twice only makes the budget stricter until the slot's hold time ends.
//! What matters is that no method sends anything to the external system: a create is never
//! repeated by this loop.

use std::time::Duration;

use super::bridge::PgError;

/// How long a method keeps trying before its error reaches the worker. Shorter than a
/// typical lease (`--lease-seconds`, 60 s by default) would be wise for pushes in flight, but
/// a restart takes seconds: the pause outlasts it without keeping a dead server waited on.
pub(crate) const PATIENCE: Duration = Duration::from_secs(30);

const FIRST_PAUSE: Duration = Duration::from_millis(100);
const LONGEST_PAUSE: Duration = Duration::from_secs(2);

/// Whether `error` means the connection or the server went away, rather than a refused
/// statement: connection errors, server shutdown, or a server still starting up.
pub(crate) fn lost(error: &PgError) -> bool {
    match error {
        PgError::Pool(deadpool_postgres::PoolError::Backend(e)) | PgError::Query(e) => {
            connection_gone(e)
        }
        PgError::Pool(deadpool_postgres::PoolError::Timeout(_)) => true,
        PgError::Pool(_) | PgError::TooNew(_) | PgError::Corrupt(_) | PgError::Runtime(_) => false,
    }
}

fn connection_gone(error: &tokio_postgres::Error) -> bool {
    if error.is_closed() {
        return true;
    }
    match error.as_db_error() {
        // 08: connection exception; 57P01-57P03: shutdown, crash, starting up.
        Some(db) => {
            let code = db.code().code();
            code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03")
        }
        // No answer from the server at all: refused, reset, a socket gone.
        None => std::error::Error::source(error)
            .is_some_and(|cause| cause.downcast_ref::<std::io::Error>().is_some()),
    }
}

/// The pauses of one method's retries.
pub(crate) struct Patience {
    waited: Duration,
    pause: Duration,
    limit: Duration,
    longest: Duration,
}

impl Patience {
    pub(crate) fn new() -> Self {
        Patience::within(PATIENCE, FIRST_PAUSE, LONGEST_PAUSE)
    }

    fn within(limit: Duration, first: Duration, longest: Duration) -> Self {
        Patience {
            waited: Duration::ZERO,
            pause: first,
            limit,
            longest,
        }
    }

    /// Waits before the next try, or gives `error` back once [`PATIENCE`] is spent.
    pub(crate) async fn wait(&mut self, error: &PgError, location: &str) -> Result<(), PgError> {
        if self.waited >= self.limit {
            return Err(PgError::Runtime(format!(
                "the connection to PostgreSQL was lost and not regained in {} s: {}",
                self.limit.as_secs(),
                describe(error)
            )));
        }
        tracing::warn!(
            state = %location,
            error = %describe(error),
            "lost the PostgreSQL connection; trying again on a new one"
        );
        tokio::time::sleep(self.pause).await;
        self.waited += self.pause;
        self.pause = (self.pause * 2).min(self.longest);
        Ok(())
    }
}

fn describe(error: &PgError) -> String {
    match error {
        PgError::Pool(e) => e.to_string(),
        PgError::Query(e) => e.to_string(),
        PgError::TooNew(v) => format!("schema version {v}"),
        PgError::Corrupt(d) | PgError::Runtime(d) => d.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn a_lost_connection_is_tried_again_until_patience_runs_out() {
        let error = PgError::Pool(deadpool_postgres::PoolError::Timeout(
            deadpool_postgres::TimeoutType::Create,
        ));
        assert!(lost(&error));
        // The real pauses scaled down a hundredfold: 1 ms growing to 20 ms, for 300 ms.
        let (limit, longest) = (Duration::from_millis(300), Duration::from_millis(20));
        let mut patience = Patience::within(limit, Duration::from_millis(1), longest);
        let start = std::time::Instant::now();
        let mut tries = 0;
        let given_up = loop {
            match patience.wait(&error, "db").await {
                Ok(()) => tries += 1,
                Err(e) => break e,
            }
        };
        let spent = start.elapsed();
        assert!(spent >= limit, "gave up after {spent:?}");
        assert!(tries > 10, "{tries} tries");
        let PgError::Runtime(message) = given_up else {
            panic!("not the giving-up error")
        };
        assert!(message.contains("not regained"), "{message}");
    }

    #[test]
    fn refused_statements_and_newer_schemas_are_not_retried() {
        assert!(!lost(&PgError::TooNew(9)));
        assert!(!lost(&PgError::Corrupt("x".into())));
        assert!(!lost(&PgError::Pool(deadpool_postgres::PoolError::Closed)));
    }
}
