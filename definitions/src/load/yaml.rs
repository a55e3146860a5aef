//! The YAML loader: `saphyr-parser` events folded into a spanned tree.
//!
//! `saphyr-parser` is the maintained successor of `yaml-rust` and, unlike `serde_yaml`
//! (deprecated, no positions), reports a span for every event. We build the tree with an
//! explicit stack, so nesting depth is bounded by [`LoadOptions::max_depth`] rather than by the
//! thread's stack.

#![expect(
    clippy::cast_possible_truncation,
    reason = "offsets, lengths and counts here are bounded by one source file's size, and the loader refuses files of 1 GiB or more (`LoadErrorKind::TooLarge`), so they fit the `u32` of spans"
)]

use std::sync::Arc;

use saphyr_parser::{Event, Parser, ScanError};

use super::char_offsets::CharToByte;
use super::yaml_scalar::{self, Scalar};
use super::{LoadError, LoadErrorKind, LoadOptions, duplicates};
use crate::node::{Number, ScalarStyle};
use crate::source::{SourceFile, Span};
use crate::tree::{PendingKey, PendingMember, Slot, TreeBuilder};

/// Parses the single YAML document of `source`, into `tree`; returns the root.
pub(super) fn parse(
    source: &Arc<SourceFile>,
    options: &LoadOptions,
    tree: &mut TreeBuilder,
) -> Result<Slot, LoadError> {
    let mut b = Builder {
        source,
        options,
        offsets: CharToByte::new(source.text()),
        stack: Vec::new(),
        anchors: Vec::new(),
        aliases: 0,
        alias_nodes: 0,
        root: None,
        documents: 0,
        tree,
    };
    let mut parser = Parser::new_from_str(source.text());
    while let Some(event) = parser.next_event() {
        let (event, span) = event.map_err(|e| b.scan_error(&e))?;
        let span = Span::new(
            b.offsets.byte(span.start.index()),
            b.offsets.byte(span.end.index()),
        );
        if b.event(event, span)? {
            break;
        }
    }
    match b.root {
        Some(root) if !is_empty_scalar(root) => Ok(root),
        _ => Err(LoadError::new(
            LoadErrorKind::EmptyDocument,
            source,
            Span::empty(0),
            "the document is empty",
        )
        .with_help(
            "write the OpenAPI definition as one YAML mapping (`openapi: 3.0.3`, `info: ...`)",
        )),
    }
}

fn is_empty_scalar(slot: Slot) -> bool {
    slot == TreeBuilder::null(slot.span()) && slot.span().is_empty()
}

enum Frame {
    Seq {
        start: Span,
        anchor: usize,
        items: Vec<Slot>,
    },
    Map {
        start: Span,
        anchor: usize,
        members: Vec<PendingMember>,
        key: Option<PendingKey>,
    },
}

#[derive(Clone, Copy)]
struct Anchored {
    node: Slot,
    /// Nodes in `node`, counted once so every alias use adds it in O(1).
    size: u64,
}

struct Builder<'a> {
    source: &'a Arc<SourceFile>,
    options: &'a LoadOptions,
    offsets: CharToByte<'a>,
    stack: Vec<Frame>,
    /// Anchored nodes by anchor id (saphyr numbers anchors from 1).
    anchors: Vec<Option<Anchored>>,
    aliases: u64,
    alias_nodes: u64,
    root: Option<Slot>,
    documents: u32,
    tree: &'a mut TreeBuilder,
}

