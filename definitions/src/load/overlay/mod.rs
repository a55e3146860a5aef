//! OpenAPI Overlay 1.0: a definition written as changes to a vendor's unmodified description.
//!
//! ```yaml
//! overlay: 1.0.0
//! info: {title: QuickBooks synchronization, version: 1.0.0}
//! extends: ./quickbooks-openapi.json
//! actions:
//!   - target: $
//!     update:
//!       synchronization: {...}
//! ```
//!
//! The loader reads the overlay, the description it `extends` (itself possibly an overlay),
//! runs the actions in order and hands on one document, as if it had been written as one. Its
//! source joins the files (the overlay first, then what it extends; see
//! [`SourceFile::joined`]): every node keeps the span it was written at, so a finding in what
//! the vendor wrote is shown in the vendor's file and a finding in what an action added in the
//! overlay. What is wrong with an action (a target that does not compile or selects nothing,
//! an update of the wrong kind) is a problem of the definition, reported with the rest; an
//! overlay whose `extends` cannot be read, or loops, cannot be loaded at all.

mod apply;
mod document;
mod draft;
mod external_refs;
mod target;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Document, Format, LoadError, LoadErrorKind, LoadOptions, parse_as, read_file};
use crate::model::LoadProblem;
use crate::node::Node;
use crate::source::{SourceFile, Span};
use crate::tree::{MAX_TEXT_LEN, TreeBuilder};
use apply::{Composed, Layer};

/// What [`Files::file_at`] answers when there are no files.
static EMPTY_FILE: std::sync::LazyLock<SourceFile> =
    std::sync::LazyLock::new(|| SourceFile::new("", ""));

/// Whether `root` is an overlay: an object with an `overlay` member (an OpenAPI description
/// has `openapi` instead).
pub(crate) fn is_overlay(root: &Node<'_>) -> bool {
    root.as_object().is_some() && root.get("overlay").is_some()
}

/// The document the overlay `first` (parsed without taking `x-syncdef-ignore` members out)
/// makes of the description it extends, with the problems of its actions.
pub(crate) fn compose(first: Document, options: &LoadOptions) -> Result<Document, LoadError> {
    let format = first.format;
    let mut files = Files::default();
    if let Ok(path) = std::fs::canonicalize(first.source.name()) {
        files.chain.push((path, first.source.name().to_owned()));
    }
    let mut problems = Vec::new();
    let mut composed = layer(&first, &mut files, options, &mut problems)?;
    // The document is the overlay's: what is missing from it as a whole is added there, and
    // shown at its `overlay` key.
    let root = first.root();
    composed.draft.span = root.member("overlay").map_or(root.span, |m| m.key.span);
    drop(first);
    external_refs::follow(&mut composed.draft, &mut files, options);
    Ok(build(&files, composed.draft, problems, format, options))
}

/// Whether `doc` has a `$ref` to another file, which [`with_external_refs`] follows.
pub(crate) fn has_external_refs(doc: &Document) -> bool {
    doc.source.text().contains("$ref") && external_refs::any(&doc.root())
}

/// `doc` (parsed without taking `x-syncdef-ignore` members out) with its `$ref`s to other
/// files followed: the files joined after it, what the references name brought in.
pub(crate) fn with_external_refs(doc: Document, options: &LoadOptions) -> Document {
    let mut files = Files::default();
    let format = doc.format;
    let Some(base) = files.add(Arc::clone(&doc.source)) else {
        return doc;
    };
    let mut draft = draft::Draft::of(&doc.root(), base);
    drop(doc);
    external_refs::follow(&mut draft, &mut files, options);
    build(&files, draft, Vec::new(), format, options)
}

/// The document of `draft`, whose spans index `files` joined.
fn build(
    files: &Files,
    draft: draft::Draft,
    problems: Vec<LoadProblem>,
    format: Format,
    options: &LoadOptions,
) -> Document {
    let source = files.joined();
    let mut builder = TreeBuilder::for_text(Arc::clone(&source), options.take_ignores);
    let root = draft.build(&mut builder, &mut Vec::new());
    let ignores = std::mem::take(&mut builder.ignores);
    Document {
        source,
        format,
        tree: builder.finish(root),
        ignores,
        problems,
    }
}

/// The files of a composition, in the order of their ranges, and the overlays being applied
/// (to find an `extends` that comes back).
#[derive(Default)]
pub(super) struct Files {
    list: Vec<Arc<SourceFile>>,
    /// Where the next file's range starts.
    next: usize,
    /// The overlays whose `extends` is being read, outermost first: the canonical path (to
    /// compare) and the path as shown.
    chain: Vec<(PathBuf, String)>,
}

impl Files {
    /// Adds `file`; its range's start. `None` when the files would be 1 GiB or larger.
    fn add(&mut self, file: Arc<SourceFile>) -> Option<u32> {
        let start = self.next;
        let end = start + file.text().len();
        if end > MAX_TEXT_LEN {
            return None;
        }
        self.next = end + 1;
        self.list.push(file);
        u32::try_from(start).ok()
    }

    /// The file whose range holds `offset`.
    fn file_at(&self, offset: u32) -> &SourceFile {
        let mut start = 0;
        for file in &self.list {
            let end = start + file.text().len();
            if (offset as usize) <= end {
                return file;
            }
            start = end + 1;
        }
        self.list.last().map_or(&EMPTY_FILE, |f| f)
    }

    fn joined(&self) -> Arc<SourceFile> {
        let files: Vec<&SourceFile> = self.list.iter().map(|f| &**f).collect();
        Arc::new(SourceFile::joined(&files))
    }

