//! Source-mapped loading of synchronization definitions.

pub mod de;
pub mod definition;
pub mod load;
pub mod model;
pub mod node;
mod openapi_error;
pub mod operation_ref;
pub mod path_match;
pub mod pointer;
pub mod refs;
pub mod source;
pub mod string_map;

pub use definition::Definition;
pub use load::{Document, Format, LoadError, LoadErrorKind, LoadOptions, load, load_path};
pub use node::{Key, Member, Node, NodeKind, Number, NumberValue, ScalarStyle, StringValue};
pub use source::{LineCol, LineIndex, Location, SourceFile, Span};
