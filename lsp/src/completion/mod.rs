//! Completion: what may be typed at the cursor, from what the line before it says.
//!
//! The context is read from the text (the line may not parse while it is typed); the
//! candidates come from the definition (its paths, entries and server variables, from the
//! last text that loaded: [`crate::vocabulary`]) and from the domain tables the validator checks against (template
//! functions, platform record schemas, modules, rule codes).

mod context;
mod sources;

use lsp_types::{
    CompletionItem, CompletionResponse, CompletionTextEdit, Position, Range, TextEdit,
};

use crate::analysis;
use crate::document::Document;
pub use context::Context;
pub use sources::{schema_at, type_names};

/// The completion items at `position` of `doc`.
#[must_use]
pub fn complete(doc: &Document, position: Position) -> CompletionResponse {
    let text = doc.text();
    let offset = doc.lines().offset(text, position);
    let Some(context) = Context::at(text, offset) else {
        return CompletionResponse::Array(Vec::new());
    };
    let words = analysis::vocabulary(doc);
    let candidates = sources::candidates(&context, &words);
    let typed = &text[context.replace_from()..offset];
    let range = Range::new(doc.lines().position(text, context.replace_from()), position);
    let items = candidates
        .into_iter()
        .filter(|c| matches(&c.label, typed))
        .map(|c| with_edit(c, range))
        .collect();
    CompletionResponse::Array(items)
}

/// Whether a candidate fits what is typed: case-insensitively, as a prefix or, for longer
/// texts (an operation path typed from its middle), as a part.
fn matches(label: &str, typed: &str) -> bool {
    let label = label.to_lowercase();
    let typed = typed.to_lowercase();
    label.starts_with(&typed) || (typed.len() >= 3 && label.contains(&typed))
}

/// The item replacing what is typed with its text.
fn with_edit(mut item: CompletionItem, range: Range) -> CompletionItem {
    let new_text = item
        .insert_text
        .take()
        .unwrap_or_else(|| item.label.clone());
    item.filter_text = Some(item.label.clone());
    item.text_edit = Some(CompletionTextEdit::Edit(TextEdit { range, new_text }));
    item
}
