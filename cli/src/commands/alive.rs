//! `syncdef sync --alive-file FILE` and `syncdef sync alive`: liveness of a long-running worker
//! for a service manager or an orchestrator's probe.
//!
//! The file is rewritten (whole, by a rename) from the worker's own progress: each listing
//! page, record and tenth of a second of waiting between `--follow` runs, at most once a
//! second. A separate timer would keep it fresh while the loop hangs; progress events do not,
//! so a file that stops changing means a worker that stopped working. `syncdef sync alive`
//! is the probe: exit 0 while the file is younger than `--within`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use serde_json::{Value, json};
use syncdef_worker::{Event, Observer, SyncReport};

use crate::failure::{Exit, Failure};

/// How often at most the file is rewritten.
const EVERY: Duration = Duration::from_secs(1);

/// Writes the liveness file from the worker's events, and hands them on to `inner`.
pub struct AliveFile {
    path: PathBuf,
    inner: Arc<dyn Observer>,
    written: Mutex<Written>,
}

#[derive(Default)]
struct Written {
    at: Option<Instant>,
    last_run: Option<Value>,
}

impl AliveFile {
    /// Starts the file (`doing: "starting"`).
    ///
    /// # Errors
    /// The file cannot be written: a usage error naming it.
    pub fn start(path: &Path, inner: Arc<dyn Observer>) -> Result<Self, Failure> {
        let alive = AliveFile {
            path: path.to_owned(),
            inner,
            written: Mutex::new(Written::default()),
        };
        alive.write(&mut alive.lock(), "starting").map_err(|e| {
            Failure::usage(format!(
                "--alive-file {}: cannot write it ({e}); give a path in a directory that \
                     exists and this user may write",
                path.display()
            ))
        })?;
        Ok(alive)
    }

    /// Records a finished run (when it ended, whether it was clean) and writes at once.
    pub fn run_ended(&self, report: &SyncReport) {
        let mut written = self.lock();
        written.last_run = Some(json!({
            "endedAtUnix": unix_now(),
            "clean": report.is_clean(),
            "stopped": report.stopped,
            "stalled": report.stalled,
        }));
        self.write_or_warn(&mut written, "waiting");
    }

