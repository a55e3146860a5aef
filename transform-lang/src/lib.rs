//! JUST.net-compatible template language: compile a template once, apply it to many records.
//!
//! ```
//! use syncdef_transform::{Settings, Template, Value};
//!
//! let template = Template::compile_str(
//!     r##"{ "DisplayName": "#valueof($.account.name)", "Taxable": "#valueof($.account.isTaxable)" }"##,
//!     &Settings::default(),
//! ).unwrap();
//! let record = Value::from_json_str(r#"{"account": {"name": "Acme", "isTaxable": true}}"#).unwrap();
//! let out = template.apply(&record).unwrap();
//! assert_eq!(out.to_json_compact(), r#"{"DisplayName":"Acme","Taxable":true}"#);
//! ```
//!
//! Layers, in the order data flows: [`value`] (the shared value type and JSON I/O), [`path`]
//! (the JSONPath dialect), expressions and templates (parse -> AST with spans -> compiled
//! nodes), the evaluator, and the function library (one family per module, apart from the
//! core). See `docs/transform-language.md` for the language reference.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod analysis;
mod error;
mod eval;
mod expr;
mod functions;
pub mod path;
mod settings;
mod template;
pub mod value;

pub use analysis::{CallUse, PathContext, PathUse, ValueKind, expression_kind};
pub use error::{
    CompileError, CompileErrorKind, CompileErrors, EvalError, EvalErrorKind, Location, NodePart,
};
pub use functions::{names as function_names, reference as function_reference};
pub use path::JsonPath;
pub use settings::{EvaluationMode, Limits, Settings};
pub use template::{OutputObserver, OutputShape, Template};
pub use value::{Map, Value, ValueReader};
