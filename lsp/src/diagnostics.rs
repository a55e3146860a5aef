//! The findings of `syncdef lint` as LSP diagnostics: the validator's public lint of one text
//! (`lint_source`, under the `lint_text` that `syncdef lint -` calls), with the
//! `syncdef.toml` found as the CLI finds it.

use std::path::Path;

use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Position, Range, Url,
};
use serde::{Deserialize, Serialize};
use syncdef_definitions::{Definition, SourceFile, Span};
use syncdef_validator::suppress::ignore_file;
use syncdef_validator::{LintReport, RuleSettings, Severity, lint_source};

use crate::document::Document;
use crate::position::LineMap;

/// The diagnostics' `source`.
pub const SOURCE: &str = "syncdef";

/// What a diagnostic carries for the code actions (its `data`).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FindingData {
    /// The validator's help text (where a did-you-mean is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// JSON pointer of the node at fault, where an `x-syncdef-ignore` can silence it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
}

/// What a lint of one document publishes.
pub struct Linted {
    /// The findings in the document.
    pub findings: Vec<Diagnostic>,
    /// The findings in the other files of a definition written as an overlay (the vendor's
    /// description it extends), by file: an editor shows them on those files.
    pub elsewhere: Vec<(Url, Vec<Diagnostic>)>,
    /// The definition the lint loaded from the text, for the editor features.
    pub definition: Option<Definition>,
}

/// Lints `doc` as `syncdef lint` lints its file: same rules, severities, `syncdef.toml` (the
/// nearest at or above the file's directory; from the current directory for a document that
/// is not a file), `x-syncdef-ignore` suppressions and ignore file (`.syncdef-ignore.yaml`
/// beside that `syncdef.toml`, else where `syncdef lint` looks from the current directory),
/// and scope: findings in parts of the description no entry uses are not published unless
/// that `syncdef.toml` says `scope = "all"`, so the editor shows what CI fails on.
///
/// Also hands back the definition the lint loaded from the text (shared, not copied), for the
/// editor features: one load per version serves both.
#[must_use]
pub fn lint(doc: &Document) -> Linted {
    let settings = match settings_for(&doc.uri) {
        Ok(settings) => settings,
        Err(message) => {
            return Linted {
                findings: vec![not_linted(&message, "fix syncdef.toml")],
                elsewhere: Vec::new(),
                definition: None,
            };
        }
    };
    let name = doc.lint_name();
    let (file, definition) = lint_source(SourceFile::shared(&*name, doc.shared_text()), &settings);
    let mut report = LintReport {
        files: vec![file],
        errors: Vec::new(),
    };
    let ignore = ignore_file::locate(None, settings.path());
    if ignore.is_file() {
        ignore_file::apply_to(&mut report, &ignore, &settings);
    }
    let unusable = report
        .errors
        .iter()
        .map(|e| not_linted(&e.to_string(), "fix the ignore file"));
    let mut findings: Vec<Diagnostic> = unusable.collect();
    let mut elsewhere: Vec<(Url, Vec<Diagnostic>)> = Vec::new();
    for file in report.files.iter().filter(|f| f.source.name() == name) {
        let places = Places::new(doc);
        for finding in &file.diagnostics {
            let Some((uri, converted)) = places.convert(finding) else {
                continue;
            };
            if uri == doc.uri {
                findings.push(converted);
            } else if let Some((_, list)) = elsewhere.iter_mut().find(|(u, _)| *u == uri) {
                list.push(converted);
            } else {
                elsewhere.push((uri, vec![converted]));
            }
        }
    }
    Linted {
        findings,
        elsewhere,
        definition,
    }
}

/// Where the spans of a linted source are for the editor: in the document for the first file
/// (the document's own text), else in the file of the source holding them (a definition
/// written as an overlay joins the files it extends), by that file's URI.
struct Places<'a> {
    doc: &'a Document,
    /// The line maps of the other files, made when a finding is in them.
    others: std::cell::RefCell<Vec<(usize, LineMap)>>,
}

