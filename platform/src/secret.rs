//! The credential type: one for the whole workspace, in `syncdef-secrets`, so that the
//! platform's client secret and password, and its access tokens, are registered for redaction
//! by value wherever they would otherwise be shown (docs/platform-client.md).

pub use syncdef_secrets::Secret;
