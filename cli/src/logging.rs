//! `-q`/`--quiet`, `-v`/`--verbose` and `--log-format`, global flags of every command: how
//! much is logged on stderr, and how: plain `tracing` lines, or one JSON object a line for a
//! log collector; either way passed through redaction.
//!
//! Levels: `-q` errors only; by default `warn` (`info` for `sync`, whose progress they are),
//! or what `RUST_LOG` says; `-v` one level more (`info`, or `debug` for `sync`); `-vv` and more
//! `trace`. A flag beats `RUST_LOG`: the command line is the more specific choice.

use std::io;
use std::sync::OnceLock;

use clap::Args;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One line of text per event: time, level, target, message and fields.
    #[default]
    Text,
    /// One JSON object per line: `timestamp`, `level`, `target`, `fields` (the message and
    /// the event's fields) and, inside spans, `span` and `spans` with their fields.
    Json,
}

/// The logging flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Args)]
pub struct Verbosity {
    /// Print errors only: no log lines below error and no lint summary line. Findings and
    /// machine-readable output are unchanged.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,

    /// Log more on stderr: `-v` one level more than the default, `-vv` everything. Overrides
    /// `RUST_LOG`.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,

    /// How log lines on stderr are written: `text`, or `json` (one object per line, for a log
    /// collector). Secrets are masked in both.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "FORMAT",
        default_value_t
    )]
    log_format: LogFormat,
}

/// The flags of this process, set once by `main`. Commands read them here rather than through
/// their arguments, so that a flag every command shares changes no command's signature.
static CHOSEN: OnceLock<Verbosity> = OnceLock::new();

impl Verbosity {
    /// Makes these the flags of the process (only the first call counts).
    pub fn remember(self) {
        let _ = CHOSEN.set(self);
    }

    /// The level the flags ask for over a command's `default`; `None` when they ask nothing.
    fn level(self, default: LevelFilter) -> Option<LevelFilter> {
        match (self.quiet, self.verbose) {
            (true, _) => Some(LevelFilter::ERROR),
            (false, 0) => None,
            (false, 1) => Some(one_above(default)),
            (false, _) => Some(LevelFilter::TRACE),
        }
    }
}

/// Whether `-q` was given: commands then leave out what is only a comment on the output.
pub fn quiet() -> bool {
    CHOSEN.get().is_some_and(|v| v.quiet)
}

/// Whether `--log-format json` was given: the log is for a collector, so commands log their
/// progress as events instead of drawing bars on the terminal.
pub fn json() -> bool {
    CHOSEN
        .get()
        .is_some_and(|v| v.log_format == LogFormat::Json)
}

/// Whether `-v` was given: commands then show what they leave out by default.
pub fn verbose() -> bool {
    CHOSEN.get().is_some_and(|v| v.verbose > 0)
}

/// Installs the log lines on stderr, in the format and at the level the flags choose over
/// `default`. A second call in the same process is harmless and changes nothing.
pub fn init(default: LevelFilter) {
    let chosen = CHOSEN.get().copied().unwrap_or_default();
    let filter = match chosen.level(default) {
        Some(level) => Targets::new().with_default(level),
        None => from_environment(std::env::var("RUST_LOG").ok().as_deref(), default)
            .unwrap_or_else(|problem| {
                eprintln!("{problem}");
                Targets::new().with_default(default)
            }),
    };
    let lines = tracing_subscriber::fmt()
        .with_max_level(LevelFilter::TRACE)
        .with_writer(crate::redacted::Redacting(io::stderr))
        .with_ansi(false);
    // The formatter writes each event in one call, so that redaction sees it whole.
    let _ = match chosen.log_format {
        LogFormat::Text => lines.finish().with(filter).try_init(),
        LogFormat::Json => lines.json().finish().with(filter).try_init(),
    };
}

/// The filter `RUST_LOG` asks for: a level and `target=level` directives
/// (`warn,syncdef_engine=debug`); `default` everywhere when it is unset or empty. A value that
/// does not parse is an error saying so (the caller then logs at `default`): a mistyped
/// variable should neither silence the log nor go unnoticed.
fn from_environment(variable: Option<&str>, default: LevelFilter) -> Result<Targets, String> {
    match variable.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(Targets::new().with_default(default)),
        Some(directives) => directives.parse::<Targets>().map_err(|error| {
            format!(
                "RUST_LOG={directives:?} is not `level` or `target=level,...` ({error}): \
                 logging at {default}"
            )
        }),
    }
}

fn one_above(level: LevelFilter) -> LevelFilter {
    match level {
        LevelFilter::OFF => LevelFilter::ERROR,
        LevelFilter::ERROR => LevelFilter::WARN,
        LevelFilter::WARN => LevelFilter::INFO,
        LevelFilter::INFO => LevelFilter::DEBUG,
        _ => LevelFilter::TRACE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(quiet: bool, verbose: u8) -> Verbosity {
        Verbosity {
            quiet,
            verbose,
            log_format: LogFormat::Text,
        }
    }

    #[test]
    fn flags_map_to_levels_over_the_command_default() {
        let warn = LevelFilter::WARN;
        let info = LevelFilter::INFO;
        assert_eq!(flags(false, 0).level(warn), None);
        assert_eq!(flags(true, 0).level(info), Some(LevelFilter::ERROR));
        assert_eq!(flags(false, 1).level(warn), Some(LevelFilter::INFO));
        assert_eq!(flags(false, 1).level(info), Some(LevelFilter::DEBUG));
        assert_eq!(flags(false, 2).level(warn), Some(LevelFilter::TRACE));
        assert_eq!(flags(false, 5).level(info), Some(LevelFilter::TRACE));
    }

    #[test]
    fn rust_log_sets_levels_by_target() {
        let on = |targets: &Targets, target: &str, filter: LevelFilter| {
            targets.would_enable(target, &filter.into_level().expect("a level, not off"))
        };
        let warn = LevelFilter::WARN;
        let unset = from_environment(None, warn).expect("unset");
        assert!(on(&unset, "syncdef_engine", LevelFilter::WARN));
        assert!(!on(&unset, "syncdef_engine", LevelFilter::INFO));
        let empty = from_environment(Some("  "), warn).expect("empty");
        assert!(on(&empty, "anything", LevelFilter::WARN));
        let chosen = from_environment(Some("error,syncdef_engine=debug"), warn).expect("parses");
        assert!(on(&chosen, "syncdef_engine::push", LevelFilter::DEBUG));
        assert!(!on(&chosen, "syncdef_worker", LevelFilter::WARN));
        assert!(on(&chosen, "syncdef_worker", LevelFilter::ERROR));
    }

    #[test]
    fn a_rust_log_that_does_not_parse_is_named() {
        let problem = from_environment(Some("syncdef_engine=loud"), LevelFilter::WARN)
            .expect_err("not a level");
        assert!(
            problem.contains("RUST_LOG=\"syncdef_engine=loud\""),
            "{problem}"
        );
        assert!(problem.contains("logging at warn"), "{problem}");
    }
}
