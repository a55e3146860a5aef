//! Turns the loader's refusals into diagnostics with codes, so `syncdef.toml`, SARIF and the
//! docs treat them like every other finding.

use std::path::Path;
use std::sync::Arc;

use syncdef_definitions::{LoadError, LoadErrorKind, Span};

use crate::codes::Rule;
use crate::config::RuleSettings;
use crate::diagnostic::Diagnostic;

/// The rule a load error is reported under.
#[must_use]
pub fn rule_for(kind: LoadErrorKind) -> Rule {
    match kind {
        LoadErrorKind::DuplicateKey => Rule::DuplicateKey,
        LoadErrorKind::AliasBomb => Rule::AliasBomb,
        LoadErrorKind::TooDeep => Rule::ExcessiveNesting,
        LoadErrorKind::InvalidUtf8 => Rule::NonUtf8Input,
        LoadErrorKind::TooLarge => Rule::FileTooLarge,
        LoadErrorKind::Overlay => Rule::InvalidOverlay,
        // Syntax, empty or multi-document streams, non-string keys, unknown anchors, and kinds
        // added later: the text is not one readable document.
        _ => Rule::InvalidSyntax,
    }
}

/// The diagnostics for a file the loader refused (none when its rule is off for `path`).
///
/// A refused file has no tree, so nothing else can be checked: this is the only finding.
#[must_use]
pub fn diagnostics(error: &LoadError, settings: &RuleSettings, path: &Path) -> Vec<Diagnostic> {
    let rule = rule_for(error.kind);
    let Some(severity) = settings.severity(rule, path) else {
        return Vec::new();
    };
    let span = error.span.unwrap_or(Span::empty(0));
    let mut d = Diagnostic::new(rule, Arc::clone(&error.source), span, error.message.clone())
        .with_optional_help(error.help.clone());
    d.severity = severity;
    for related in &error.related {
        d = d.with_label(related.span, related.message.clone());
    }
    vec![d]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every loader refusal has a code; a 4 GiB file (SD111) cannot be a fixture, so the
    /// mapping itself is checked here.
    #[test]
    fn each_kind_maps_to_its_rule() {
        let cases = [
            (LoadErrorKind::Syntax, Rule::InvalidSyntax),
            (LoadErrorKind::EmptyDocument, Rule::InvalidSyntax),
            (LoadErrorKind::MultipleDocuments, Rule::InvalidSyntax),
            (LoadErrorKind::NonStringKey, Rule::InvalidSyntax),
            (LoadErrorKind::UnknownAnchor, Rule::InvalidSyntax),
            (LoadErrorKind::DuplicateKey, Rule::DuplicateKey),
            (LoadErrorKind::AliasBomb, Rule::AliasBomb),
            (LoadErrorKind::TooDeep, Rule::ExcessiveNesting),
            (LoadErrorKind::InvalidUtf8, Rule::NonUtf8Input),
            (LoadErrorKind::TooLarge, Rule::FileTooLarge),
            (LoadErrorKind::Overlay, Rule::InvalidOverlay),
        ];
        for (kind, rule) in cases {
            assert_eq!(rule_for(kind), rule, "{kind:?}");
        }
    }

    #[test]
    fn an_off_rule_hides_the_load_error() {
        let source = Arc::new(syncdef_definitions::SourceFile::new("a.yaml", "a: [\n"));
        let error = syncdef_definitions::load(Arc::clone(&source)).expect_err("invalid YAML");
        let settings = RuleSettings::parse("ignore = [\"SD100\"]\n", Path::new("syncdef.toml"))
            .expect("valid");
        assert!(diagnostics(&error, &settings, Path::new("a.yaml")).is_empty());
        assert_eq!(
            diagnostics(&error, &RuleSettings::default(), Path::new("a.yaml")).len(),
            1
        );
    }
}
