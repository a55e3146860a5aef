//! Lint rules for synchronization definitions: stable codes, documented rules, diagnostics
//! and their output formats.
//!
//! ```no_run
//! use syncdef_validator::{Config, lint_paths, output::{OutputFormat, RenderOptions, render}};
//!
//! let report = lint_paths(&["catalog".into()], &Config::default());
//! print!("{}", render(&report, OutputFormat::Human, &RenderOptions::default()));
//! std::process::exit(report.exit_code(false));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod checker;
pub mod codes;
pub mod config;
mod context;
pub mod diagnostic;
pub mod discover;
pub mod docs;
mod large;
mod lint;
pub mod load_problem;
pub mod output;
pub mod platform;
/// The push settings types, read and checked here, defined in `syncdef_definitions::settings`.
pub use syncdef_definitions::settings as push_config;
pub mod report;
pub mod request_schema;
pub mod rule;
pub mod rules;
pub mod schema;
pub mod scope;
pub mod suggest;
pub mod suppress;
pub mod templates;
mod typecheck;
pub mod walk_filter;

pub use codes::Rule;
pub use config::{ConfigError, RuleLevel, RuleSettings};
pub use diagnostic::{Diagnostic, Label, Severity};
pub use lint::{
    Config, LintProgress, lint_definition, lint_definition_over, lint_document, lint_paths,
    lint_paths_with_progress, lint_source, lint_text,
};
pub use push_config::PushConfig;
pub use report::{FileReport, LintError, LintReport, Summary};
pub use scope::Scope;
pub use typecheck::Samples;
