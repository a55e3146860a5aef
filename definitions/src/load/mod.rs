//! Loading YAML and JSON text into a spanned [`Node`] tree.
//!
//! Both loaders refuse what would make later locations wrong or the process unsafe: syntax
//! errors, duplicate keys, non-UTF-8 bytes, excessive nesting and alias bombs. Each refusal is
//! a [`LoadError`] that names the file, line and column and says what to do.

mod char_offsets;
mod duplicates;
mod error;
mod json;
pub mod json_escape;
mod overlay;
mod read;
mod yaml;
mod yaml_scalar;

use std::path::Path;
use std::sync::Arc;

pub use error::{LoadError, LoadErrorKind, Related};
pub use read::{ReadError, read_file, read_stream};

use crate::model::LoadProblem;
use crate::node::Node;
use crate::source::{SourceFile, Span};
use crate::tree::{MAX_TEXT_LEN, TakenIgnore, Tree, TreeBuilder};

/// The text formats a definition can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// JSON (RFC 8259).
    Json,
    /// YAML 1.2, one document, core schema.
    Yaml,
}

impl Format {
    /// The format an extension names (`json`, `yaml`, `yml`, any case).
    #[must_use]
    pub fn from_extension(ext: &str) -> Option<Format> {
        match ext.to_ascii_lowercase().as_str() {
            "json" => Some(Format::Json),
            "yaml" | "yml" => Some(Format::Yaml),
            _ => None,
        }
    }

    /// Guesses the format from the text: JSON documents open with `{` or `[`. Everything else
    /// is read as YAML (of which JSON is almost a subset, so a wrong guess still loads).
    #[must_use]
    pub fn sniff(text: &str) -> Format {
        let trimmed = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
        if trimmed.starts_with(['{', '[']) {
            Format::Json
        } else {
            Format::Yaml
        }
    }

    /// The format of `source`: by its extension, else by sniffing its text.
    #[must_use]
    pub fn detect(source: &SourceFile) -> Format {
        source
            .extension()
            .and_then(|e| Format::from_extension(&e))
            .unwrap_or_else(|| Format::sniff(source.text()))
    }
}

/// Limits that protect the loader from hostile input. The defaults load every real OpenAPI
/// document we know of (see `docs/benchmarks.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// Deepest nesting of arrays and objects accepted.
    pub max_depth: u32,
    /// Most nodes that YAML alias expansion may copy in one document.
    pub max_alias_nodes: u64,
    /// Most alias uses (`*anchor`) in one document.
    pub max_aliases: u64,
    /// Whether `x-syncdef-ignore` members are taken out of their objects (see
    /// [`crate::ignore`]): yes for a definition; no for a text that is data, such as a
    /// template written as a string, whose keys are part of the body it sends.
    pub take_ignores: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            max_depth: 256,
            max_alias_nodes: 1_000_000,
            max_aliases: 100_000,
            take_ignores: true,
        }
    }
}

/// A loaded document: its source and its tree.
#[derive(Clone, Debug)]
pub struct Document {
    /// The file, shared with everything located in it.
    pub source: Arc<SourceFile>,
    /// The format it was read as.
    pub format: Format,
    /// The values of the document.
    pub tree: Tree,
    /// The `x-syncdef-ignore` members the loader took out of their objects, in the order the
    /// objects closed (see [`crate::ignore`]).
    pub(crate) ignores: Vec<TakenIgnore>,
    /// What is wrong with an overlay's actions (none for a document written as one): the
    /// document holds what the others did.
    pub(crate) problems: Vec<LoadProblem>,
}

impl Document {
    /// The root value.
    #[must_use]
    pub fn root(&self) -> Node<'_> {
        self.tree.root()
    }
}

/// Loads `source` in the format its extension names (or its content suggests).
///
/// # Errors
/// A [`LoadError`] located in the file when the text is not one valid document.
pub fn load(source: impl Into<Arc<SourceFile>>) -> Result<Document, LoadError> {
    load_with(source.into(), &LoadOptions::default())
}

/// Loads `source` with explicit limits.
///
/// # Errors
/// A [`LoadError`] located in the file when the text is not one valid document.
pub fn load_with(source: Arc<SourceFile>, options: &LoadOptions) -> Result<Document, LoadError> {
    let format = Format::detect(&source);
    load_as(source, format, options)
}

