//! The credential type: one for the whole workspace, in `syncdef-secrets`, so that every token
//! and client secret the engine holds is registered for redaction by value (see
//! docs/engine.md, "What is masked").

pub use syncdef_secrets::Secret;
