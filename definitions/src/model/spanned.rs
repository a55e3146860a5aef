//! Values of the typed model with the location they were read from.

use crate::node::{Node, ScalarStyle};
use crate::source::Span;
use crate::string_map;

/// A value and the span of the node it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it is written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// `value` located at `span`.
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

/// A string field of the model: its decoded value, where it is written and how, so that a
/// position inside the value (a placeholder, a template error) maps back to the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// The decoded string.
    pub value: String,
    /// The whole scalar in the source (quotes included).
    pub span: Span,
    /// How it is written.
    pub style: ScalarStyle,
}

impl Text {
    /// The text of a string node, if it is one.
    #[must_use]
    pub fn from_node(node: &Node) -> Option<Text> {
        let s = node.as_string()?;
        Some(Text {
            value: s.value.to_string(),
            span: node.span,
            style: s.style,
        })
    }

    /// The value as `&str`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.value
    }

    /// The file span of the byte range `range` of the decoded value. Exact for text written
    /// without escapes or folding, the nearest characters otherwise.
    #[must_use]
    pub fn span_of(&self, source_text: &str, range: std::ops::Range<usize>) -> Span {
        string_map::map_range(source_text, self.span, self.style, range)
    }
}
