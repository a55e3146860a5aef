//! The definition a document's text holds, for the features that read its structure.

use std::sync::Arc;

use syncdef_definitions::platform::{self, RecordSchemas};
use syncdef_definitions::{Definition, SourceFile};

use crate::document::Document;

/// The document's current text, loaded; `None` when it is not one valid YAML or JSON
/// document (the diagnostics say why).
#[must_use]
pub fn load(doc: &Document) -> Option<Definition> {
    Definition::load(SourceFile::new(doc.lint_name(), doc.text())).ok()
}

/// The current text loaded, or else the last text of the document that loaded: completion
/// lists (paths, entries, server variables) stay available while a line is half typed.
#[must_use]
pub fn load_or_last(doc: &Document) -> Option<Arc<Definition>> {
    load(doc).map(Arc::new).or_else(|| doc.last_loaded.clone())
}

/// The platform record schemas templates of `def` read: the shipped ones, with the
/// definition's `x-syncdef-records` applied as the validator applies it.
#[must_use]
pub fn record_schemas(def: Option<&Definition>) -> RecordSchemas {
    let extension = def.and_then(|d| d.root.get(platform::EXTENSION_KEY));
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
