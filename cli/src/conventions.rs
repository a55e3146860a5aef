//! The argument spellings every command shares, defined once (docs/configuration.md,
//! "Command-line conventions"): the definition as the first argument, `--entry NAME`,
//! `--record FILE`, `--since WHEN`, `--dry-run`, `--format`, and the global `--color`.
//!
//! Spellings replaced by these still parse for one release, hidden from the help, and say on
//! stderr what replaces them.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use clap::Args;
use syncdef_platform::query::{Date, DateTime};

use crate::color::ColorChoice;
use crate::failure::Failure;

/// Says once on stderr that `old` is deprecated and what replaces it (`instead`, a clause:
/// "give the definition as the first argument").
pub fn deprecated(old: &str, instead: &str) {
    static SAID: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if said.insert(old.to_owned()) {
        eprintln!("warning: `{old}` is deprecated; {instead}");
    }
}

/// The definition a command works on: its first argument.
#[derive(Debug, Args)]
pub struct DefinitionArg {
    /// The synchronization definition (YAML or JSON).
    #[arg(value_name = "DEFINITION", required = true)]
    definition: Option<PathBuf>,
}

impl DefinitionArg {
    /// The definition's path.
    ///
    /// # Errors
    /// None was given (clap requires one, except beside a subcommand): a usage error.
    pub fn path(&self) -> Result<&Path, Failure> {
        self.definition
            .as_deref()
            .ok_or_else(|| Failure::usage("give the definition as the first argument"))
    }
}

/// A former spelling of a required argument, rewritten before parsing (so that the help and
/// the usage line show only the current one, as required).
struct Renamed {
    /// The former flag.
    old: &'static str,
    /// The flag replacing it; `None`: the value becomes the definition argument.
    new: Option<&'static str>,
    /// The former spelling, as the note shows it.
    shown: &'static str,
    /// What to do instead.
    instead: &'static str,
}

const RENAMED: [Renamed; 2] = [
    Renamed {
        old: "--definition",
        new: None,
        shown: "--definition FILE",
        instead: "give the definition as the first argument",
    },
    Renamed {
        old: "--entries",
        new: Some("--entry"),
        shown: "--entries ENTRY,...",
        instead: "use `--entry NAME` (repeatable, or comma-separated)",
    },
];

/// The command line with the former spellings of required arguments (`--definition FILE`,
/// `--entries A,B`, also with `=`) in their current ones, each said on stderr. Words after
/// `--` are left alone.
pub fn with_current_spellings(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--" {
            out.push(arg);
            out.extend(args);
            break;
        }
        let text = arg.to_str().unwrap_or_default();
        let (flag, joined) = text.split_once('=').unwrap_or((text, ""));
        let Some(renamed) = RENAMED.iter().find(|r| r.old == flag) else {
            out.push(arg);
            continue;
        };
        deprecated(renamed.shown, renamed.instead);
        let value = if text.contains('=') {
            Some(OsString::from(joined))
        } else {
            args.next()
        };
        if let Some(new) = renamed.new {
            out.push(OsString::from(new));
        }
        // The former flag last on the line, without its value: left for clap to report.
        out.extend(value.or_else(|| renamed.new.is_none().then_some(arg)));
    }
    out
}

/// A report's `--format`, on every command that prints one (`lint` adds its machine formats).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Readable text.
    Human,
    /// One JSON document.
    Json,
}

/// `--since WHEN`, one syntax wherever records are taken from a point in time.
#[derive(Debug, Args)]
pub struct SinceArg {
    /// Take records changed at or after WHEN: a date (`2026-11-20`, its midnight UTC) or a
    /// UTC date-time (`2026-11-20T16:02:44Z`). Default: those changed since the last run
    /// (`sync`), or every record (`pull`).
    #[arg(long, value_name = "WHEN", value_parser = since)]
    pub since: Option<String>,
}

/// Reads a `--since` value into its RFC 3339 date-time (`2026-11-20T00:00:00Z`).
fn since(text: &str) -> Result<String, String> {
    // A date is exactly ten characters; anything longer is read as a date-time, so that its
    // own mistake (a non-UTC offset) is the one reported.
    let instant = if text.len() == 10 {
        Date::parse(text).and_then(|date| date.at(0, 0, 0))
    } else {
        DateTime::parse(text)
    }
    .map_err(|e| {
        format!("{e}; give a date (2026-11-20) or a UTC date-time (2026-11-20T16:02:44Z)")
    })?;
    let shown = instant.to_string();
    Ok(format!("{}Z", shown.strip_suffix(".000").unwrap_or(&shown)))
}

