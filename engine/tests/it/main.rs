//! The engine's integration tests, in one binary: pushes and pulls against loopback servers,
//! faults, secrets, hostile input, and the agreement of lint and push.

#[path = "../common/mod.rs"]
mod common;

mod agreement;
mod answers;
mod echo;
mod encodings;
mod faults;
mod hostile;
mod lines;
mod load;
mod oauth;
mod operation_security;
mod parameters;
mod pull;
mod push;
mod query_reference;
mod refusals;
mod request_check;
mod secrets;
mod soak;
mod url_safety;
mod vendor_errors;
