//! The human format: miette's graphical report with the source snippet, then a summary line,
//! and a line counting the findings outside the scope when there are some. Info findings are
//! counted in the summary and printed only when asked (`RenderOptions::show_infos`): they say
//! nothing needs to change.

use std::fmt::{self, Write};

use miette::{GraphicalReportHandler, GraphicalTheme};

use super::RenderOptions;
use crate::diagnostic::{Diagnostic, Severity};
use crate::report::LintReport;

/// Longest source line shown as a snippet. Minified JSON keeps a whole document on one line: a
/// snippet of it would print megabytes (and miette's layout arithmetic does not survive lines
/// of that size), so such findings name their position instead.
const MAX_SNIPPET_LINE: usize = 400;

/// The report as people read it in a terminal.
#[must_use]
pub fn render(report: &LintReport, options: &RenderOptions) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_links(false)
        .with_urls(options.links)
        .with_context_lines(1);
    let mut out = String::new();
    let shown = report
        .diagnostics()
        .filter(|d| options.show_infos || d.severity != Severity::Info);
    for d in shown {
        if !out.is_empty() {
            out.push('\n');
        }
        let rendered = if spans_long_line(d) {
            handler.render_report(&mut out, &WithoutSnippet(d))
        } else {
            handler.render_report(&mut out, d)
        };
        if rendered.is_err() {
            // miette fails only when a span lies outside the text; fall back to a plain line
            // rather than lose the finding.
            let loc = d.location();
            let _ = writeln!(
                out,
                "{}:{}:{}: {}[{}]: {}",
                d.file_name(),
                loc.start.line,
                loc.start.column,
                d.severity,
                d.code(),
                d.message
            );
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    for error in &report.errors {
        let _ = writeln!(out, "error: {error}");
    }
    if options.summary {
        out.push_str(&summary_line(report));
        let hidden = report.summary().infos;
        if hidden > 0 && !options.show_infos {
            let what = if hidden == 1 {
                "The info is"
            } else {
                "The infos are"
            };
            let _ = writeln!(
                out,
                "{what} not shown: `--show-infos` (or `-v`) prints them."
            );
        }
        if let Some(note) = super::outside_scope_note(report) {
            out.push_str(&note);
            out.push('\n');
        }
    }
    out
}

/// "Found 2 errors and 1 warning in 3 files.", "Found 1 info in 1 of 4 files." (the findings'
/// files when they are not all the files linted) or "No problems found in 3 files.", with
/// " (4 suppressed)" before the period when suppressions silenced findings.
#[must_use]
pub fn summary_line(report: &LintReport) -> String {
    let s = report.summary();
    let mut files = plural(s.files, "file", "files");
    if (1..s.files).contains(&s.files_with_findings) {
        files = format!("{} of {files}", s.files_with_findings);
    }
    if s.suppressed > 0 {
        files.push_str(&format!(" ({} suppressed)", s.suppressed));
    }
    let mut parts = Vec::new();
    if s.errors > 0 {
        parts.push(plural(s.errors, "error", "errors"));
    }
    if s.warnings > 0 {
        parts.push(plural(s.warnings, "warning", "warnings"));
    }
    if s.infos > 0 {
        parts.push(plural(s.infos, "info", "infos"));
    }
    let unread = report.errors.len();
    if parts.is_empty() && unread > 0 {
        // "No problems" would read as a clean run: the run failed.
        format!(
            "{} could not be linted; {files} linted without findings.\n",
            plural(unread, "path", "paths")
        )
    } else if parts.is_empty() {
        format!("No problems found in {files}.\n")
    } else {
        format!("Found {} in {files}.\n", join_and(&parts))
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Whether a span of `d` sits on a line too long to show.
fn spans_long_line(d: &Diagnostic) -> bool {
    let text = d.file.text().as_bytes();
    std::iter::once(d.span)
        .chain(d.labels.iter().map(|l| l.span))
        .any(|span| {
            let start = (span.start as usize).min(text.len());
            let end = (span.end as usize).clamp(start, text.len());
            // Only as far as the limit in each direction: a 13 MB line is not scanned whole.
            let before = text[..start]
                .iter()
                .rev()
                .take(MAX_SNIPPET_LINE + 1)
                .take_while(|b| **b != b'\n')
                .count();
            let after = text[end..]
                .iter()
                .take(MAX_SNIPPET_LINE + 1)
                .take_while(|b| **b != b'\n')
                .count();
            before + (end - start).min(MAX_SNIPPET_LINE + 1) + after > MAX_SNIPPET_LINE
        })
}

/// A diagnostic shown without its snippet: the position goes into the message instead.
struct WithoutSnippet<'a>(&'a Diagnostic);

impl fmt::Debug for WithoutSnippet<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Display for WithoutSnippet<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let loc = self.0.location();
        write!(
            f,
            "{}\n  at {}:{}:{}",
            self.0.message,
            self.0.file_name(),
            loc.start.line,
            loc.start.column
        )?;
        if let Some(pointer) = &self.0.pointer {
            write!(f, " ({pointer})")?;
        }
        Ok(())
    }
}

impl std::error::Error for WithoutSnippet<'_> {}

impl miette::Diagnostic for WithoutSnippet<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        miette::Diagnostic::code(self.0)
    }

    fn severity(&self) -> Option<miette::Severity> {
        miette::Diagnostic::severity(self.0)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        miette::Diagnostic::help(self.0)
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        miette::Diagnostic::url(self.0)
    }
}
