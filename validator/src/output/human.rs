//! The human format: miette's graphical report with the source snippet, then a summary line.

use std::fmt::Write;

use miette::{GraphicalReportHandler, GraphicalTheme};

use super::RenderOptions;
use crate::report::LintReport;

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
    for d in report.diagnostics() {
        if !out.is_empty() {
            out.push('\n');
        }
        if handler.render_report(&mut out, d).is_err() {
            // miette fails only when a span lies outside the text; fall back to a plain line
            // rather than lose the finding.
            let loc = d.location();
            let _ = writeln!(
                out,
                "{}:{}:{}: {}[{}]: {}",
                d.file.name(),
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
    out.push_str(&summary_line(report));
    out
}

/// "Found 2 errors and 1 warning in 3 files." or "No problems found in 3 files."
#[must_use]
pub fn summary_line(report: &LintReport) -> String {
    let s = report.summary();
    let files = plural(s.files, "file", "files");
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
    if parts.is_empty() {
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
