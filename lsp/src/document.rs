//! The text store: the open documents, as the client last sent them.

use std::cell::RefCell;
use std::sync::Arc;

use lsp_types::{TextDocumentContentChangeEvent, Url};
use syncdef_definitions::Definition;

use crate::position::LineMap;
use crate::vocabulary::Vocabulary;

/// A definition loaded from one version of a document's text.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The version of the text it was loaded from.
    pub version: i32,
    /// The definition.
    pub definition: Arc<Definition>,
}

/// One open document.
#[derive(Clone, Debug)]
pub struct Document {
    /// Where the client keeps it.
    pub uri: Url,
    /// The client's version of the text.
    pub version: i32,
    /// The language the client gave (`yaml`, `json`), which names the format of an untitled
    /// document.
    pub language_id: String,
    /// The definition of the last text that loaded (kept while the current one does not),
    /// stored by the features that load it on demand.
    loaded: RefCell<Option<Loaded>>,
    /// What completion offers from the last text that loaded, and that text's version: kept
    /// when the definition itself is let go (see [`Document::forget_definition`]).
    vocabulary: RefCell<Option<(i32, Arc<Vocabulary>)>>,
    /// Shared with the definitions loaded from it: a large text is held once. Edited in place
    /// when nothing else holds it (see [`splice`]).
    text: Arc<String>,
    lines: LineMap,
}

impl Document {
    /// A document opened with `text`.
    #[must_use]
    pub fn new(uri: Url, version: i32, language_id: String, text: String) -> Document {
        let lines = LineMap::new(&text);
        Document {
            uri,
            version,
            language_id,
            loaded: RefCell::new(None),
            vocabulary: RefCell::new(None),
            text: Arc::new(text),
            lines,
        }
    }

    /// The current text.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The current text, shared (for a [`syncdef_definitions::SourceFile::shared`]).
    #[must_use]
    pub fn shared_text(&self) -> Arc<String> {
        self.text.clone()
    }

    /// The line starts of the current text.
    #[must_use]
    pub fn lines(&self) -> &LineMap {
        &self.lines
    }

    /// Applies the changes of one `didChange`, in order: a change with a range replaces that
    /// range (UTF-16 positions of the text as the previous change left it), one without
    /// replaces the whole text.
    ///
    /// A large text's definition is let go first, so that the edit is made in the text in
    /// place instead of beside a copy the definition still holds (freeing its tree is a few
    /// large blocks); completion keeps what it offered from it ([`Document::vocabulary`]).
    pub fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        if self.text.len() > crate::analysis::SMALL_TEXT {
            self.forget_definition();
        }
        for change in changes {
            match change.range {
                Some(range) => {
                    let start = self.lines.offset(&self.text, range.start);
                    let end = self.lines.offset(&self.text, range.end);
                    // A reversed range is read as the span between its ends.
                    let (start, end) = (start.min(end), start.max(end));
                    splice(&mut self.text, start, end, &change.text);
                }
                None => self.text = Arc::new(change.text),
            }
            self.lines = LineMap::new(&self.text);
        }
        self.version = version;
    }

    /// The definition of the last text that loaded, if any did.
    #[must_use]
    pub fn loaded(&self) -> Option<Loaded> {
        self.loaded.borrow().clone()
    }

    /// Keeps `definition`, loaded from version `version` of the text, for the features, and
    /// what completion offers from it.
    pub fn remember(&self, version: i32, definition: Arc<Definition>) {
        let words = Arc::new(Vocabulary::of(&definition));
        *self.vocabulary.borrow_mut() = Some((version, words));
        *self.loaded.borrow_mut() = Some(Loaded {
            version,
            definition,
        });
    }

    /// Lets go of the kept definition (and of the text it holds, once the editor's has
    /// changed); what completion offers from it stays.
    pub fn forget_definition(&self) {
        *self.loaded.borrow_mut() = None;
    }

    /// What completion offers from the last text that loaded, and that text's version.
    #[must_use]
    pub fn vocabulary(&self) -> Option<(i32, Arc<Vocabulary>)> {
        self.vocabulary.borrow().clone()
    }

    /// Whether the text is JSON (by name or language, or a text that opens an object), where
    /// inserted text must be JSON too.
    #[must_use]
    #[expect(
        clippy::case_sensitive_file_extension_comparisons,
        reason = "kept as it answers: the loader chooses the format ignoring case (`SourceFile::extension`), and making the two agree is a change of behaviour of its own"
    )]
    pub fn is_json(&self) -> bool {
        self.lint_name().ends_with(".json") || self.text.trim_start().starts_with('{')
    }

    /// The name the linter reports and reads the format from: the file's path, or for a
    /// document that is not a file the URI, with the client's language as extension when the
    /// URI has none.
    #[must_use]
    pub fn lint_name(&self) -> String {
        if let Ok(path) = self.uri.to_file_path() {
            return path.display().to_string();
        }
        let name = self.uri.to_string();
        let known = [".yaml", ".yml", ".json"]
            .iter()
            .any(|ext| name.ends_with(ext));
        match self.language_id.as_str() {
            "json" | "jsonc" if !known => format!("{name}.json"),
            "yaml" if !known => format!("{name}.yaml"),
            _ => name,
        }
    }
}