/// `--dry-run` and the answers it is fed, for the commands that send to the external system
/// one request after another (`push`, `pull`).
#[derive(Debug, Args)]
pub struct DryRunArgs {
    /// Send nothing: answer each request from the operation's example or schema (or from
    /// --responses), and show what would be sent and what the templates make.
    #[arg(long)]
    pub dry_run: bool,

    /// With --dry-run, the answers: a JSON object by step (`create`, `update`, an action's
    /// name, `batchRead`, `read`), each `{"status", "headers", "body"}` or an array of them.
    /// Steps without one are answered from the operation's example or schema.
    #[arg(long, value_name = "FILE", requires = "dry_run")]
    pub responses: Option<PathBuf>,
}

/// `--color`, a global flag: whether the output of any command is coloured.
#[derive(Clone, Copy, Debug, Default, Args)]
pub struct ColorArg {
    /// When to colour the output: `auto` (on a terminal, as `NO_COLOR`, `FORCE_COLOR`,
    /// `CLICOLOR_FORCE` and `TERM` allow), `always` or `never`.
    #[arg(long, value_enum, default_value_t, value_name = "WHEN", global = true)]
    color: ColorChoice,
}

/// The `--color` of this process, set once by `main`; read here, as `-q` and `-v` are, so that
/// a flag every command shares changes no command's signature.
static COLOR: OnceLock<ColorChoice> = OnceLock::new();

impl ColorArg {
    /// Makes this the choice of the process (only the first call counts).
    pub fn remember(self) {
        let _ = COLOR.set(self.color);
    }
}

/// The `--color` choice of this process (`auto` when none was given).
pub fn color() -> ColorChoice {
    COLOR.get().copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn former_spellings_become_the_current_ones_in_place() {
        let rewritten = with_current_spellings(line(&[
            "syncdef",
            "sync",
            "--platform",
            "u",
            "--definition",
            "d.yaml",
            "--entries",
            "A,B",
        ]));
        let expected = [
            "syncdef",
            "sync",
            "--platform",
            "u",
            "d.yaml",
            "--entry",
            "A,B",
        ];
        assert_eq!(rewritten, line(&expected));
        let joined = with_current_spellings(line(&[
            "syncdef",
            "pull",
            "--definition=d.yaml",
            "--entries=A",
        ]));
        assert_eq!(joined, line(&["syncdef", "pull", "d.yaml", "--entry", "A"]));
        let after_dashes = line(&["syncdef", "lint", "--", "--definition", "x"]);
        assert_eq!(with_current_spellings(after_dashes.clone()), after_dashes);
        let dangling = line(&["syncdef", "pull", "--definition"]);
        assert_eq!(with_current_spellings(dangling.clone()), dangling);
        let dangling = line(&["syncdef", "sync", "--entries"]);
        assert_eq!(
            with_current_spellings(dangling),
            line(&["syncdef", "sync", "--entry"])
        );
        let unrelated = line(&["syncdef", "sync", "--entry", "--definitions-of"]);
        assert_eq!(with_current_spellings(unrelated.clone()), unrelated);
    }

    #[test]
    fn since_takes_a_date_or_a_utc_date_time_as_rfc_3339() {
        assert_eq!(since("2026-11-20").as_deref(), Ok("2026-11-20T00:00:00Z"));
        assert_eq!(
            since("2026-11-20T16:02:44Z").as_deref(),
            Ok("2026-11-20T16:02:44Z")
        );
        assert_eq!(
            since("2026-11-20T16:02:44.250+00:00").as_deref(),
            Ok("2026-11-20T16:02:44.250Z")
        );
        assert_eq!(
            since("2026-11-20T16:02").as_deref(),
            Ok("2026-11-20T16:02:00Z")
        );
        let offset = since("2026-11-20T16:02:44+02:00").expect_err("not UTC");
        assert!(offset.contains("UTC"), "{offset}");
        let junk = since("yesterday").expect_err("not a date");
        assert!(junk.contains("2026-11-20T16:02:44Z"), "{junk}");
        assert!(since("2026-02-30").is_err());
    }
}
