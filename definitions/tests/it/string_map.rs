//! Offsets inside a string's decoded value map back to the file, in every scalar style.

use std::path::Path;

use syncdef_definitions::load::{Document, LoadOptions, load_path};
use syncdef_definitions::string_map::{map_offset, map_range};
use syncdef_definitions::{ScalarStyle, Span};

fn doc(name: &str) -> Document {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    load_path(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}", e.render()))
}

struct Scalar<'a> {
    doc: &'a Document,
    value: String,
    span: Span,
    style: ScalarStyle,
}

fn scalar<'a>(doc: &'a Document, pointer: &str) -> Scalar<'a> {
    let node = doc
        .root()
        .pointer(pointer)
        .unwrap_or_else(|| panic!("no {pointer}"));
    let s = node
        .as_string()
        .unwrap_or_else(|| panic!("{pointer} is not a string"));
    Scalar {
        doc,
        value: s.value.to_string(),
        span: node.span,
        style: s.style,
    }
}

impl Scalar<'_> {
    fn file_text(&self, offset: usize) -> &str {
        let span = map_offset(self.doc.source.text(), self.span, self.style, offset);
        self.doc.source.slice(span)
    }

    /// Every non-whitespace character of the value maps to itself in the file.
    fn assert_exact(&self) {
        for (i, c) in self.value.char_indices() {
            if !c.is_whitespace() {
                assert_eq!(
                    self.file_text(i),
                    c.to_string(),
                    "offset {i} of {:?} ({:?})",
                    self.value,
                    self.style
                );
            }
        }
    }

    fn offset_of(&self, needle: &str) -> usize {
        self.value
            .find(needle)
            .unwrap_or_else(|| panic!("{needle:?} not in {:?}", self.value))
    }

    fn line_col_of(&self, needle: &str) -> (u32, u32) {
        let span = map_offset(
            self.doc.source.text(),
            self.span,
            self.style,
            self.offset_of(needle),
        );
        let lc = self.doc.source.line_col(span.start);
        (lc.line, lc.column)
    }
}

#[test]
fn plain_scalars_map_exactly() {
    let d = doc("templates.yaml");
    let s = scalar(&d, "/plain");
    assert_eq!(s.style, ScalarStyle::Plain);
    s.assert_exact();
    assert_eq!(s.line_col_of("#valueof"), (1, 15));
    let m = scalar(&d, "/plain_multiline");
    assert_eq!(m.value, "alpha beta gamma   delta\nepsilon");
    m.assert_exact();
    assert_eq!(m.line_col_of("gamma"), (3, 3));
    assert_eq!(m.line_col_of("epsilon"), (5, 3));
}

#[test]
fn single_quoted_scalars_map_exactly() {
    let d = doc("templates.yaml");
    let s = scalar(&d, "/single");
    assert_eq!(s.value, "it's {\"k\": \"#valueof($.a)\"} next line");
    assert_eq!(s.line_col_of("#valueof"), (6, 23));
    assert_eq!(s.line_col_of("next"), (7, 3));
    // The doubled quote is one character of the value, two in the file.
    assert_eq!(s.file_text(s.offset_of("'")), "''");
}

#[test]
fn double_quoted_escapes_map_to_the_escape() {
    let d = doc("templates.yaml");
    let s = scalar(&d, "/double");
    assert_eq!(s.value, "tab\there \"q\" é é A end foldedjoined");
    assert_eq!(s.file_text(s.offset_of("\t")), "\\t");
    assert_eq!(s.file_text(s.offset_of("\"")), "\\\"");
    assert_eq!(s.file_text(s.offset_of("A")), "\\x41");
    let second_e = s.value.rfind('é').unwrap_or(0);
    assert_eq!(s.file_text(second_e), "\\u00e9");
    assert_eq!(s.line_col_of("end"), (8, 40));
    assert_eq!(s.line_col_of("joined"), (10, 3));
}

#[test]
fn literal_block_maps_exactly_with_deeper_indentation() {
    let d = doc("templates.yaml");
    let s = scalar(&d, "/literal");
    assert_eq!(s.style, ScalarStyle::Literal);
    s.assert_exact();
    assert_eq!(s.line_col_of("#valueof"), (13, 21));
    assert_eq!(s.line_col_of("\"deeper\""), (14, 7));
    assert_eq!(s.line_col_of("ü"), (15, 11));
    let d2 = scalar(&d, "/keep_indent/nested");
    d2.assert_exact();
    assert_eq!(d2.line_col_of("#valueof"), (24, 16));
}

#[test]
fn folded_block_maps_exactly_outside_blank_lines() {
    let d = doc("templates.yaml");
    let s = scalar(&d, "/folded");
    assert_eq!(s.value, "{\"a\": \"#valueof($.b)\"}\n{\"c\": 1}");
    s.assert_exact();
    assert_eq!(s.line_col_of("#valueof"), (19, 4));
    assert_eq!(s.line_col_of("{\"c\""), (21, 3));
}

#[test]
fn json_strings_map_escapes_and_plain_text() {
    let d = doc("templates.json");
    let s = scalar(&d, "/t");
    assert_eq!(s.style, ScalarStyle::Json);
    assert_eq!(s.file_text(s.offset_of("#valueof")), "#");
    assert_eq!(s.line_col_of("#valueof"), (2, 19));
    assert_eq!(s.file_text(s.offset_of("é")), "\\u00e9");
    assert_eq!(s.file_text(s.offset_of("😀")), "\\ud83d\\ude00");
    // `\\` in the file is one backslash in the value.
    assert_eq!(s.file_text(s.offset_of("\\")), "\\\\");
    // Text after escapes still lands on the right column.
    assert_eq!(s.line_col_of("tail"), (2, 105));
    scalar(&d, "/plain").assert_exact();
}

#[test]
fn ranges_and_the_end_of_the_value() {
    let d = doc("templates.json");
    let s = scalar(&d, "/plain");
    let start = s.offset_of("#valueof");
    let span = map_range(
        d.source.text(),
        s.span,
        s.style,
        start..start + "#valueof($.account.name)".len(),
    );
    assert_eq!(d.source.slice(span), "#valueof($.account.name)");
    // Past the end: an empty span before the closing quote.
    let end = map_offset(d.source.text(), s.span, s.style, s.value.len() + 10);
    assert!(end.is_empty());
    assert_eq!(end.start, s.span.end - 1);
}