    /// An error at `span` of the files read so far.
    fn error(&self, span: Span, message: String, help: String) -> LoadError {
        LoadError::new(LoadErrorKind::Overlay, &self.joined(), span, message).with_help(help)
    }
}

/// The document the overlay `doc` makes: what it extends, composed, with its actions run.
fn layer(
    doc: &Document,
    files: &mut Files,
    options: &LoadOptions,
    problems: &mut Vec<LoadProblem>,
) -> Result<Composed, LoadError> {
    let base = files
        .add(Arc::clone(&doc.source))
        .ok_or_else(|| too_large(files))?;
    let at = |span: Span| Span::new(span.start + base, span.end + base);
    let overlay = document::read(doc.root(), base, problems);
    let Some(extends) = overlay.extends else {
        return Err(files.error(
            overlay.key,
            "the overlay has no `extends`: nothing says which description it changes".into(),
            "add `extends: ./vendor.json`, the path of the OpenAPI description the overlay changes (relative to the overlay's file, or absolute)".into(),
        ));
    };
    let Some(written) = extends.as_str() else {
        return Err(files.error(
            at(extends.span),
            format!("`extends` is {}, not a path", document::shown(extends)),
            "write `extends: ./vendor.json`, the path of the OpenAPI description the overlay changes".into(),
        ));
    };
    let path = extended_path(doc.source.name(), written);
    let extended = read_extended(&path, at(extends.span), files, options)?;
    let mut composed = if is_overlay(&extended.root()) {
        let canonical = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        files
            .chain
            .push((canonical, extended.source.name().to_owned()));
        let composed = layer(&extended, files, options, problems)?;
        files.chain.pop();
        composed
    } else {
        let vendor = files
            .add(Arc::clone(&extended.source))
            .ok_or_else(|| too_large(files))?;
        Composed {
            draft: draft::Draft::of(&extended.root(), vendor),
            value: extended.root().to_json(),
        }
    };
    let layer = Layer {
        file: &doc.source,
        base,
        extended: extended.source.name(),
    };
    for action in &overlay.actions {
        apply::run(action, &layer, &mut composed, problems);
    }
    Ok(composed)
}

/// The path `extends` names: as written when absolute, else from the overlay's directory.
pub(super) fn extended_path(overlay: &str, extends: &str) -> PathBuf {
    let written = Path::new(extends);
    let path = match Path::new(overlay).parent() {
        Some(dir) if !written.is_absolute() => dir.join(written),
        _ => written.to_path_buf(),
    };
    // `dir/./vendor.json` and `dir/schemas/../vendor.json` are shown, and read once, as
    // `dir/vendor.json`: lexically, as the path is written.
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir
                if matches!(
                    normal.components().next_back(),
                    Some(std::path::Component::Normal(_))
                ) =>
            {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// Reads and parses the file at `path`, which the `extends` at `span` names: an error located
/// there when it cannot be read or comes back to an overlay being read, the file's own error
/// (with the `extends` beside it) when it does not parse.
fn read_extended(
    path: &Path,
    span: Span,
    files: &Files,
    options: &LoadOptions,
) -> Result<Document, LoadError> {
    let name = path.display().to_string();
    let unreadable = |error: &dyn std::fmt::Display| {
        files.error(
            span,
            format!("cannot read `{name}`, which `extends` names: {error}"),
            "check the path: a relative `extends` is read from the overlay's directory".into(),
        )
    };
    let canonical = std::fs::canonicalize(path).map_err(|e| unreadable(&e))?;
    if let Some(at) = files.chain.iter().position(|(p, _)| *p == canonical) {
        let chain: Vec<&str> = files.chain[at..]
            .iter()
            .map(|(_, shown)| shown.as_str())
            .chain([name.as_str()])
            .collect();
        return Err(files.error(
            span,
            format!("`extends` comes back to an overlay it started from: {}", chain.join(" -> ")),
            "an overlay extends an OpenAPI description, or an overlay that ends in one: make the last `extends` name the vendor's description".into(),
        ));
    }
    let bytes = read_file(path).map_err(|e| unreadable(&e))?;
    let text = String::from_utf8(bytes).map_err(|_| unreadable(&"it is not UTF-8"))?;
    let source = Arc::new(SourceFile::new(name, text));
    let raw = LoadOptions {
        take_ignores: false,
        ..*options
    };
    parse_as(Arc::clone(&source), Format::detect(&source), &raw)
        .map_err(|error| beside_extends(error, files, span))
}

/// The error of a file that `extends` names, located in it, with the `extends` as a related
/// place: both in the files read so far and that file, joined.
fn beside_extends(error: LoadError, files: &Files, extends: Span) -> LoadError {
    let mut list: Vec<&SourceFile> = files.list.iter().map(|f| &**f).collect();
    list.push(&error.source);
    let base = u32::try_from(SourceFile::joined_len(&list) - error.source.text().len())
        .unwrap_or(u32::MAX);
    let joined = Arc::new(SourceFile::joined(&list));
    let at = |span: Span| {
        Span::new(
            span.start.saturating_add(base),
            span.end.saturating_add(base),
        )
    };
    LoadError {
        span: Some(error.span.map_or(Span::empty(base), at)),
        related: error
            .related
            .iter()
            .map(|r| super::Related {
                span: at(r.span),
                message: r.message.clone(),
            })
            .chain([super::Related {
                span: extends,
                message: "extended here".into(),
            }])
            .collect(),
        source: joined,
        ..error
    }
}

fn too_large(files: &Files) -> LoadError {
    LoadError::new(
        LoadErrorKind::TooLarge,
        &files.joined(),
        Span::empty(0),
        "the overlay and the files it extends are 1 GiB or larger together",
    )
    .with_help("split the definition into smaller files")
}
