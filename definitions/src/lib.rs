//! Source-mapped loading of synchronization definitions.
//!
//! A definition is an OpenAPI 3.0 or 3.1 document plus a top-level `synchronization` section (or
//! `x-synchronization`). This crate turns its text into:
//!
//! - a [`Node`] tree where every value and key keeps its byte [`Span`], so any JSON pointer
//!   becomes `file:line:column` through the [`SourceFile`]'s [`LineIndex`];
//! - every structural problem of the OpenAPI part at its node ([`structure`]), and a lean
//!   typed view of it ([`openapi::OpenApi`]) that points into the tree;
//! - the [`model::Synchronization`] model, with spans on every field;
//! - [`LoadProblem`](model::LoadProblem)s for what is structurally wrong, all at once.
//!
//! ```
//! use syncdef_definitions::{Definition, SourceFile};
//!
//! let text = "openapi: 3.0.3
//! info: {title: QBO, version: '1'}
//! paths:
//!   /v3/company/{realmId}/customer:
//!     post: {responses: {'200': {description: ok}}}
//! synchronization:
//!   Account:
//!     module: Accounts
//!     push:
//!       create: /v3/company/{realmId}/customer/post
//! ";
//! let def = Definition::load(SourceFile::new("qbo.yaml", text)).expect("one valid document");
//! assert!(def.problems.is_empty());
//! let account = def.sync.as_ref().and_then(|s| s.entry("Account")).expect("entry");
//! let create = account.push.as_ref().and_then(|p| p.create.as_ref()).expect("create");
//! assert_eq!(def.source.describe(create.text.span), "qbo.yaml:10:15");
//! let reference = create.parsed.as_ref().expect("well formed");
//! assert_eq!(reference.path, "/v3/company/{realmId}/customer");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod answer;
pub mod de;
pub mod definition;
pub mod extension;
pub mod ignore;
pub mod items;
pub mod lexical_path;
pub mod load;
pub mod members;
pub mod model;
pub mod node;
pub mod openapi;
pub mod operation;
pub mod operation_ref;
pub mod path_match;
pub mod platform;
pub mod pointer;
pub mod refs;
pub mod scaffold;
pub mod settings;
pub mod source;
pub mod string_map;
pub mod structure;
pub mod template_names;
pub mod tree;
pub mod view_iter;

pub use definition::Definition;
pub use items::{Items, ItemsIter};
pub use load::{Document, Format, LoadError, LoadErrorKind, LoadOptions, load, load_path};
pub use members::{Members, MembersIter};
pub use node::{
    Key, Member, Node, NodeIdentity, NodeKind, Number, NumberValue, ScalarStyle, StringValue,
};
pub use source::{LineCol, LineIndex, Location, SourceFile, Span};
pub use tree::Tree;
