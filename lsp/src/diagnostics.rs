//! The findings of `syncdef lint` as LSP diagnostics: the validator's public lint of one text
//! (`lint_source`, under the `lint_text` that `syncdef lint -` calls), with the
//! `syncdef.toml` found as the CLI finds it.

use std::path::Path;

use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Position, Range, Url,
};
use serde::{Deserialize, Serialize};
use syncdef_definitions::{Definition, SourceFile};
use syncdef_validator::suppress::ignore_file;
use syncdef_validator::{LintReport, RuleSettings, Severity, lint_source};

use crate::document::Document;

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

/// Lints `doc` as `syncdef lint` lints its file: same rules, severities, `syncdef.toml` (the
/// nearest at or above the file's directory; from the current directory for a document that
/// is not a file), `x-syncdef-ignore` suppressions and ignore file (`.syncdef-ignore.yaml`
/// beside that `syncdef.toml`, else where `syncdef lint` looks from the current directory).
///
/// Also hands back the definition the lint loaded from the text (shared, not copied), for the
/// editor features: one load per version serves both.
#[must_use]
pub fn lint(doc: &Document) -> (Vec<Diagnostic>, Option<Definition>) {
    let settings = match settings_for(&doc.uri) {
        Ok(settings) => settings,
        Err(message) => return (vec![not_linted(&message, "fix syncdef.toml")], None),
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
    let findings = report
        .files
        .iter()
        .filter(|f| f.source.name() == name)
        .flat_map(|f| f.diagnostics.iter())
        .map(|finding| convert(doc, finding));
    (unusable.chain(findings).collect(), definition)
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

/// One finding, located in `doc`'s text (the text that was linted).
fn convert(doc: &Document, finding: &syncdef_validator::Diagnostic) -> Diagnostic {
    let text = doc.text();
    let lines = doc.lines();
    let range = lines.range(text, finding.span.start as usize, finding.span.end as usize);
    let related: Vec<DiagnosticRelatedInformation> = finding
        .labels
        .iter()
        .map(|label| DiagnosticRelatedInformation {
            location: Location::new(
                doc.uri.clone(),
                lines.range(text, label.span.start as usize, label.span.end as usize),
            ),
            message: label.message.clone(),
        })
        .collect();
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
        let (_, definition) = lint(&doc);
        let definition = definition.expect("the text loads");
        assert_eq!(definition.source.text(), text);
        assert_eq!(definition.source.text().as_ptr(), doc.text().as_ptr());
    }
}
