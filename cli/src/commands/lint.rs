//! `syncdef lint`: lint definitions and print the findings in the chosen format.

use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use syncdef_validator::output::{OutputFormat, RenderOptions, write_report};
use syncdef_validator::suppress::{generate, ignore_file};
use syncdef_validator::{Config, LintReport, RuleSettings, Scope, Severity, lint_text};

use crate::failure::{Failure, output_error};

/// Exit codes: 0 no finding at or above `--fail-severity` (default: error); 1 such findings;
/// 2 usage or I/O error (a path that cannot be read, an invalid syncdef.toml).
#[derive(Debug, Args)]
pub struct LintArgs {
    /// Files or directories. A directory is searched for *.yaml, *.yml and *.json files that
    /// hold a `synchronization` (or `x-synchronization`) section.
    #[arg(value_name = "PATH", default_value = ".")]
    paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    format: Format,

    /// The lowest severity that fails the run (exit 1): `error` (default), `warning`, `info`,
    /// or `none` (report only).
    #[arg(long, value_enum, value_name = "SEVERITY")]
    fail_severity: Option<FailSeverity>,

    /// Which findings to report: `used`, those in the parts of the description the
    /// synchronization uses (the operations its entries call and what they reach) and outside
    /// `paths` and `components`; or `all`. The others are counted in one line and fail nothing.
    /// Default: `scope` in syncdef.toml, else `used`.
    #[arg(long, value_enum, value_name = "SCOPE")]
    scope: Option<ScopeArg>,

    /// Exit with 1 when there are warnings, not only errors: `--fail-severity warning`.
    #[arg(long, conflicts_with = "fail_severity")]
    deny_warnings: bool,

    /// Print info findings too (human format; `-v` does the same). By default they are counted
    /// in the summary: they say nothing needs to change. JSON, SARIF and GitHub output carry
    /// them always.
    #[arg(long)]
    show_infos: bool,

    /// Use this syncdef.toml for every file, instead of the nearest one above each file.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// The file name a definition read from standard input (`syncdef lint -`) is reported
    /// under, and whose directory is searched for `syncdef.toml`.
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<PathBuf>,

    /// Files linted at once (default: one per core).
    #[arg(long, value_name = "N")]
    jobs: Option<NonZeroUsize>,

    /// A platform record (JSON, as the platform API returns it) to render entry ENTRY's request
    /// templates over; the rendering is checked against the request body schemas (SD802).
    /// Repeat for several entries. Without it, a sample synthesised from the platform record
    /// schema is used.
    #[arg(long, value_name = "ENTRY=FILE", value_parser = entry_record)]
    record: Vec<(String, PathBuf)>,

    /// The former spelling of `--record ENTRY=FILE`.
    #[arg(long, value_name = "ENTRY=FILE", value_parser = entry_record, hide = true)]
    sample: Vec<(String, PathBuf)>,

    /// The ignore file: findings not to report, by file, rule code and JSON pointer. Default:
    /// `.syncdef-ignore.yaml` beside the syncdef.toml (of --config, else the nearest one above
    /// the current directory), else in the current directory, when it exists.
    #[arg(long, value_name = "PATH")]
    ignore_file: Option<PathBuf>,

    /// Write every finding to the ignore file (replacing it), so that they are no longer
    /// reported, and exit 0. `x-syncdef-ignore` still applies; the old ignore file does not.
    #[arg(long)]
    generate_ignore_file: bool,

    /// The external id of a related record, as `push --related` takes it (repeatable):
    /// `--related Customer=58`. Request templates reading `$.related.ENTRY.IntegrationId` are
    /// rendered with it instead of a stand-in.
    #[arg(long, value_name = "ENTRY=ID", value_parser = super::name_value)]
    related: Vec<(String, String)>,
}

fn entry_record(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((entry, file)) if !entry.is_empty() && !file.is_empty() => {
            Ok((entry.to_owned(), PathBuf::from(file)))
        }
        _ => Err(format!(
            "`{text}` is not ENTRY=FILE: name the synchronization entry and the record file, as in `--record Account=catalog/records/account-acme-eur.json`"
        )),
    }
}

