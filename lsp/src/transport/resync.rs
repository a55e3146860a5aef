//! Finding the next frame after one that could not be read: its length was not a number, or
//! did not match its body, so where the next frame starts is unknown. The input is skipped up
//! to the next `Content-Length:` (in any case), wherever it stands: a body has no line end
//! after it, so the next header follows it on the same line.
//!
//! The scan keeps nothing but the first bytes it skipped (for the log), so skipping any
//! amount of garbage costs no memory.

use std::io::{self, BufRead};

use super::shown::SHOWN;

/// The header every frame has, lowercase: what a resynchronisation looks for.
pub const CONTENT_LENGTH: &[u8] = b"content-length:";

/// What a scan skipped.
pub struct Skipped {
    /// Bytes skipped before the header (or before the end of the input).
    pub count: u64,
    /// The first of them, for the log.
    pub start: Vec<u8>,
    /// Whether a header was found; the input then stands just past its `Content-Length:`.
    pub found: bool,
}

/// Skips up to and including the next `Content-Length:`, or to the end of the input.
pub fn skip_to_header(input: &mut impl BufRead) -> io::Result<Skipped> {
    let mut skipped = Skipped {
        count: 0,
        start: Vec::new(),
        found: false,
    };
    // Pattern bytes matched so far, possibly at the end of the previous buffer. The pattern's
    // first byte occurs nowhere else in it, so a mismatch restarts at the current byte.
    let mut matched = 0;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(skipped);
        }
        let (used, found) = scan(buffer, &mut matched);
        let keep = SHOWN.saturating_sub(skipped.start.len()).min(used);
        skipped.start.extend_from_slice(&buffer[..keep]);
        skipped.count += used as u64;
        input.consume(used);
        if found {
            skipped.count -= CONTENT_LENGTH.len() as u64;
            skipped
                .start
                .truncate(usize::try_from(skipped.count).unwrap_or(SHOWN));
            skipped.found = true;
            return Ok(skipped);
        }
    }
}

/// Advances `matched` over `buffer`: the bytes used, and whether the pattern completed (then
/// the bytes used end with it).
fn scan(buffer: &[u8], matched: &mut usize) -> (usize, bool) {
    let mut at = 0;
    while at < buffer.len() {
        if *matched == 0 {
            // Jump to the next possible start of the pattern.
            match memchr::memchr2(b'c', b'C', &buffer[at..]) {
                Some(i) => at += i,
                None => return (buffer.len(), false),
            }
        }
        if buffer[at].to_ascii_lowercase() == CONTENT_LENGTH[*matched] {
            *matched += 1;
            at += 1;
            if *matched == CONTENT_LENGTH.len() {
                *matched = 0;
                return (at, true);
            }
        } else if *matched > 0 {
            // Retry this byte as a start.
            *matched = 0;
        } else {
            at += 1;
        }
    }
    (at, false)
}

/// Where `CONTENT_LENGTH` (in any case) starts in `bytes`.
pub fn find_header(bytes: &[u8]) -> Option<usize> {
    let mut matched = 0;
    let (used, found) = scan(bytes, &mut matched);
    found.then(|| used - CONTENT_LENGTH.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip(input: &[u8], capacity: usize) -> (Skipped, Vec<u8>) {
        let mut reader = io::BufReader::with_capacity(capacity, input);
        let skipped = skip_to_header(&mut reader).expect("in-memory reads succeed");
        let mut rest = Vec::new();
        io::Read::read_to_end(&mut reader, &mut rest).expect("in-memory reads succeed");
        (skipped, rest)
    }

    #[test]
    fn finds_the_header_across_buffer_ends_in_any_case() {
        for capacity in [1, 2, 3, 7, 64] {
            let (s, rest) = skip(b"{\"a\":1}ccontent-lContent-LENGTH: 5\r\n", capacity);
            assert!(s.found, "{capacity}");
            assert_eq!(s.count, 17, "{capacity}");
            assert_eq!(s.start, b"{\"a\":1}ccontent-l", "{capacity}");
            assert_eq!(rest, b" 5\r\n", "{capacity}");
        }
    }

    #[test]
    fn without_a_header_everything_is_skipped_and_little_kept() {
        let garbage = vec![b'c'; 100_000];
        let (s, rest) = skip(&garbage, 4096);
        assert!(!s.found);
        assert_eq!(s.count, 100_000);
        assert_eq!(s.start.len(), SHOWN);
        assert!(rest.is_empty());
    }

    #[test]
    fn finds_a_header_inside_bytes() {
        assert_eq!(find_header(b"xx}content-length: 3"), Some(3));
        assert_eq!(find_header(b"Content-Length: 3"), Some(0));
        assert_eq!(find_header(b"{\"content\":1}"), None);
    }
}
