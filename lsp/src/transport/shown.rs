//! Bytes of the input quoted in a message: a short, escaped prefix, so that a 20 MB line does
//! not come back whole inside an error, and control bytes do not reach a log as they are.

/// The most bytes of the input a message quotes.
pub const SHOWN: usize = 64;

/// The first [`SHOWN`] bytes of `bytes`, escaped, in backticks; a longer text is marked as
/// cut, with its length.
pub fn shown(bytes: &[u8]) -> String {
    let cut = bytes.len() > SHOWN;
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN)]);
    let escaped: String = head.chars().flat_map(char::escape_debug).collect();
    if cut {
        format!("`{escaped}`… ({} bytes)", bytes.len())
    } else {
        format!("`{escaped}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_and_control_bytes_escaped() {
        let long = [b"a\r\n\x1b".as_slice(), &[b'x'; 200]].concat();
        let s = shown(&long);
        assert!(s.starts_with("`a\\r\\n\\u{1b}xxx"), "{s}");
        assert!(s.ends_with("… (204 bytes)"), "{s}");
        assert!(s.len() < 100, "{s}");
        assert_eq!(shown(b"abc"), "`abc`");
    }
}