/// `syncdef lint -`: the definition on standard input, named `--stdin-filename` in locations
/// and for finding its `syncdef.toml` (default `<stdin>`, from the current directory).
fn lint_stdin(args: &LintArgs, config: &Config) -> Result<LintReport, Failure> {
    if args.paths.len() > 1 {
        return Err(Failure::usage(
            "`-` (standard input) cannot be linted together with other paths; lint them in two runs",
        ));
    }
    let bytes = super::read_input(std::path::Path::new("-"), "definition")?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::usage(format!(
            "the definition on standard input is not UTF-8 (byte {}); convert it to UTF-8",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let name = args
        .stdin_filename
        .as_ref()
        .map_or_else(|| "<stdin>".to_owned(), |p| p.display().to_string());
    let settings = if let Some(settings) = &config.settings {
        Arc::clone(settings)
    } else {
        let near = args
            .stdin_filename
            .as_deref()
            .unwrap_or_else(|| std::path::Path::new("-"));
        Arc::new(super::settings_for(near, None)?)
    };
    let settings = match config.scope {
        Some(scope) => Arc::new(RuleSettings::clone(&settings).with_scope(scope)),
        None => settings,
    };
    let file = lint_text(&name, &text, &settings);
    let mut report = LintReport {
        files: vec![file],
        errors: Vec::new(),
    };
    if let Some(path) = &config.ignore_file {
        ignore_file::apply_to(&mut report, path, &settings);
    }
    Ok(report)
}

/// `--generate-ignore-file`: writes the findings of `report` to `path` and says so; a run that
/// could not lint every path writes nothing (the file would silently lack their findings).
fn generate_ignore_file(report: &LintReport, path: &Path) -> Result<ExitCode, Failure> {
    if !report.errors.is_empty() {
        for error in &report.errors {
            eprintln!("syncdef: {error}");
        }
        return Err(Failure::usage(format!(
            "{} not written: fix the paths that could not be linted first",
            path.display()
        )));
    }
    let written = generate::write(report, path).map_err(|e| Failure::usage(e.to_string()))?;
    println!(
        "Wrote {} suppressing {} in {} to {}.",
        plural(written.pointers, "JSON pointer", "JSON pointers"),
        plural(written.findings, "finding", "findings"),
        plural(written.files, "file", "files"),
        path.display()
    );
    if written.left > 0 {
        eprintln!(
            "syncdef: {} cannot be suppressed and will still be reported (a file that could not be read as a definition, or a finding about suppressions)",
            plural(written.left, "finding", "findings")
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The `--scope` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ScopeArg {
    /// Findings in the parts of the description the synchronization uses.
    Used,
    /// Every finding.
    All,
}

impl From<ScopeArg> for Scope {
    fn from(arg: ScopeArg) -> Scope {
        match arg {
            ScopeArg::Used => Scope::Used,
            ScopeArg::All => Scope::All,
        }
    }
}

/// The `--fail-severity` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FailSeverity {
    /// Errors fail the run.
    Error,
    /// Warnings and errors fail the run.
    Warning,
    /// Every finding fails the run.
    Info,
    /// Nothing fails the run; findings are reported only.
    None,
}

impl FailSeverity {
    fn severity(self) -> Option<Severity> {
        match self {
            FailSeverity::Error => Some(Severity::Error),
            FailSeverity::Warning => Some(Severity::Warning),
            FailSeverity::Info => Some(Severity::Info),
            FailSeverity::None => None,
        }
    }
}

/// A `--format` value: the library's formats, listed for clap from `OutputFormat::ALL` (names
/// and help come from the library, so a new format needs no change here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Format(OutputFormat);

const FORMATS: [Format; OutputFormat::ALL.len()] = {
    let mut out = [Format(OutputFormat::Human); OutputFormat::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = Format(OutputFormat::ALL[i]);
        i += 1;
    }
    out
};

impl clap::ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &FORMATS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.summary()))
    }
}

pub fn run(args: &LintArgs) -> Result<ExitCode, Failure> {
    let result = lint(args);
    if args.format.0 == OutputFormat::Sarif {
        return super::lint_sarif::with_failed_log(result);
    }
    result
}

fn lint(args: &LintArgs) -> Result<ExitCode, Failure> {
    let settings = match &args.config {
        Some(path) => Some(Arc::new(
            RuleSettings::load(path).map_err(|e| Failure::usage(e.to_string()))?,
        )),
        None => None,
    };
    let mut config = Config {
        settings,
        jobs: args.jobs,
        scope: args.scope.map(Scope::from),
        ..Config::default()
    };
    if !args.sample.is_empty() {
        crate::conventions::deprecated("--sample ENTRY=FILE", "use `--record ENTRY=FILE`");
    }
    for (entry, file) in args.record.iter().chain(&args.sample) {
        config.add_sample(entry, file).map_err(Failure::usage)?;
    }
    for (entry, id) in &args.related {
        config.add_related(entry, id);
    }
    let ignore_file = ignore_file::locate(args.ignore_file.as_deref(), args.config.as_deref());
    // An ignore file named on the command line must exist; the default one is optional. The
    // one being generated is not applied: it is written again from the definitions.
    if !args.generate_ignore_file && (args.ignore_file.is_some() || ignore_file.is_file()) {
        config.ignore_file = Some(ignore_file.clone());
    }
    let stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
    if stdin && args.generate_ignore_file {
        return Err(Failure::usage(
            "--generate-ignore-file needs the definitions as files: the ignore file lists them by path",
        ));
    }
    let report = if stdin {
        lint_stdin(args, &config)?
    } else {
        crate::progress::lint_paths(&args.paths, &config)
    };
    if args.generate_ignore_file {
        return generate_ignore_file(&report, &ignore_file);
    }
    let format = args.format.0;
    let options = RenderOptions {
        color: crate::conventions::color().for_stdout(),
        summary: !crate::logging::quiet(),
        show_infos: args.show_infos || crate::logging::verbose(),
        sarif: super::lint_sarif::options(format, &report, config.settings.as_deref()),
        ..RenderOptions::default()
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    write_report(&mut out, &report, format, &options).map_err(|e| output_error(&e))?;
    out.flush().map_err(|e| output_error(&e))?;
    // The human report lists unreadable paths itself; machine formats keep stdout parseable
    // and say it on stderr.
    if format != OutputFormat::Human {
        for error in &report.errors {
            eprintln!("syncdef: {error}");
        }
    }
    let fail = match (args.fail_severity, args.deny_warnings) {
        (Some(chosen), _) => chosen.severity(),
        (None, true) => Some(Severity::Warning),
        (None, false) => Some(Severity::Error),
    };
    let code = report.exit_code_at(fail);
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(2)))
}