/// Room a text edited in place grows by beyond an edit, so that typing does not move a large
/// text at every keystroke; far less than the doubling a `String` would do on its own (12 MB
/// more for a 12 MB description).
const ROOM_TO_GROW: usize = 64 * 1024;

/// Replaces the bytes `start..end` of `text` with `with`: in place when nothing else holds the
/// text, else in a copy of exactly the new length (the definitions that share the old text
/// keep it whole). Offsets come from [`LineMap::offset`], at character boundaries; were one
/// not, the text is left as it was.
fn splice(text: &mut Arc<String>, start: usize, end: usize, with: &str) {
    if start > end || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
        return;
    }
    if let Some(own) = Arc::get_mut(text) {
        let grows = with.len().saturating_sub(end - start);
        if own.capacity() - own.len() < grows {
            own.reserve_exact(grows + ROOM_TO_GROW);
        }
        own.replace_range(start..end, with);
        return;
    }
    let mut built = String::with_capacity(text.len() - (end - start) + with.len());
    built.push_str(&text[..start]);
    built.push_str(with);
    built.push_str(&text[end..]);
    *text = Arc::new(built);
}

#[cfg(test)]
mod tests {
    use lsp_types::{Position, Range};

    use super::*;

    fn edit(range: (u32, u32, u32, u32), text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(
                Position::new(range.0, range.1),
                Position::new(range.2, range.3),
            )),
            range_length: None,
            text: text.to_owned(),
        }
    }

    fn doc(text: &str) -> Document {
        let uri = Url::parse("file:///tmp/d.yaml").expect("uri");
        Document::new(uri, 1, "yaml".into(), text.into())
    }

    #[test]
    fn applies_range_edits_in_order_with_utf16_positions() {
        let mut d = doc("name: Zoë 𝄞 end\nmodule: Accounts\n");
        // After `𝄞` (units 0..=10: `name: Zoë ` is 10 units, `𝄞` two more).
        d.apply(
            2,
            vec![edit((0, 12, 0, 16), "fin"), edit((1, 8, 1, 16), "Invoices")],
        );
        assert_eq!(d.text(), "name: Zoë 𝄞fin\nmodule: Invoices\n");
        assert_eq!(d.version, 2);
    }

    #[test]
    fn inserts_and_deletes_across_lines() {
        let mut d = doc("a\nb\nc\n");
        d.apply(2, vec![edit((0, 1, 2, 0), "")]);
        assert_eq!(d.text(), "ac\n");
        d.apply(3, vec![edit((1, 0, 1, 0), "x: é\n")]);
        assert_eq!(d.text(), "ac\nx: é\n");
        d.apply(
            4,
            vec![TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: "whole".into(),
            }],
        );
        assert_eq!(d.text(), "whole");
    }

    #[test]
    fn a_text_nothing_else_holds_is_edited_in_place_and_a_shared_one_is_left_whole() {
        let mut d = doc(&"line: one\n".repeat(10_000));
        // The first edit that grows the text makes room for the next ones.
        d.apply(2, vec![edit((0, 6, 0, 9), "three")]);
        let before = d.text().as_ptr();
        d.apply(3, vec![edit((1, 6, 1, 9), "three")]);
        assert_eq!(d.text().as_ptr(), before, "edited where it was");
        assert!(
            d.text()
                .starts_with("line: three\nline: three\nline: one\n")
        );

        let held = d.shared_text();
        d.apply(4, vec![edit((0, 0, 0, 4), "LINE")]);
        assert!(
            held.starts_with("line: three"),
            "a holder's text does not change"
        );
        assert!(d.text().starts_with("LINE: three"));
        assert_eq!(d.text().len(), held.len());
    }

    /// The definition of a large text holds that text: kept across an edit, it would make
    /// the edit copy the whole text.
    #[test]
    fn a_large_text_is_edited_in_place_its_definition_let_go_and_its_vocabulary_kept() {
        let text = format!(
            "openapi: 3.0.3\npaths: {{}}\n#{}\n",
            "x".repeat(crate::analysis::SMALL_TEXT)
        );
        let mut d = doc(&text);
        d.apply(2, vec![edit((0, 14, 0, 14), " ")]);
        let definition = syncdef_definitions::Definition::load(
            syncdef_definitions::SourceFile::shared("t.yaml", d.shared_text()),
        )
        .expect("loads");
        d.remember(2, Arc::new(definition));
        let before = d.text().as_ptr();
        d.apply(3, vec![edit((0, 14, 0, 15), "")]);
        assert_eq!(d.text().as_ptr(), before, "edited where it was");
        assert!(d.loaded().is_none());
        assert_eq!(d.vocabulary().map(|(version, _)| version), Some(2));

        // A small text keeps its definition until the next lint replaces it.
        let mut small = doc("openapi: 3.0.3\n");
        let definition = syncdef_definitions::Definition::load(
            syncdef_definitions::SourceFile::shared("t.yaml", small.shared_text()),
        )
        .expect("loads");
        small.remember(1, Arc::new(definition));
        small.apply(2, vec![edit((0, 0, 0, 0), " ")]);
        assert!(small.loaded().is_some());
    }

    #[test]
    fn an_edit_beyond_the_text_appends_instead_of_panicking() {
        let mut d = doc("ab");
        d.apply(2, vec![edit((5, 3, 7, 0), "!")]);
        assert_eq!(d.text(), "ab!");
    }
}
