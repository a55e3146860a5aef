//! Finding the end of a JSON string's plain run: the first `"`, `\` or control character.
//!
//! Most of a large description's bytes are inside strings (GitHub's and Microsoft Graph's
//! descriptions are long texts), and most strings have no escape, so this scan is the
//! loader's innermost loop. Eight bytes are tested at once as one `u64` (no `unsafe`, no
//! target features); the bytes after the last whole word are tested one by one.

/// Eight copies of `b`.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

const LOW_BITS: u64 = splat(0x01);
const HIGH_BITS: u64 = splat(0x80);

/// Whether `b` ends a plain run of a JSON string.
#[inline]
fn stops(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Whether any byte of `word` is `"`, `\` or below 0x20. Exact as a yes or no (the classic
/// "has a zero byte" test on `word ^ splat(c)`, and "has a byte less than n" for n = 0x20):
/// which byte it is, the caller finds by looking at the word's bytes.
#[inline]
fn word_stops(word: u64) -> bool {
    let has_zero = |x: u64| x.wrapping_sub(LOW_BITS) & !x & HIGH_BITS;
    let below_space = word.wrapping_sub(splat(0x20)) & !word & HIGH_BITS;
    (has_zero(word ^ splat(b'"')) | has_zero(word ^ splat(b'\\')) | below_space) != 0
}

/// The offset of the first byte at or after `from` that is `"`, `\` or a control character,
/// or `bytes.len()` when there is none.
pub(super) fn plain_run_end(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    let Some(rest) = bytes.get(from..) else {
        return bytes.len();
    };
    let mut words = rest.chunks_exact(8);
    for chunk in &mut words {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        if word_stops(u64::from_ne_bytes(word)) {
            break;
        }
        at += 8;
    }
    // The word that stopped (or the tail shorter than a word), byte by byte.
    bytes
        .get(at..)
        .and_then(|tail| tail.iter().position(|&b| stops(b)))
        .map_or(bytes.len(), |i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn byte_by_byte(bytes: &[u8], from: usize) -> usize {
        (from..bytes.len())
            .find(|&i| stops(bytes[i]))
            .unwrap_or(bytes.len())
    }

    #[test]
    fn every_byte_value_in_every_position_of_a_word() {
        for b in 0..=255u8 {
            for at in 0..20 {
                let mut bytes = vec![b'a'; 24];
                bytes[at] = b;
                for from in [0, 1, at] {
                    assert_eq!(
                        plain_run_end(&bytes, from),
                        byte_by_byte(&bytes, from),
                        "byte {b:#04x} at {at}, from {from}"
                    );
                }
            }
        }
    }

    #[test]
    fn past_the_end_is_the_end() {
        assert_eq!(plain_run_end(b"abc", 3), 3);
        assert_eq!(plain_run_end(b"abc", 7), 3);
        assert_eq!(plain_run_end(b"", 0), 0);
    }

    proptest! {
        #[test]
        fn agrees_with_a_byte_by_byte_scan(bytes in proptest::collection::vec(any::<u8>(), 0..80), from in 0usize..90) {
            prop_assert_eq!(plain_run_end(&bytes, from), byte_by_byte(&bytes, from));
        }

        #[test]
        fn agrees_on_text_with_rare_stops(text in "[a-z\u{e9}\u{4e2d} ]{0,60}[\"\\\\\n]?[a-z]{0,20}", from in 0usize..8) {
            let bytes = text.as_bytes();
            prop_assert_eq!(plain_run_end(bytes, from), byte_by_byte(bytes, from));
        }
    }
}
