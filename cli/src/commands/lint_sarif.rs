//! What `syncdef lint --format sarif` needs beyond the report: the rules `syncdef.toml` sets,
//! and a log even for a run that failed before it had a report, so that a CI upload reads the
//! failure instead of an empty file or "no alerts".

use std::io::{self, Write};
use std::process::ExitCode;

use syncdef_validator::output::OutputFormat;
use syncdef_validator::output::sarif::{self, SarifOptions, configured_rules};
use syncdef_validator::{LintReport, RuleSettings};

use crate::failure::{Exit, Failure};

/// The SARIF options of a run in `format` that produced `report` with `explicit` settings
/// (`--config`); the defaults for other formats, which need none.
pub fn options(
    format: OutputFormat,
    report: &LintReport,
    explicit: Option<&RuleSettings>,
) -> SarifOptions {
    if format != OutputFormat::Sarif {
        return SarifOptions::default();
    }
    SarifOptions {
        configured: configured_rules(report, explicit),
        ..SarifOptions::default()
    }
}

/// `result` unchanged; when it is a failure to run (exit 2), a SARIF log saying so is printed
/// on stdout first. The message still goes to stderr with the exit code, as in every format.
pub fn with_failed_log(result: Result<ExitCode, Failure>) -> Result<ExitCode, Failure> {
    let failure = match result {
        Err(failure) if failure.exit == Exit::Usage => failure,
        other => return other,
    };
    let message = crate::redacted::text(failure.message.trim_end()).into_owned();
    let log = sarif::failed_log(&message, &SarifOptions::default());
    // A log of strings cannot fail to serialize; a stdout that cannot be written leaves only
    // the message on stderr, which the failure prints anyway.
    if let Ok(text) = serde_json::to_string_pretty(&log) {
        let _ = writeln!(io::stdout().lock(), "{text}");
    }
    Err(failure)
}