    /// Marks the worker stopped (`stalled` when its last run stopped on a listing that makes
    /// no progress): a probe then fails at once rather than after `--within`.
    pub fn stopped(&self) {
        let mut written = self.lock();
        let stalled = written
            .last_run
            .as_ref()
            .is_some_and(|run| run["stalled"] == true);
        self.write_or_warn(&mut written, if stalled { "stalled" } else { "stopped" });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Written> {
        self.written
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write_or_warn(&self, written: &mut Written, doing: &str) {
        if let Err(error) = self.write(written, doing) {
            // The worker goes on: a probe reading a stale file restarts it, which is the
            // right outcome for a worker that cannot write where it was told to.
            eprintln!(
                "syncdef: cannot write the alive file {}: {error}",
                self.path.display()
            );
        }
    }

    /// Writes the file whole: the text to a sibling, then renamed over it, so that a probe
    /// never reads half of it.
    fn write(&self, written: &mut Written, doing: &str) -> std::io::Result<()> {
        let text = json!({
            "pid": std::process::id(),
            "updatedAtUnix": unix_now(),
            "doing": doing,
            "lastRun": written.last_run,
        })
        .to_string();
        let mut sibling = self.path.as_os_str().to_owned();
        sibling.push(".tmp");
        std::fs::write(&sibling, text + "\n")?;
        std::fs::rename(&sibling, &self.path)?;
        written.at = Some(Instant::now());
        Ok(())
    }
}

impl Observer for AliveFile {
    fn event(&self, event: &Event<'_>) {
        self.inner.event(event);
        let mut written = self.lock();
        if written.at.is_some_and(|at| at.elapsed() < EVERY) {
            return;
        }
        let doing = match event {
            Event::Waiting { .. } => "waiting",
            _ => "syncing",
        };
        self.write_or_warn(&mut written, doing);
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `syncdef sync alive`.
#[derive(Debug, Args)]
pub struct AliveArgs {
    /// The file a worker writes with `--alive-file`.
    #[arg(long, value_name = "FILE")]
    pub file: PathBuf,

    /// Alive when the file changed at most this many seconds ago. Choose more than the
    /// longest a single request may take with its retries.
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub within: u64,
}

/// Exit 0 when the worker wrote its file within `--within` seconds and has not stopped, 1
/// otherwise, saying why on stderr.
pub fn alive(args: &AliveArgs) -> ExitCode {
    match verdict(&args.file, args.within, unix_now()) {
        Ok(()) => Exit::Success.into(),
        Err(why) => {
            eprintln!("syncdef: not alive: {why}");
            Exit::Findings.into()
        }
    }
}

/// Why the worker of `file` is not alive at `now`, if it is not.
fn verdict(file: &Path, within: u64, now: u64) -> Result<(), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not an alive file: {e}", file.display()))?;
    let updated = value["updatedAtUnix"]
        .as_u64()
        .ok_or_else(|| format!("{} has no `updatedAtUnix`", file.display()))?;
    if let Some(state @ ("stopped" | "stalled")) = value["doing"].as_str() {
        // A run that stopped on a failure says why.
        let why = value["lastRun"]["stopped"]
            .as_str()
            .map(|why| format!(": {why}"))
            .unwrap_or_default();
        return Err(format!("the worker (pid {}) {state}{why}", value["pid"]));
    }
    let age = now.saturating_sub(updated);
    if age > within {
        return Err(format!(
            "the worker (pid {}) last showed progress {age} s ago (more than {within} s)",
            value["pid"]
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nothing;
    impl Observer for Nothing {
        fn event(&self, _: &Event<'_>) {}
    }

    fn read(path: &Path) -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).expect("file")).expect("JSON")
    }

    #[test]
    fn the_file_follows_progress_at_most_once_a_second_and_says_when_stopped() {
        let dir = std::env::temp_dir().join(format!("syncdef-alive-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("alive.json");
        let alive = AliveFile::start(&path, Arc::new(Nothing)).expect("written");
        assert_eq!(read(&path)["doing"], "starting");
        alive.event(&Event::Waiting {
            next_run_in: Duration::from_secs(5),
        });
        assert_eq!(
            read(&path)["doing"],
            "starting",
            "not twice within a second"
        );
        alive.lock().at = Instant::now().checked_sub(EVERY);
        alive.event(&Event::Waiting {
            next_run_in: Duration::from_secs(4),
        });
        assert_eq!(read(&path)["doing"], "waiting");
        let now = read(&path)["updatedAtUnix"].as_u64().expect("time");
        assert_eq!(verdict(&path, 60, now), Ok(()));
        let stale = verdict(&path, 60, now + 61).expect_err("stale");
        assert!(stale.contains("more than 60 s"), "{stale}");
        alive.stopped();
        let stopped = verdict(&path, 60, now).expect_err("stopped");
        assert!(stopped.contains("stopped"), "{stopped}");
        // A run that stopped on a stalled listing: the probe says why.
        alive.run_ended(&SyncReport {
            stopped: Some("the listing of `Account` makes no progress: …".to_owned()),
            stalled: true,
            ..SyncReport::default()
        });
        alive.stopped();
        assert_eq!(read(&path)["doing"], "stalled");
        let stalled = verdict(&path, 60, now).expect_err("stalled");
        assert!(
            stalled.contains("stalled: the listing of `Account` makes no progress"),
            "{stalled}"
        );
        assert!(
            !dir.join("alive.json.tmp").exists(),
            "renamed, not left beside"
        );
        let missing = verdict(&dir.join("absent.json"), 60, now).expect_err("absent");
        assert!(missing.contains("cannot read"), "{missing}");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
