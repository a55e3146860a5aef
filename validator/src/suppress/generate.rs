//! `syncdef lint --generate-ignore-file`: the findings of a run, written as the ignore file that
//! silences each of them (see [`super::ignore_file`]).
//!
//! The run that generates is linted without the old ignore file (its findings are written again
//! from the definitions, and stale entries drop out) but with `x-syncdef-ignore`, whose findings
//! need no entry. Findings without a JSON pointer (a file that could not be read as a
//! definition) and findings about suppressions cannot be listed: they stay reported.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use super::relative::relative;
use crate::report::{LintError, LintReport};

/// An ignore file written from a report, and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The file's text.
    pub text: String,
    /// JSON pointers listed (one silences every finding of its rule at its node).
    pub pointers: usize,
    /// Findings they silence.
    pub findings: usize,
    /// Linted files with at least one of them.
    pub files: usize,
    /// Findings that could not be listed.
    pub left: usize,
}

/// The header of every generated file.
const HEADER: &str = "\
# Findings `syncdef lint` does not report: linted file (relative to this file), rule code, then
# the JSON pointers of the findings, each silenced at exactly that node.
# Written by `syncdef lint --generate-ignore-file`; see docs/configuration.md, \"Suppressing findings\".
";

/// The ignore file at `path` that silences every finding of `report` it can.
#[must_use]
pub fn generate(report: &LintReport, path: &Path) -> Generated {
    let dir = path.parent().unwrap_or_else(|| Path::new(""));
    // Files, codes and pointers in a stable order: files and codes sorted, pointers in document
    // order (the report is sorted by position), so regenerating gives a small diff.
    let mut listed: BTreeMap<String, BTreeMap<&str, Vec<&str>>> = BTreeMap::new();
    let (mut findings, mut left) = (0, 0);
    for d in report.diagnostics() {
        let Some(pointer) = d.pointer.as_deref().filter(|_| super::suppressible(d.rule)) else {
            left += 1;
            continue;
        };
        findings += 1;
        let file = relative(Path::new(d.file.name()), dir);
        let pointers = listed.entry(file).or_default().entry(d.code()).or_default();
        if !pointers.contains(&pointer) {
            pointers.push(pointer);
        }
    }
    let mut text = String::from(HEADER);
    if listed.is_empty() {
        text.push_str("{}\n");
    }
    let mut pointers = 0;
    for (file, codes) in &listed {
        let _ = writeln!(text, "{}:", quote(file));
        for (code, list) in codes {
            let _ = writeln!(text, "  {code}:");
            for pointer in list {
                let _ = writeln!(text, "    - {}", quote(&format!("#{pointer}")));
                pointers += 1;
            }
        }
    }
    Generated {
        text,
        pointers,
        findings,
        files: listed.len(),
        left,
    }
}

/// [`generate`], written to `path`.
///
/// # Errors
/// The file cannot be written; the message says why.
pub fn write(report: &LintReport, path: &Path) -> Result<Generated, LintError> {
    let generated = generate(report, path);
    std::fs::write(path, &generated.text).map_err(|e| LintError {
        path: path.to_owned(),
        message: format!("cannot write the ignore file: {e}; check that its directory exists and is writable, or name another with --ignore-file"),
    })?;
    Ok(generated)
}

/// A YAML scalar for `text`: single-quoted (only `'` needs escaping there), or JSON-quoted when
/// it holds control characters, which single quotes would fold.
fn quote(text: &str) -> String {
    if text.chars().any(char::is_control) {
        serde_json::to_string(text).unwrap_or_default()
    } else {
        format!("'{}'", text.replace('\'', "''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_keep_every_character() {
        assert_eq!(quote("#/paths/~1it's"), "'#/paths/~1it''s'");
        assert_eq!(quote("a\nb"), "\"a\\nb\"");
    }
}
