//! Secrets that never leave the process.
//!
//! Masking by *name* (a header called `Authorization`, a member called `password`) misses a
//! server that echoes a credential somewhere else: in `WWW-Authenticate`, in a text error page,
//! in a JSON member called `detail`. This crate masks by *value*:
//!
//! - [`Secret`] is the one type every credential of the process is held in (OAuth2 access and
//!   refresh tokens, client secrets, the platform password, static bearer tokens). Creating one
//!   registers its value, and the forms it takes when written out (JSON-escaped,
//!   percent-encoded), with a process-wide registry; the last clone dropped removes them.
//! - [`redact`] replaces every registered value in a text with [`MASK`]. With nothing
//!   registered, or nothing found, it returns the text borrowed, without allocating.
//! - [`bound`] and [`shown`] cut a text to a bounded prefix and say so, so that a huge answer
//!   cannot swamp a message, a log line or a state file.
//!
//! Everything the engine, the worker and the command line show (audit trails, error messages,
//! stored errors, log lines, printed output) passes through [`redact`] at its boundary.
//!
//! Values shorter than [`MIN_LEN`] bytes are not registered: masking every occurrence of a
//! two-letter string would destroy the output without protecting anything (such a value is
//! guessed faster than it is leaked).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bound;
mod registry;
mod secret;

pub use bound::{MAX_SHOWN, bound, shown, shown_bytes, shown_within};
pub use registry::{redact, redact_json, registered_count};
pub use secret::{Secret, basic_auth};

/// What a secret is replaced with.
pub const MASK: &str = "***";

/// The shortest value masked by value, in bytes. Shorter values are still hidden by name (a
/// `password` member, an `Authorization` header) but not searched for in free text.
pub const MIN_LEN: usize = 4;
