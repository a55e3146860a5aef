//! saphyr reports positions as character indices; spans are byte offsets.

#![expect(
    clippy::cast_possible_truncation,
    reason = "offsets, lengths and counts here are bounded by one source file's size, and the loader refuses files of 1 GiB or more (`LoadErrorKind::TooLarge`), so they fit the `u32` of spans"
)]

/// Converts saphyr's character indices into byte offsets.
///
/// Event positions arrive almost in order, so a cursor that walks from the previous position
/// costs O(1) amortized per event; ASCII texts skip the walk entirely.
pub(super) struct CharToByte<'a> {
    text: &'a str,
    ascii: bool,
    chars: usize,
    bytes: usize,
}

impl<'a> CharToByte<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        CharToByte {
            text,
            ascii: text.is_ascii(),
            chars: 0,
            bytes: 0,
        }
    }

    pub(super) fn byte(&mut self, char_index: usize) -> u32 {
        if self.ascii {
            return char_index.min(self.text.len()) as u32;
        }
        while self.chars < char_index {
            match self.text[self.bytes..].chars().next() {
                Some(c) => {
                    self.bytes += c.len_utf8();
                    self.chars += 1;
                }
                None => break,
            }
        }
        while self.chars > char_index {
            match self.text[..self.bytes].chars().next_back() {
                Some(c) => {
                    self.bytes -= c.len_utf8();
                    self.chars -= 1;
                }
                None => break,
            }
        }
        self.bytes as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_offsets() {
        let text = "é: €x";
        let mut c = CharToByte::new(text);
        assert_eq!(c.byte(3), 4);
        assert_eq!(c.byte(4), 7);
        assert_eq!(c.byte(1), 2);
        assert_eq!(c.byte(99), text.len() as u32);
    }
}
