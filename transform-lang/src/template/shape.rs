//! What a template's output looks like before it is applied: the parts that are always the
//! same and the parts computed from each record.
//!
//! A consumer that needs to know something about every output (a request body checked against
//! its schema) can prove the fixed parts once, when the template is compiled, and look only at
//! the computed parts of each output: [`Template::apply_to_json_observed`] tells it where each
//! computed part's text is.
//!
//! [`Template::apply_to_json_observed`]: crate::Template::apply_to_json_observed

use crate::template::Node;
use crate::value::Value;

/// The shape of a template's output.
#[derive(Debug, PartialEq)]
#[non_exhaustive]
pub enum OutputShape<'t> {
    /// Always this value.
    Constant(&'t Value),
    /// An object whose members are always all written, in this order (none is left out, not
    /// even when its value is `null`).
    Object(Vec<(&'t str, OutputShape<'t>)>),
    /// Known only when applied: a function's result, a loop, a conditional group, computed
    /// keys. Everything inside it is part of it.
    Computed,
}

/// Told where the text of each [`OutputShape::Computed`] part of an output is, as the output
/// is written: once per computed part, in the order a depth-first walk of the shape meets
/// them (members in their order), with the output so far (which ends with the part's text)
/// and the offset the part's text starts at.
pub trait OutputObserver {
    /// The computed part is `out[start..]`.
    fn written(&mut self, out: &str, start: usize);
}

impl<F: FnMut(&str, usize)> OutputObserver for F {
    fn written(&mut self, out: &str, start: usize) {
        self(out, start);
    }
}

/// The shape of `node`'s output; `tracks_output` (look-in-transformed mode, where every value
/// may depend on what was written before it) makes the whole output computed.
pub(crate) fn shape_of(node: &Node, tracks_output: bool) -> OutputShape<'_> {
    if tracks_output {
        return OutputShape::Computed;
    }
    match node {
        Node::Const(v) => OutputShape::Constant(v),
        Node::Object(o) if o.plain => OutputShape::Object(
            o.props
                .iter()
                .filter_map(|p| match p {
                    crate::template::Prop::Value { key, value } => {
                        Some((&**key, shape_of(value, false)))
                    }
                    // A plain object holds plain properties only.
                    _ => None,
                })
                .collect(),
        ),
        _ => OutputShape::Computed,
    }
}
