//! Byte offsets (what the linter's spans hold) to and from LSP positions (line and UTF-16
//! code unit, which is what every LSP client counts by default).
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as LSP 3.17 says; a position past the end of its
//! line means the end of the line, and a line past the end of the text means the end of the
//! text, so an edit from a client that is one step ahead never panics.

use lsp_types::{Position, Range};
use syncdef_definitions::LineIndex;

/// Where the lines of one text start: the linter's own line index (every 16th line's start,
/// the lines between found from it when asked for), so that both read lines by one rule.
#[derive(Clone, Debug)]
pub struct LineMap {
    /// Its starts only: columns here count UTF-16 units, not the bytes the index's ASCII
    /// fast path counts, so the pass over the text that enables it is not made at every
    /// change.
    index: LineIndex,
}

impl LineMap {
    /// The line starts of `text`.
    #[must_use]
    pub fn new(text: &str) -> LineMap {
        LineMap {
            index: LineIndex::starts_of(text),
        }
    }

    /// Where line `line` of `text` starts.
    fn start(&self, text: &str, line: usize) -> Option<usize> {
        let line = u32::try_from(line.checked_add(1)?).ok()?;
        self.index.line_start(text, line).map(|s| s as usize)
    }

    /// The LSP position of byte `offset` of `text` (clamped to the text, and back to the
    /// start of a character it falls inside).
    #[must_use]
    pub fn position(&self, text: &str, offset: usize) -> Position {
        // From the index's mark before the offset, not from the line's start: on a line of
        // megabytes (a minified document) with a diagnostic every few bytes, counting from the
        // line's start for each made the diagnostics quadratic.
        let (line, character) = self.index.line_utf16(text, to_u32(offset));
        Position::new(to_u32(line), character)
    }

    /// The LSP range of the bytes `start..end` of `text`.
    #[must_use]
    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(self.position(text, start), self.position(text, end))
    }

    /// The byte offset of `position` in `text`: a character past the end of its line is the
    /// end of the line (before its line break), a line past the last is the end of the text,
    /// and a position inside a surrogate pair is the start of that character.
    #[must_use]
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(start) = self.start(text, position.line as usize) else {
            return text.len();
        };
        let end = self.line_content_end(text, position.line as usize);
        let mut units = 0usize;
        for (i, c) in text[start..end].char_indices() {
            if units + c.len_utf16() > position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    /// The end of line `line`'s content: before its `\n`, `\r\n` or `\r`.
    fn line_content_end(&self, text: &str, line: usize) -> usize {
        let end = self.start(text, line + 1).unwrap_or(text.len());
        let start = self.start(text, line).unwrap_or(0);
        let content = &text.as_bytes()[..end];
        let mut at = end;
        if at > start && content.get(at - 1) == Some(&b'\n') {
            at -= 1;
        }
        if at > start && content.get(at - 1) == Some(&b'\r') {
            at -= 1;
        }
        at
    }
}

/// `offset`, or the start of the character it falls inside.
#[must_use]
pub fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// LSP counts in `u32`; a text the loader accepts (under 4 GiB) always fits.
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_utf16_units_not_bytes_or_chars() {
        // `é` is two bytes and one unit; `𝄞` four bytes and two units (a surrogate pair).
        let text = "a: é𝄞x\nb: 1\n";
        let map = LineMap::new(text);
        let x = text.find('x').expect("x");
        assert_eq!(map.position(text, x), Position::new(0, 6));
        assert_eq!(map.offset(text, Position::new(0, 6)), x);
        let b = text.find('b').expect("b");
        assert_eq!(map.position(text, b), Position::new(1, 0));
        assert_eq!(map.offset(text, Position::new(1, 0)), b);
    }

    #[test]
    fn a_position_inside_a_surrogate_pair_is_the_start_of_its_character() {
        let text = "𝄞z";
        let map = LineMap::new(text);
        assert_eq!(map.offset(text, Position::new(0, 1)), 0);
        assert_eq!(map.offset(text, Position::new(0, 2)), 4);
    }

    #[test]
    fn positions_past_a_line_or_the_text_are_clamped() {
        let text = "ab\r\ncd\ref";
        let map = LineMap::new(text);
        assert_eq!(map.offset(text, Position::new(0, 99)), 2);
        assert_eq!(map.offset(text, Position::new(1, 1)), 5);
        assert_eq!(map.offset(text, Position::new(2, 1)), 8);
        assert_eq!(map.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(map.position(text, 8), Position::new(2, 1));
        assert_eq!(map.position(text, 999), Position::new(2, 2));
    }

    #[test]
    fn a_large_texts_line_starts_take_a_byte_a_line() {
        let text = "key: value\n".repeat(100_000);
        let map = LineMap::new(&text);
        assert_eq!(map.index.line_count(), 100_001);
        // A mark (20 bytes: an offset, its line, its line's start and two columns) for every
        // 16th line start.
        assert_eq!(map.index.heap_size(), 6_251 * 20);
        assert_eq!(map.offset(&text, Position::new(99_999, 3)), 99_999 * 11 + 3);
        assert_eq!(
            map.position(&text, 99_999 * 11 + 3),
            Position::new(99_999, 3)
        );
    }

    proptest::proptest! {
        /// Every offset and every position reads as it does with a start for every line.
        #[test]
        fn positions_agree_with_every_line_start(text in "([ab]{0,2}(\n|\r\n|\r)){0,40}[ab]{0,2}") {
            let map = LineMap::new(&text);
            let starts: Vec<usize> = syncdef_definitions::source::line_starts(&text).collect();
            for offset in 0..=text.len() + 1 {
                let at = offset.min(text.len());
                let line = starts.partition_point(|&s| s <= at) - 1;
                let position = map.position(&text, offset);
                proptest::prop_assert_eq!(position.line as usize, line);
                proptest::prop_assert_eq!(position.character as usize, at - starts[line]);
            }
            for (line, &start) in starts.iter().enumerate() {
                proptest::prop_assert_eq!(map.offset(&text, Position::new(u32::try_from(line).unwrap_or(0), 0)), start);
            }
            proptest::prop_assert_eq!(map.offset(&text, Position::new(u32::try_from(starts.len()).unwrap_or(0), 0)), text.len());
        }
    }

    #[test]
    fn lines_ended_by_newlines_alone_start_where_those_with_carriage_returns_do() {
        // Both texts go through the linter's line rule: `\r\n` is one line end, not two.
        let plain = "\na: 1\n\nb: é\nc\n";
        let crlf = plain.replace('\n', "\r\n");
        let starts = |text: &str| {
            let map = LineMap::new(text);
            (0..map.index.line_count())
                .filter_map(|l| map.start(text, l))
                .collect::<Vec<_>>()
        };
        assert_eq!(starts(plain), [0, 1, 6, 7, 13, 15]);
        assert_eq!(starts(&crlf), [0, 2, 8, 10, 17, 20]);
    }
}
