//! `partialFingerprints`: how GitHub code scanning recognises a finding from one run to the
//! next, so that an alert is not closed and reopened when the file changes around it.
//!
//! The fingerprint hashes what identifies the finding, never where it is: the rule, the file
//! (relative to the source root), the JSON pointer of the node at fault, and the message with
//! its whitespace normalised. Without a pointer (a syntax error), the text at fault stands in
//! for it. Findings alike in all of that are told apart by their order in the file.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use crate::diagnostic::Diagnostic;

/// The key under `partialFingerprints`; the version changes if the hashed fields ever do, so
/// that old and new fingerprints are never compared as equals.
pub const FINGERPRINT_KEY: &str = "syncdefFingerprint/v1";

/// Fingerprints of one run's results, in report order.
#[derive(Default)]
pub(super) struct Fingerprints {
    /// How many results so far had each identity, for the ordinal of the next one.
    seen: HashMap<String, u32>,
}

impl Fingerprints {
    /// The fingerprint of `diagnostic`, whose file the run names `file`.
    pub(super) fn next(&mut self, diagnostic: &Diagnostic, file: &str) -> String {
        let identity = identity(diagnostic, file);
        let count = self.seen.entry(identity.clone()).or_default();
        *count += 1;
        let mut hasher = Sha256::new();
        hasher.update(identity.as_bytes());
        hasher.update(count.to_string().as_bytes());
        hex(&hasher.finalize()[..16])
    }
}

/// The fields that identify a finding, separated by a byte no field contains.
fn identity(diagnostic: &Diagnostic, file: &str) -> String {
    let place = match &diagnostic.pointer {
        Some(pointer) => pointer.clone(),
        None => normalize(diagnostic.file.slice(diagnostic.span)),
    };
    [
        diagnostic.code(),
        file,
        &place,
        &normalize(&diagnostic.message),
        "",
    ]
    .join("\u{0}")
}

/// Whitespace runs as one space, trimmed: re-wrapping a message is not a new finding.
fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}