impl<'a> Places<'a> {
    fn new(doc: &'a Document) -> Self {
        Places {
            doc,
            others: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// The URI and range of `span` of `source`; `None` for a file that has no URI.
    fn locate(&self, source: &SourceFile, span: Span) -> Option<(Url, Range)> {
        let file = source.file_at(span.start);
        if file.index == 0 {
            let (text, lines) = (self.doc.text(), self.doc.lines());
            let range = lines.range(text, span.start as usize, span.end as usize);
            return Some((self.doc.uri.clone(), range));
        }
        let uri = Url::from_file_path(file.name).ok()?;
        let local = file.local(span);
        let mut others = self.others.borrow_mut();
        let at = if let Some(at) = others.iter().position(|(i, _)| *i == file.index) {
            at
        } else {
            others.push((file.index, LineMap::new(file.text)));
            others.len() - 1
        };
        let range = others[at]
            .1
            .range(file.text, local.start as usize, local.end as usize);
        Some((uri, range))
    }

    /// One finding, located where it is written, with the URI of its file.
    fn convert(&self, finding: &syncdef_validator::Diagnostic) -> Option<(Url, Diagnostic)> {
        let (uri, range) = self.locate(&finding.file, finding.span)?;
        let related: Vec<DiagnosticRelatedInformation> = finding
            .labels
            .iter()
            .filter_map(|label| {
                let (uri, range) = self.locate(&finding.file, label.span)?;
                Some(DiagnosticRelatedInformation {
                    location: Location::new(uri, range),
                    message: label.message.clone(),
                })
            })
            .collect();
        Some((uri, diagnostic(finding, range, related)))
    }
}

/// The settings `syncdef lint` would use for the file at `uri`.
fn settings_for(uri: &Url) -> Result<RuleSettings, String> {
    let found = match uri.to_file_path() {
        Ok(path) => RuleSettings::discover(&path),
        Err(()) => RuleSettings::discover(Path::new(".")),
    };
    found
        .map(Option::unwrap_or_default)
        .map_err(|e| e.to_string())
}

/// A configuration file `syncdef lint` cannot use (it stops with exit code 2): the editor
/// shows why at the top of the file (for an invalid `syncdef.toml`, instead of findings the
/// CLI would not report).
fn not_linted(message: &str, what_to_do: &str) -> Diagnostic {
    Diagnostic {
        range: Range::new(Position::new(0, 0), Position::new(0, 0)),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some(SOURCE.to_owned()),
        message: format!(
            "syncdef lint cannot run: {message}; {what_to_do} (then edit this file again)"
        ),
        ..Diagnostic::default()
    }
}

/// The editor's diagnostic of `finding`, at `range`.
fn diagnostic(
    finding: &syncdef_validator::Diagnostic,
    range: Range,
    related: Vec<DiagnosticRelatedInformation>,
) -> Diagnostic {
    let mut message = finding.message.clone();
    if let Some(help) = &finding.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let data = FindingData {
        help: finding.help.clone(),
        pointer: finding.pointer.clone(),
    };
    Diagnostic {
        range,
        severity: Some(severity(finding.severity)),
        code: Some(NumberOrString::String(finding.code().to_owned())),
        code_description: Url::parse(&finding.url())
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: serde_json::to_value(data).ok(),
    }
}

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The editor's text is held once: the definition the lint hands to the features reads
    /// the same bytes, not a copy (a 13 MB description would otherwise be held twice more).
    #[test]
    fn the_linted_definition_shares_the_editors_text() {
        let text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n";
        let doc = Document::new(
            Url::parse("untitled:shared").expect("a valid URI"),
            1,
            "yaml".to_owned(),
            text.to_owned(),
        );
        let definition = lint(&doc).definition.expect("the text loads");
        assert_eq!(definition.source.text(), text);
        assert_eq!(definition.source.text().as_ptr(), doc.text().as_ptr());
    }
}
