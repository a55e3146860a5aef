//! Source-mapped loading of synchronization definitions.

pub mod load;
pub mod node;
pub mod pointer;
pub mod source;

pub use load::{Document, Format, LoadError, LoadErrorKind, LoadOptions, load, load_path};
pub use node::{Key, Member, Node, NodeKind, Number, NumberValue, ScalarStyle, StringValue};
pub use source::{LineCol, LineIndex, Location, SourceFile, Span};
