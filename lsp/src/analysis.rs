//! The definition a document's text holds, for the features that read its structure.

use std::sync::Arc;

use syncdef_definitions::platform::{self, RecordSchemas};
use syncdef_definitions::{Definition, SourceFile};

use crate::document::Document;
use crate::vocabulary::Vocabulary;

/// The document's current text, loaded; `None` when it is not one valid YAML or JSON
/// document (the diagnostics say why).
#[must_use]
pub fn load(doc: &Document) -> Option<Definition> {
    Definition::load(SourceFile::shared(doc.lint_name(), doc.shared_text())).ok()
}

/// Each lint keeps the definition it loaded for the features. A text up to this size is also
/// loaded for a completion asked before the lint of a change: a few milliseconds. A larger one
/// (GitHub's 13 MB description takes about 75 ms) is loaded then only when a feature needs its
/// current version (hover, go to definition), so that the load never delays the next change's
/// findings, and completes from the last definition loaded while it is being edited.
pub const SMALL_TEXT: usize = 1 << 20;

/// The current text's definition: the one kept for this version, else the text loaded now
/// (and kept). Features that locate the cursor in the definition need this one.
#[must_use]
pub fn current(doc: &Document) -> Option<Arc<Definition>> {
    if let Some(loaded) = doc.loaded().filter(|l| l.version == doc.version) {
        return Some(loaded.definition);
    }
    let def = Arc::new(load(doc)?);
    doc.remember(doc.version, Arc::clone(&def));
    Some(def)
}

/// What completion offers from the current text, or else from the last text of the document
/// that loaded: completion lists (paths, entries, server variables) stay available while a
/// line is half typed. A large text that changed since it was last loaded is not loaded again
/// (see [`SMALL_TEXT`]).
#[must_use]
pub fn vocabulary(doc: &Document) -> Arc<Vocabulary> {
    let up_to_date = doc
        .vocabulary()
        .is_some_and(|(version, _)| version == doc.version || doc.text().len() > SMALL_TEXT);
    if !up_to_date {
        // A text that loads keeps its vocabulary (`Document::remember`); one that does not
        // leaves the last.
        let _ = current(doc);
    }
    doc.vocabulary()
        .map_or_else(|| Arc::new(Vocabulary::empty()), |(_, words)| words)
}

/// The platform record schemas templates of `def` read: the shipped ones, with the
/// definition's `x-syncdef-records` applied as the validator applies it.
#[must_use]
pub fn record_schemas(def: Option<&Definition>) -> RecordSchemas {
    let extension = def.and_then(|d| d.root().get(platform::EXTENSION_KEY));
    match extension {
        Some(ext) => platform::builtin().extended(&ext.to_json()).0,
        None => platform::builtin().clone(),
    }
}

/// The names of the synchronization entries of `def`, in document order.
#[must_use]
pub fn entry_names(def: &Definition) -> Vec<&str> {
    def.sync
        .iter()
        .flat_map(|s| s.entries.iter().map(|e| e.key.as_str()))
        .collect()
}
