//! `/healthz`: whether the worker makes progress, judged as `syncdef sync alive` judges its
//! alive file. Every event is progress (a page, a record, a request, a tenth of a second of
//! waiting between `--follow` runs); a worker that sends none for `--healthz-within` seconds
//! is stuck, and one whose run stopped on a listing that makes no progress is stalled.

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use syncdef_worker::Event;

/// The worker's last sign of life.
pub(super) struct Health {
    within: Duration,
    seen: Mutex<Seen>,
}

struct Seen {
    at: Instant,
    doing: Doing,
}

enum Doing {
    Starting,
    Syncing,
    Waiting,
    /// The last run stopped on a listing that makes no progress: why.
    Stalled(String),
}

impl Health {
    /// Healthy from now, until `within` passes without progress.
    pub fn new(within: Duration) -> Self {
        Health {
            within,
            seen: Mutex::new(Seen {
                at: Instant::now(),
                doing: Doing::Starting,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes `event` as progress.
    pub fn saw(&self, event: &Event<'_>) {
        let doing = match event {
            Event::Waiting { .. } => Doing::Waiting,
            Event::RunFinished { report } if report.stalled => Doing::Stalled(
                report
                    .stopped
                    .clone()
                    .unwrap_or_else(|| "a listing makes no progress".to_owned()),
            ),
            _ => Doing::Syncing,
        };
        let mut seen = self.lock();
        seen.at = Instant::now();
        seen.doing = doing;
    }

    /// What the worker is doing, or why it is not healthy.
    pub fn verdict(&self) -> Result<String, String> {
        self.verdict_at(Instant::now())
    }

    fn verdict_at(&self, now: Instant) -> Result<String, String> {
        let seen = self.lock();
        let age = now.saturating_duration_since(seen.at).as_secs();
        let doing = match &seen.doing {
            Doing::Stalled(why) => return Err(format!("stalled: {why}")),
            Doing::Starting => "starting",
            Doing::Syncing => "syncing",
            Doing::Waiting => "waiting for the next run",
        };
        if now.saturating_duration_since(seen.at) > self.within {
            return Err(format!(
                "no progress for {age} s (more than {} s)",
                self.within.as_secs()
            ));
        }
        Ok(format!("{doing}; last progress {age} s ago"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syncdef_worker::SyncReport;

    #[test]
    fn healthy_while_progressing_then_stuck_or_stalled() {
        let health = Health::new(Duration::from_secs(60));
        let start = Instant::now();
        assert!(health.verdict_at(start).is_ok());
        health.saw(&Event::Waiting {
            next_run_in: Duration::from_secs(5),
        });
        let waiting = health.verdict_at(Instant::now()).expect("healthy");
        assert!(waiting.starts_with("waiting"), "{waiting}");
        let stuck = health
            .verdict_at(Instant::now() + Duration::from_secs(61))
            .expect_err("stuck");
        assert!(stuck.contains("more than 60 s"), "{stuck}");
        health.saw(&Event::RunFinished {
            report: &SyncReport {
                stopped: Some("the listing of `Account` makes no progress".to_owned()),
                stalled: true,
                ..SyncReport::default()
            },
        });
        let stalled = health.verdict_at(Instant::now()).expect_err("stalled");
        assert_eq!(
            stalled,
            "stalled: the listing of `Account` makes no progress"
        );
    }
}
