//! The validator's integration tests, in one binary: every rule's fixtures and snapshots, the
//! renderers, suppressions, configuration and the generated rule docs.

mod config;
mod docs;
mod lint_paths;
mod records_schema;
mod renderers;
mod response_contract;
mod robustness;
mod rules;
mod schema;
mod scope;
mod suppress;
mod vendor_paths;
