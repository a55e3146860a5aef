//! Output formats, one file each. Every renderer takes the same [`LintReport`].

use std::io::{self, Write};

use crate::report::LintReport;

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

/// How a report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputFormat {
    /// miette's graphical report: source snippet, code, help and docs link, then a summary.
    Human,
    /// One JSON object: `{"diagnostics": [...], "summary": {...}}`, 1-based lines and columns.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...`), shown as annotations on the diff.
    Github,
}

impl OutputFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [OutputFormat; 4] = [
        OutputFormat::Human,
        OutputFormat::Json,
        OutputFormat::Sarif,
        OutputFormat::Github,
    ];

    /// What the format is, in a line (`syncdef lint --help` shows it).
    #[must_use]
    pub const fn summary(self) -> &'static str {
        match self {
            OutputFormat::Human => "Graphical report with source snippets, codes and help",
            OutputFormat::Json => "One JSON object with every diagnostic and a summary",
            OutputFormat::Sarif => "SARIF 2.1.0, for GitHub code scanning",
            OutputFormat::Github => "GitHub Actions workflow commands (annotations on the diff)",
        }
    }

    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OutputFormat::Human => "human",
            OutputFormat::Json => "json",
            OutputFormat::Sarif => "sarif",
            OutputFormat::Github => "github",
        }
    }
}

impl std::str::FromStr for OutputFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OutputFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = OutputFormat::ALL.iter().map(|f| f.name()).collect();
                format!("unknown format {s:?}: expected one of {}", names.join(", "))
            })
    }
}

/// Options the renderers share.
#[derive(Clone, Debug)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches of the human renderer, each set from its own flag; no two of them form a state machine an enum would name"
)]
pub struct RenderOptions {
    /// Use ANSI colors (human format only). The CLI decides from `--color` and `NO_COLOR`.
    pub color: bool,
    /// Terminal width for wrapping (human format only).
    pub width: usize,
    /// Print the docs link under each diagnostic (human format only).
    pub links: bool,
    /// End with the summary line ("Found 2 errors in 1 file."; human format only).
    pub summary: bool,
    /// Print info findings, not only count them (human format only; the machine formats
    /// always carry every finding).
    pub show_infos: bool,
    /// The source root and the configured rules (SARIF only).
    pub sarif: sarif::SarifOptions,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            color: false,
            width: 100,
            links: true,
            summary: true,
            show_infos: true,
            sarif: sarif::SarifOptions::default(),
        }
    }
}

/// Writes `report` to `out` in `format`.
///
/// # Errors
/// Writing to `out` failed.
pub fn write_report(
    out: &mut dyn Write,
    report: &LintReport,
    format: OutputFormat,
    options: &RenderOptions,
) -> io::Result<()> {
    match format {
        OutputFormat::Human => out.write_all(human::render(report, options).as_bytes()),
        OutputFormat::Json => {
            out.write_all(json::to_string(report).as_bytes())?;
            out.write_all(b"\n")
        }
        OutputFormat::Sarif => {
            serde_json::to_writer_pretty(&mut *out, &sarif::to_value_with(report, &options.sarif))?;
            out.write_all(b"\n")
        }
        OutputFormat::Github => out.write_all(github::render(report).as_bytes()),
    }
}

/// What every format says when findings were set apart because they are in parts of the
/// description no entry uses (see [`crate::scope`]): "12 findings in parts of the description
/// no entry uses; `--scope all` shows them". `None` when there are none.
#[must_use]
pub fn outside_scope_note(report: &LintReport) -> Option<String> {
    match report.summary().outside_scope {
        0 => None,
        1 => Some(
            "1 finding in a part of the description no entry uses; `--scope all` shows it"
                .to_owned(),
        ),
        n => Some(format!(
            "{n} findings in parts of the description no entry uses; `--scope all` shows them"
        )),
    }
}

/// `report` rendered in `format` as a string.
#[must_use]
pub fn render(report: &LintReport, format: OutputFormat, options: &RenderOptions) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write_report(&mut out, report, format, options);
    String::from_utf8_lossy(&out).into_owned()
}
