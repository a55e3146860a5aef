//! Bounded text: what an error message, a log line, a stored error or an audit trail keeps of
//! an answer that may be huge. A 50 MB error page copied into every message, log line and
//! state row would make a state file and a `sync status` of hundreds of megabytes.

use std::borrow::Cow;

use crate::redact;

/// The most bytes of one text shown: an error message, one of a push's `errors`, a stored
/// error, the text of a response body in the audit trail.
pub const MAX_SHOWN: usize = 64 * 1024;

/// `text` cut to at most `max` bytes (on a character boundary), with a note saying it was cut
/// and how large the whole was. Borrowed when it fits.
#[must_use]
pub fn bound(text: &str, max: usize) -> Cow<'_, str> {
    bound_of(Cow::Borrowed(text), text.len(), max, false)
}

/// `text` as it may be shown: secrets [redacted](redact), then [`bound`] to [`MAX_SHOWN`]
/// bytes. Borrowed when nothing is changed.
#[must_use]
pub fn shown(text: &str) -> Cow<'_, str> {
    shown_within(text, MAX_SHOWN)
}

/// [`shown`] with another bound. Redaction comes first, on the whole text, so that a cut can
/// never leave the beginning of a secret visible.
#[must_use]
pub fn shown_within(text: &str, max: usize) -> Cow<'_, str> {
    bound_of(redact(text), text.len(), max, false)
}

/// The first bytes of a body, as text that may be shown: at most `max` bytes, secrets
/// redacted, with the note of [`bound`] giving the body's whole size when it was cut. Only a
/// head of the body is decoded, so a 50 MB answer is not copied to show 4 KiB of it.
#[must_use]
pub fn shown_bytes(bytes: &[u8], max: usize) -> String {
    // Longer than any secret: a secret that begins before `max` ends inside the head, and is
    // redacted whole.
    const SLACK: usize = 4096;
    let head = &bytes[..bytes.len().min(max.saturating_add(SLACK))];
    let text = String::from_utf8_lossy(head);
    let cut = head.len() < bytes.len();
    bound_of(redact(&text), bytes.len(), max, cut).into_owned()
}

/// Cuts `text` so that it and its note take at most `max` bytes (when `max` leaves room for
/// the note at all). The note is inside the bound so that bounding again changes nothing: a
/// stored error read back, or a message quoted in another, keeps its note.
fn bound_of(text: Cow<'_, str>, total: usize, max: usize, cut: bool) -> Cow<'_, str> {
    if text.len() <= max && !cut {
        return text;
    }
    let note = |end: usize| format!("… [cut: the first {end} bytes shown; {total} bytes in all]");
    // The note for `max` is at least as long as the note for any shorter prefix.
    let mut end = max.saturating_sub(note(max).len()).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned([&text[..end], &note(end)].concat())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;

    #[test]
    fn short_text_is_kept() {
        assert!(matches!(bound("short", 10), Cow::Borrowed("short")));
    }

    #[test]
    fn long_text_is_cut_with_a_note_inside_the_bound() {
        let text = "é".repeat(100);
        let cut = bound(&text, 80);
        assert_eq!(
            cut,
            "ééééééééééééé… [cut: the first 26 bytes shown; 200 bytes in all]"
        );
        assert!(cut.len() <= 80);
        // Bounding again changes nothing.
        assert!(matches!(bound(&cut, 80), Cow::Borrowed(_)));
    }

    #[test]
    fn bytes_are_decoded_only_as_far_as_shown() {
        let body = vec![b'x'; 10_000_000];
        let shown = shown_bytes(&body, 100);
        assert_eq!(
            shown,
            format!(
                "{}… [cut: the first 41 bytes shown; 10000000 bytes in all]",
                "x".repeat(41)
            )
        );
        assert_eq!(shown_bytes(b"small", 100), "small");
    }

    #[test]
    fn a_cut_never_shows_part_of_a_secret() {
        let _s = Secret::new("cut-secret-1234567890");
        // The cut falls inside the secret: redaction comes first.
        let text = format!("{}cut-secret-1234567890{}", "x".repeat(5), "y".repeat(100));
        let shown = shown_within(&text, 64);
        assert!(shown.len() <= 64, "{shown}");
        assert!(!shown.contains("cut-sec"), "{shown}");
        assert!(shown.contains("126 bytes in all"), "{shown}");
    }
}
