//! The platform client's integration tests, in one binary, against a loopback platform.
#[path = "../common/mod.rs"]
mod common;

mod credentials;
mod errors;
mod headers;
mod paging;
mod query;
mod records;
mod token;
