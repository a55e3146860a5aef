//! The language server's integration tests, in one binary: a client over pipes.

#[path = "../support/mod.rs"]
mod support;

mod diagnostics;
mod features;
mod robustness;
