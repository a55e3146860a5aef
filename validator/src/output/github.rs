//! GitHub Actions workflow commands: each diagnostic becomes an annotation on the pull request.
//!
//! `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=SD202::message`
//!
//! An annotation has one place: the other places that explain a finding (the human format's
//! labels) are lines of its message, `line 11, column 7: in this operation`, before the help.
//!
//! Findings set apart because they are in parts of the description no entry uses are counted
//! in one `::notice::` after the annotations.
//!
//! Escaping follows the runner's rules (actions/toolkit `command.ts`): in the message `%`, `\r`
//! and `\n` are percent-encoded; in property values `:` and `,` are too, since they delimit
//! properties.

use std::fmt::Write;

use crate::diagnostic::Severity;
use crate::report::LintReport;

/// The report as workflow commands, one line per diagnostic, then the count of findings
/// outside the scope.
#[must_use]
pub fn render(report: &LintReport) -> String {
    let mut out = String::new();
    for d in report.diagnostics() {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let location = d.location();
        let mut message = d.message.clone();
        for label in &d.labels {
            let at = d.file.line_col(label.span.start);
            let file = d.file_name_at(label.span);
            if file == d.file_name() {
                let _ = write!(
                    message,
                    "\nline {}, column {}: {}",
                    at.line, at.column, label.message
                );
            } else {
                let _ = write!(
                    message,
                    "\n{file}, line {}, column {}: {}",
                    at.line, at.column, label.message
                );
            }
        }
        if let Some(help) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        let _ = writeln!(
            out,
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
            escape_property(&workspace_relative(d.file_name())),
            location.start.line,
            location.start.column,
            location.end.line,
            location.end.column,
            escape_property(d.code()),
            escape_data(&message),
        );
    }
    if let Some(note) = super::outside_scope_note(report) {
        let _ = writeln!(out, "::notice::{}", escape_data(&note));
    }
    out
}

/// GitHub resolves `file=` against the repository root, where CI runs: an absolute path under
/// the current directory is made relative to it.
fn workspace_relative(name: &str) -> String {
    let path = std::path::Path::new(name);
    if path.is_absolute()
        && let Some(relative) = std::env::current_dir()
            .ok()
            .and_then(|cwd| path.strip_prefix(cwd).ok().map(std::path::Path::to_owned))
    {
        return relative.to_string_lossy().replace('\\', "/");
    }
    name.trim_start_matches("./").to_owned()
}

/// Escapes a command's message.
#[must_use]
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (`file=`, `title=`).
#[must_use]
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_the_runner() {
        assert_eq!(escape_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(escape_property("C:\\a,b.yaml"), "C%3A\\a%2Cb.yaml");
    }
}