/// Loads `source` as `format`. An OpenAPI Overlay (a document with an `overlay` member) is
/// loaded as the document its actions make of the description it `extends`, in a source that
/// joins the files (see [`overlay`]).
///
/// # Errors
/// A [`LoadError`] located in the file when the text is not one valid document, or, for an
/// overlay, when what it extends cannot be read or loaded.
pub fn load_as(
    source: Arc<SourceFile>,
    format: Format,
    options: &LoadOptions,
) -> Result<Document, LoadError> {
    let doc = parse_as(source, format, options)?;
    // A text that is data (a template) is neither an overlay nor refers to files.
    if !options.take_ignores {
        return Ok(doc);
    }
    let is_overlay = overlay::is_overlay(&doc.root());
    if !is_overlay && !overlay::has_external_refs(&doc) {
        return Ok(doc);
    }
    // Read again keeping `x-syncdef-ignore` members: they are taken out of the composed
    // document, where an update may have moved them.
    let raw = LoadOptions {
        take_ignores: false,
        ..*options
    };
    let doc = parse_as(Arc::clone(&doc.source), format, &raw)?;
    if is_overlay {
        overlay::compose(doc, options)
    } else {
        Ok(overlay::with_external_refs(doc, options))
    }
}

/// Parses `source` as `format` into one document's tree.
fn parse_as(
    source: Arc<SourceFile>,
    format: Format,
    options: &LoadOptions,
) -> Result<Document, LoadError> {
    if source.text().len() > MAX_TEXT_LEN {
        return Err(LoadError::new(
            LoadErrorKind::TooLarge,
            &source,
            Span::empty(0),
            "the file is 1 GiB or larger",
        )
        .with_help("split the definition into smaller files"));
    }
    let mut builder = TreeBuilder::for_text(source.clone(), options.take_ignores);
    let root = match format {
        Format::Json => json::parse(&source, options, &mut builder)?,
        Format::Yaml => yaml::parse(&source, options, &mut builder)?,
    };
    let ignores = std::mem::take(&mut builder.ignores);
    Ok(Document {
        source,
        format,
        tree: builder.finish(root),
        ignores,
        problems: Vec::new(),
    })
}

/// Loads raw bytes named `name`, refusing non-UTF-8 input at the first bad byte.
///
/// # Errors
/// [`LoadErrorKind::InvalidUtf8`] with the byte offset, or any error of [`load_with`].
pub fn load_bytes(
    name: impl Into<String>,
    bytes: Vec<u8>,
    options: &LoadOptions,
) -> Result<Document, LoadError> {
    let name = name.into();
    match String::from_utf8(bytes) {
        Ok(text) => load_with(Arc::new(SourceFile::new(name, text)), options),
        Err(err) => Err(invalid_utf8(name, err)),
    }
}

/// Reads and loads the file at `path`.
///
/// # Errors
/// [`LoadErrorKind::Io`] when the file cannot be read, [`LoadErrorKind::TooLarge`] before it
/// is read when it is 1 GiB or larger, or any error of [`load_bytes`].
pub fn load_path(path: &Path, options: &LoadOptions) -> Result<Document, LoadError> {
    let name = path.display().to_string();
    let bytes = read_file(path).map_err(|e| e.into_load_error(&name))?;
    load_bytes(name, bytes, options)
}

fn invalid_utf8(name: String, err: std::string::FromUtf8Error) -> LoadError {
    let offset = err.utf8_error().valid_up_to();
    let bytes = err.into_bytes();
    // Keep the valid prefix as the text so the position can be shown with its line.
    let prefix = String::from_utf8_lossy(&bytes[..offset]).into_owned();
    let bad = bytes.get(offset).copied().unwrap_or(0);
    let source = Arc::new(SourceFile::new(name, prefix));
    LoadError::new(
        LoadErrorKind::InvalidUtf8,
        &source,
        // Past 4 GiB (the loader refuses 1 GiB and more) the end of what spans address.
        Span::empty(u32::try_from(offset).unwrap_or(u32::MAX)),
        format!("the file is not valid UTF-8: byte 0x{bad:02X} at byte offset {offset}"),
    )
    .with_help("save the file as UTF-8 (definitions must be UTF-8 encoded)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_by_extension_then_content() {
        let f = |name: &str, text: &str| Format::detect(&SourceFile::new(name, text));
        assert_eq!(f("a.json", "openapi: 3.0.3"), Format::Json);
        assert_eq!(f("a.YML", "{}"), Format::Yaml);
        assert_eq!(
            f("definition", "\u{feff}\n  {\"openapi\": \"3.0.3\"}"),
            Format::Json
        );
        assert_eq!(f("definition.txt", "openapi: 3.0.3"), Format::Yaml);
        assert_eq!(f("-", "[1]"), Format::Json);
    }

    #[test]
    fn json_with_a_byte_order_mark_loads() {
        let doc = load(SourceFile::new("bom.json", "\u{feff}{\"a\": 1}")).map_err(|e| e.render());
        assert_eq!(doc.map(|d| d.root().span), Ok(Span::new(3, 11)));
    }
}
