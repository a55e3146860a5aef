//! Progress on a terminal for the commands that work long without printing on it: `pull`
//! (records and pages of an entry, with their rate) and `lint` of many files. Drawn with
//! `indicatif` on stderr only when stderr is a terminal and neither `-q` nor `--log-format
//! json` was given; otherwise nothing is drawn and every line is printed as it would be
//! without a bar.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use syncdef_validator::{Config, LintProgress, LintReport};

/// How often a spinner turns while nothing arrives, so that a slow page shows as waiting.
const TICK: Duration = Duration::from_millis(120);

/// Whether progress is drawn: on a terminal, unless `-q` or `--log-format json` (whose lines
/// are for a collector, which a bar's redrawing would garble).
fn drawn() -> bool {
    io::stderr().is_terminal() && !crate::logging::quiet() && !crate::logging::json()
}

/// A bar, or nothing where progress is not drawn.
#[derive(Default)]
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// Records of `entry` read page by page: a spinner with the count, pages and records a
    /// second.
    pub fn pull(entry: &str) -> Self {
        if !drawn() {
            return Progress(None);
        }
        let bar = ProgressBar::new_spinner()
            .with_style(style(
                "{spinner} {prefix}: {human_pos} record(s), {msg} ({elapsed})",
            ))
            .with_prefix(entry.to_owned())
            .with_message("reading the first page");
        bar.enable_steady_tick(TICK);
        Progress(Some(bar))
    }

    /// `total` files to lint: a bar with the count and the time left.
    pub fn files(total: usize) -> Self {
        if !drawn() || total < 2 {
            return Progress(None);
        }
        let bar = ProgressBar::new(u64::try_from(total).unwrap_or(u64::MAX))
            .with_style(
                style("{prefix} [{bar:30}] {human_pos}/{human_len} files ({eta} left)")
                    .progress_chars("=> "),
            )
            .with_prefix("linting");
        bar.enable_steady_tick(TICK);
        Progress(Some(bar))
    }

    /// A page of `records` records was read; `pages` in all so far.
    pub fn page(&self, pages: u32, records: usize) {
        if let Some(bar) = &self.0 {
            bar.inc(u64::try_from(records).unwrap_or(u64::MAX));
            // Whole records a second: indicatif's own rate shows four decimals.
            let millis = u64::try_from(bar.elapsed().as_millis()).unwrap_or(u64::MAX);
            let rate = bar.position().saturating_mul(1000) / millis.max(1);
            bar.set_message(format!("{pages} page(s), {rate} records/s"));
        }
    }

    /// One more file linted.
    pub fn file_done(&self) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
        }
    }

    /// Prints `line` on stderr, above the bar while one is drawn.
    pub fn say(&self, line: &str) {
        match &self.0 {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// Removes the bar: what follows is printed where it was.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// Lints `paths` as [`syncdef_validator::lint_paths`] does, with a bar of the files on a
/// terminal while it works (removed before the report is printed).
pub fn lint_paths(paths: &[PathBuf], config: &Config) -> LintReport {
    let bar = OnceLock::new();
    let report = syncdef_validator::lint_paths_with_progress(paths, config, &|step| match step {
        LintProgress::Found { files } => {
            let _ = bar.set(Progress::files(files));
        }
        LintProgress::Linted { .. } => {
            if let Some(bar) = bar.get() {
                bar.file_done();
            }
        }
    });
    if let Some(bar) = bar.get() {
        bar.finish();
    }
    report
}

fn style(template: &str) -> ProgressStyle {
    // The templates are constants: a mistake in one shows as the default style, not a failure.
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}