impl Builder<'_> {
    /// Handles one event; returns `true` at the end of the stream.
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<bool, LoadError> {
        match event {
            Event::StreamEnd => return Ok(true),
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(self
                        .error(span, LoadErrorKind::MultipleDocuments, "the file holds more than one YAML document")
                        .with_help("keep one definition per file; remove this `---` and what follows, or move it to its own file"));
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                let forced_string = tag
                    .as_ref()
                    .is_some_and(|t| t.is_yaml_core_schema() && t.suffix == "str");
                self.scalar(&value, scalar_style(style), anchor, forced_string, span)?;
            }
            Event::SequenceStart(anchor, _) => {
                self.open(span)?;
                self.stack.push(Frame::Seq {
                    start: span,
                    anchor,
                    items: Vec::new(),
                });
            }
            Event::MappingStart(anchor, _) => {
                self.open(span)?;
                self.stack.push(Frame::Map {
                    start: span,
                    anchor,
                    members: Vec::new(),
                    key: None,
                });
            }
            Event::SequenceEnd => {
                if let Some(Frame::Seq {
                    start,
                    anchor,
                    items,
                }) = self.stack.pop()
                {
                    let span = self.collection_span(
                        start,
                        span,
                        items.first().map(|n| n.span()),
                        items.last().map(|n| n.span()),
                    );
                    let node = self.tree.array(span, items.into_iter());
                    self.finish(node, anchor)?;
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map {
                    start,
                    anchor,
                    mut members,
                    ..
                }) = self.stack.pop()
                {
                    let span = self.collection_span(
                        start,
                        span,
                        members.first().map(|m| m.key.span()),
                        members.last().map(|m| m.value.span()),
                    );
                    let node = self
                        .tree
                        .object(span, &mut members, 0)
                        .map_err(|d| duplicates::error(&d, self.source))?;
                    self.finish(node, anchor)?;
                }
            }
            Event::Alias(id) => self.alias(id, span)?,
        }
        Ok(false)
    }

    /// A scalar: a key when a mapping waits for one, else a value.
    fn scalar(
        &mut self,
        value: &str,
        style: ScalarStyle,
        anchor: usize,
        forced_string: bool,
        span: Span,
    ) -> Result<(), LoadError> {
        if let Some(Frame::Map { key: None, .. }) = self.stack.last() {
            // Keys are taken as text whatever they look like: OpenAPI response codes are
            // written `200:` in YAML and mean the string "200".
            let name = self.tree.key(span, value);
            if anchor != 0 {
                let node = self.tree.string(span, value, style);
                self.set_anchor(anchor, node);
            }
            if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                *key = Some(name);
            }
            return Ok(());
        }
        let node = match yaml_scalar::resolve(value, style, forced_string) {
            Scalar::Null => TreeBuilder::null(span),
            Scalar::Bool(b) => TreeBuilder::bool(span, b),
            Scalar::Number(number) => {
                let text = value.into();
                self.tree.number(
                    span,
                    Number {
                        text,
                        value: number,
                    },
                )
            }
            Scalar::String => self.tree.string(span, value, style),
        };
        self.finish(node, anchor)
    }

    /// Checks a collection may start here: not as a mapping key, not too deep.
    fn open(&mut self, span: Span) -> Result<(), LoadError> {
        if let Some(Frame::Map { key: None, .. }) = self.stack.last() {
            return Err(self.non_string_key(span));
        }
        if self.stack.len() as u32 >= self.options.max_depth {
            return Err(self
                .error(
                    span,
                    LoadErrorKind::TooDeep,
                    format!("values nest deeper than {} levels", self.options.max_depth),
                )
                .with_help(
                    "flatten the structure, or move nested schemas to components and `$ref` them",
                ));
        }
        Ok(())
    }

    /// Flow collections span their brackets; block ones span their first to last child
    /// (saphyr gives block collections empty start and end events).
    fn collection_span(
        &self,
        start: Span,
        end: Span,
        first: Option<Span>,
        last: Option<Span>,
    ) -> Span {
        let flow = matches!(
            self.source.text().as_bytes().get(start.start as usize),
            Some(b'[' | b'{')
        );
        match (flow, first, last) {
            (false, Some(first), Some(last)) => first.cover(last),
            _ => Span::new(start.start, end.end.max(start.end)),
        }
    }

    /// Attaches a finished node to its parent (or makes it the root) and records its anchor.
    fn finish(&mut self, node: Slot, anchor: usize) -> Result<(), LoadError> {
        if anchor != 0 {
            self.set_anchor(anchor, node);
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { members, key, .. }) => match key.take() {
                Some(key) => members.push(PendingMember { key, value: node }),
                None => return Err(self.non_string_key(node.span())),
            },
        }
        Ok(())
    }

    fn set_anchor(&mut self, anchor: usize, node: Slot) {
        if self.anchors.len() <= anchor {
            self.anchors.resize_with(anchor + 1, || None);
        }
        let size = self.tree.count_nodes(node);
        self.anchors[anchor] = Some(Anchored { node, size });
    }

    fn alias(&mut self, id: usize, span: Span) -> Result<(), LoadError> {
        let Some(&Some(Anchored {
            node: anchored,
            size,
        })) = self.anchors.get(id)
        else {
            return Err(self
                .error(span, LoadErrorKind::UnknownAnchor, format!("alias `{}` refers to no anchor defined before it", self.slice(span)))
                .with_help("define the anchor (`&name`) on a value above this alias, and finish that value before using it"));
        };
        self.aliases += 1;
        self.alias_nodes += size;
        if self.aliases > self.options.max_aliases
            || self.alias_nodes > self.options.max_alias_nodes
        {
            return Err(self
                .error(span, LoadErrorKind::AliasBomb, format!(
                    "YAML aliases expand to more than {} nodes ({} alias uses so far): refusing a possible \"billion laughs\" document",
                    self.options.max_alias_nodes, self.aliases,
                ))
                .with_help("use `$ref` to share schemas instead of YAML anchors, or reduce nested aliases"));
        }
        if let Some(Frame::Map { key: None, .. }) = self.stack.last() {
            let Some(name) = self.tree.string_of(anchored).map(str::to_owned) else {
                return Err(self.non_string_key(span));
            };
            let name = self.tree.key(span, &name);
            if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                *key = Some(name);
            }
            return Ok(());
        }
        // The copy keeps the anchored node's spans: a diagnostic inside it points at the
        // definition, which is where the user must fix it.
        let node = self.tree.alias(anchored, span);
        self.finish(node, 0)
    }

    fn slice(&self, span: Span) -> &str {
        self.source.slice(span)
    }

    fn error(&self, span: Span, kind: LoadErrorKind, message: impl Into<String>) -> LoadError {
        LoadError::new(kind, self.source, span, message)
    }

    fn non_string_key(&self, span: Span) -> LoadError {
        self.error(
            span,
            LoadErrorKind::NonStringKey,
            "a mapping key must be a string, not a mapping or a sequence",
        )
        .with_help(
            "write the key as plain text; if this line should be a value, indent it under a key",
        )
    }

    fn scan_error(&mut self, err: &ScanError) -> LoadError {
        let at = self.offsets.byte(err.marker().index());
        let info = err.info();
        if info.contains("unknown anchor") {
            let text = self.source.text();
            let end = text[at as usize..]
                .find(|c: char| c.is_whitespace() || matches!(c, ',' | ']' | '}'))
                .map_or(text.len(), |n| at as usize + n);
            let span = Span::new(at, end as u32);
            return self
                .error(span, LoadErrorKind::UnknownAnchor, format!("alias `{}` refers to no anchor defined before it", self.slice(span)))
                .with_help("define the anchor (`&name`) on a value above this alias, and finish that value before using it");
        }
        let help = syntax_help(info);
        self.error(
            Span::empty(at),
            LoadErrorKind::Syntax,
            format!("invalid YAML: {info}"),
        )
        .with_help(help)
    }
}

