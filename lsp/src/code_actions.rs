//! Quick fixes: apply a finding's did-you-mean, write the template a finding asks for
//! ([`crate::template_fixes`]), or silence the finding where it is with the `x-syncdef-ignore`
//! the validator reads.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, NumberOrString, TextEdit,
    WorkspaceEdit,
};

use crate::analysis;
use crate::diagnostics::{FindingData, SOURCE};
use crate::document::Document;
use crate::suppression;
use crate::template_fixes;

/// The quick fixes of the findings the client sends (those of the requested range).
#[must_use]
pub fn code_actions(doc: &Document, findings: &[Diagnostic]) -> Vec<CodeActionOrCommand> {
    let def = analysis::current(doc);
    let mut out = Vec::new();
    for finding in findings
        .iter()
        .filter(|d| d.source.as_deref() == Some(SOURCE))
    {
        let Some(NumberOrString::String(code)) = &finding.code else {
            continue;
        };
        let data: FindingData = finding
            .data
            .clone()
            .and_then(|d| serde_json::from_value(d).ok())
            .unwrap_or_default();
        if let Some(fix) = did_you_mean(doc, finding, code, data.help.as_deref()) {
            out.push(fix);
        }
        if let (Some(def), Some(pointer)) = (&def, &data.pointer)
            && let Some((title, edit)) =
                template_fixes::fix(doc, def, code, pointer, data.help.as_deref())
        {
            out.push(action(
                format!("{title} ({code})"),
                doc,
                finding,
                edit,
                true,
            ));
        }
        let suppress = match (&def, &data.pointer) {
            (Some(def), Some(pointer)) => suppression::insert(doc, def, pointer, code),
            _ => None,
        };
        if let Some(edit) = suppress {
            let title = format!("Suppress {code} here (x-syncdef-ignore)");
            out.push(action(title, doc, finding, edit, false));
        }
    }
    out
}

/// Replaces the finding's text with its suggestion (`did you mean `X`?`), keeping the quotes
/// of a quoted value.
fn did_you_mean(
    doc: &Document,
    finding: &Diagnostic,
    code: &str,
    help: Option<&str>,
) -> Option<CodeActionOrCommand> {
    let help = help?;
    let start = help.find("did you mean `")? + "did you mean `".len();
    let suggestion = &help[start..start + help[start..].find('`')?];
    let text = doc.text();
    let from = doc.lines().offset(text, finding.range.start);
    let to = doc.lines().offset(text, finding.range.end);
    // A finding the client kept from an older text may name a range that is now reversed.
    let current = text.get(from..to)?;
    let quote = current.chars().next().filter(|q| matches!(q, '"' | '\''));
    let new_text = match quote {
        Some(q) if current.len() >= 2 && current.ends_with(q) && !suggestion.starts_with(q) => {
            format!("{q}{suggestion}{q}")
        }
        _ => suggestion.to_owned(),
    };
    if new_text == current {
        return None;
    }
    let edit = TextEdit {
        range: finding.range,
        new_text,
    };
    Some(action(
        format!("Change to `{suggestion}` ({code})"),
        doc,
        finding,
        edit,
        true,
    ))
}

fn action(
    title: String,
    doc: &Document,
    finding: &Diagnostic,
    edit: TextEdit,
    preferred: bool,
) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![finding.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(doc.uri.clone(), vec![edit])])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(preferred),
        ..CodeAction::default()
    })
}
