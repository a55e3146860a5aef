//! The definitions crate's integration tests, in one binary: loading, the model, references.
mod deep;
mod load_errors;
mod model;
mod operation_ref;
mod overlay;
mod path_match;
mod pointer;
mod refs;
mod robustness;
mod string_map;
mod structure;