/// A help line chosen by the kind of saphyr's message (its wording is stable within a version;
/// an unknown one still gets the general advice).
fn syntax_help(info: &str) -> &'static str {
    if info.contains("mapping values are not allowed") {
        "a `: ` inside a value starts a mapping: quote the value, or fix the indentation of this line"
    } else if info.contains("tab") {
        "YAML indentation must use spaces, not tabs"
    } else if info.contains("quoted scalar") {
        "close the quote that starts here, or indent the continuation lines of the quoted value"
    } else if info.contains("expected '-' indicator") {
        "every item of a sequence starts with `- `: a `key: value` cannot follow the items at the same indentation"
    } else if info.contains("did not find expected key") || info.contains("block mapping") {
        "check the indentation: keys of one mapping must start in the same column"
    } else if info.contains("flow") || info.contains("unclosed") || info.contains("end of stream") {
        "close the quote, `[` or `{` opened before this point"
    } else {
        "fix the YAML syntax at this position (check indentation and quoting)"
    }
}

fn scalar_style(style: saphyr_parser::ScalarStyle) -> ScalarStyle {
    match style {
        saphyr_parser::ScalarStyle::Plain => ScalarStyle::Plain,
        saphyr_parser::ScalarStyle::SingleQuoted => ScalarStyle::SingleQuoted,
        saphyr_parser::ScalarStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
        saphyr_parser::ScalarStyle::Literal => ScalarStyle::Literal,
        saphyr_parser::ScalarStyle::Folded => ScalarStyle::Folded,
    }
}
