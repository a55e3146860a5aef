//! The escapes of a JSON string (RFC 8259 §7): what the loader decodes strings with, and what
//! a reader of raw JSON outside it (the language server's `didOpen`) decodes them with.

/// What is wrong with an escape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EscapeError {
    /// A backslash followed by a character that is no escape (or by nothing).
    Unknown,
    /// A `\u` lacks its four hexadecimal digits.
    NotHex {
        /// The offset of that `\u`'s backslash (the second of a surrogate pair's, when it
        /// is that one's digits that are missing).
        at: usize,
    },
    /// A UTF-16 surrogate without its pair.
    LoneSurrogate,
}

/// The character the escape at `at` of `bytes` (a backslash) stands for, and the offset just
/// after it: `\n` is two bytes, `\u00e9` six, a surrogate pair (`\ud83d\ude00`) twelve.
///
/// # Errors
/// The escape is unknown, a `\u` lacks its digits, or a surrogate lacks its pair.
pub fn decode(bytes: &[u8], at: usize) -> Result<(char, usize), EscapeError> {
    let c = match bytes.get(at + 1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return unicode(bytes, at),
        _ => return Err(EscapeError::Unknown),
    };
    Ok((c, at + 2))
}

/// The `\u` escape at `at`, with the second half of a surrogate pair.
fn unicode(bytes: &[u8], at: usize) -> Result<(char, usize), EscapeError> {
    let first = hex4(bytes, at)?;
    if (0xD800..0xDC00).contains(&first) {
        // A high surrogate must be followed by `\u` and a low surrogate.
        if bytes.get(at + 6) == Some(&b'\\') && bytes.get(at + 7) == Some(&b'u') {
            let second = hex4(bytes, at + 6)?;
            if (0xDC00..0xE000).contains(&second) {
                let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                if let Some(c) = char::from_u32(c) {
                    return Ok((c, at + 12));
                }
            }
        }
        return Err(EscapeError::LoneSurrogate);
    }
    char::from_u32(first)
        .map(|c| (c, at + 6))
        .ok_or(EscapeError::LoneSurrogate)
}

/// The four hexadecimal digits after the `\u` at `at`.
fn hex4(bytes: &[u8], at: usize) -> Result<u32, EscapeError> {
    bytes
        .get(at + 2..at + 6)
        .filter(|d| d.iter().all(u8::is_ascii_hexdigit))
        .map(|d| {
            d.iter().fold(0, |acc, &b| {
                acc * 16 + (b as char).to_digit(16).unwrap_or(0)
            })
        })
        .ok_or(EscapeError::NotHex { at })
}

#[cfg(test)]
mod tests {
    use super::{EscapeError, decode};

    #[test]
    fn escapes_decode_to_their_character_and_length() {
        assert_eq!(decode(br"\n", 0), Ok(('\n', 2)));
        assert_eq!(decode(br"x\u00e9", 1), Ok(('é', 7)));
        assert_eq!(decode(br"\ud83d\ude00", 0), Ok(('\u{1F600}', 12)));
        assert_eq!(decode(br"\x", 0), Err(EscapeError::Unknown));
        assert_eq!(decode(br"\", 0), Err(EscapeError::Unknown));
        assert_eq!(decode(br"\u12", 0), Err(EscapeError::NotHex { at: 0 }));
        assert_eq!(
            decode(br"\ud83d\u12", 0),
            Err(EscapeError::NotHex { at: 6 })
        );
        assert_eq!(decode(br"\ud800x", 0), Err(EscapeError::LoneSurrogate));
        assert_eq!(decode(br"\udc00", 0), Err(EscapeError::LoneSurrogate));
    }
}
