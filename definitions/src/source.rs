//! Source files, byte spans and the line index that turns offsets into lines and columns.
//!
//! Everything in this crate is located by byte [`Span`]s (like ruff's `TextRange`); lines and
//! columns are computed only when a location is shown, through the [`LineIndex`] a
//! [`SourceFile`] builds once.

#![expect(
    clippy::cast_possible_truncation,
    reason = "offsets, lengths and counts here are bounded by one source file's size, and the loader refuses files of 1 GiB or more (`LoadErrorKind::TooLarge`), so they fit the `u32` of spans"
)]

use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

/// A half-open byte range `start..end` into a [`SourceFile`]'s text.
///
/// `u32` offsets keep nodes small; files over 4 GiB are refused by the loader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte of the range.
    pub start: u32,
    /// One past the last byte of the range.
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end` (byte offsets).
    #[must_use]
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

    /// An empty span at `offset`, for things located between characters (end of input).
    #[must_use]
    pub const fn empty(offset: u32) -> Self {
        Span {
            start: offset,
            end: offset,
        }
    }

    /// Length in bytes.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no byte.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// Whether `offset` lies inside the span.
    #[must_use]
    pub const fn contains(self, offset: u32) -> bool {
        self.start <= offset && offset < self.end
    }

    /// The smallest span covering both.
    #[must_use]
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The span as a `usize` range, for slicing the source text.
    #[must_use]
    pub const fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        miette::SourceSpan::new((span.start as usize).into(), span.len() as usize)
    }
}

/// A 1-based line and a 1-based column counted in characters (not bytes), as editors show them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineCol {
    /// Line number, starting at 1.
    pub line: u32,
    /// Column in Unicode scalar values, starting at 1.
    pub column: u32,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Where the lines of a text start, built once per file.
///
/// Lines end at `\n`, at `\r\n` (the `\r` belongs to the line it ends) and at a lone `\r`, so
/// files of every platform get the line numbers editors show. The index keeps marks: the start
/// of every [`LINES_PER_MARK`]th line, and, where the text runs longer than [`MARK_BYTES`]
/// without one, a place at most that far on (inside a long line, with its column). A position
/// is found from the mark before it by scanning at most [`MARK_BYTES`] and [`LINES_PER_MARK`]
/// lines, whatever the shape of the text: a minified document of one line of megabytes with a
/// finding every few bytes costs what the same findings cost over many lines. Positions are
/// wanted for the few places a diagnostic points at, so the index stays small: a start per line
/// would cost 4 bytes a line for as long as the file is linted.
#[derive(Clone, Debug)]
pub struct LineIndex {
    marks: Vec<Mark>,
    lines: usize,
    /// When the whole text is ASCII, a column is a byte difference and needs no decoding.
    ascii: bool,
}

/// A place of the text whose line and column are known.
#[derive(Clone, Copy, Debug)]
struct Mark {
    /// Byte offset, on a character boundary.
    at: u32,
    /// 0-based line holding it.
    line: u32,
    /// Where that line starts.
    line_start: u32,
    /// Characters from the line's start to `at`.
    column: u32,
    /// UTF-16 code units from the line's start to `at` (the language server's columns).
    utf16: u32,
}

/// One line start is kept for this many lines.
const LINES_PER_MARK: usize = 16;

/// The most bytes between two marks, unless one character is longer.
const MARK_BYTES: usize = 1024;

/// The start of the line after the one holding byte `from`, if there is one.
///
/// `memchr2` looks for both line ends a machine word or more at a time: a minified document is
/// one line of megabytes, which a position past its start scans in full.
pub fn next_line_start(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        let found = at + memchr::memchr2(b'\n', b'\r', bytes.get(at..)?)?;
        // A lone `\r` ends a line too (classic Mac OS files; YAML reads it as a line break);
        // the `\r` of `\r\n` belongs to the line that `\n` ends.
        if bytes[found] == b'\n' || bytes.get(found + 1) != Some(&b'\n') {
            return Some(found + 1);
        }
        at = found + 1;
    }
}

/// Where the lines of `text` start, in bytes, the first at 0: after each `\n`, `\r\n` and
/// lone `\r` (the rule every position of the linter and the language server follows).
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    std::iter::successors(Some(0), move |&at| next_line_start(bytes, at))
}

impl LineIndex {
    /// Indexes `text`.
    #[must_use]
    pub fn new(text: &str) -> Self {
        LineIndex {
            ascii: text.is_ascii(),
            ..LineIndex::starts_of(text)
        }
    }

    /// Indexes the lines of `text` alone, for a reader that counts columns its own way (the
    /// language server counts UTF-16 units): without the pass over the text that tells whether
    /// columns are byte differences.
    #[must_use]
    pub fn starts_of(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut marks = vec![Mark {
            at: 0,
            line: 0,
            line_start: 0,
            column: 0,
            utf16: 0,
        }];
        let mut lines = 1;
        let mut start = 0;
        loop {
            let next = next_line_start(bytes, start);
            let end = next.unwrap_or(bytes.len());
            mark_inside(text, &mut marks, start, end, lines - 1);
            let Some(next) = next else { break };
            let last = marks.last().map_or(0, |m| m.at as usize);
            if lines % LINES_PER_MARK == 0 || next - last > MARK_BYTES {
                marks.push(Mark {
                    at: next as u32,
                    line: lines as u32,
                    line_start: next as u32,
                    column: 0,
                    utf16: 0,
                });
            }
            lines += 1;
            start = next;
        }
        marks.shrink_to_fit();
        LineIndex {
            marks,
            lines,
            ascii: false,
        }
    }

    /// Number of lines (a text without a final newline still counts its last line).
    #[must_use]
    pub fn line_count(&self) -> usize {
        self.lines
    }

    /// The bytes the index holds on the heap (its marks).
    #[must_use]
    pub fn heap_size(&self) -> usize {
        self.marks.capacity() * std::mem::size_of::<Mark>()
    }

    /// The mark at or before byte `offset`.
    fn mark_before(&self, offset: u32) -> Mark {
        let at = self.marks.partition_point(|m| m.at <= offset);
        self.marks[at.saturating_sub(1)]
    }

    /// The 0-based line holding byte `offset` of `text` (the text this index was built
    /// from), and where that line starts.
    #[must_use]
    pub fn line_of(&self, text: &str, offset: u32) -> (usize, u32) {
        let anchor = self.anchor(text, offset);
        (anchor.line as usize, anchor.line_start)
    }

    /// The known place nearest before `offset` on its line: the mark before it when no line
    /// starts between them, else the last line start between them (column 0). Every line start
    /// between the mark and `offset` is within [`MARK_BYTES`] of the mark (a later one would be
    /// a mark), so the search stops there.
    fn anchor(&self, text: &str, offset: u32) -> Mark {
        let mut anchor = self.mark_before(offset);
        let bytes = text.as_bytes();
        // One byte past the reach, so that a `\r\n` at its end is read whole.
        let reach = (anchor.at as usize + MARK_BYTES + 1).min(offset as usize + 1);
        let within = &bytes[..bytes.len().min(reach)];
        while let Some(next) = next_line_start(within, anchor.at as usize) {
            if next > offset as usize {
                break;
            }
            anchor = Mark {
                at: next as u32,
                line: anchor.line + 1,
                line_start: next as u32,
                column: 0,
                utf16: 0,
            };
        }
        anchor
    }

    /// The line and column of byte `offset` in `text` (the text this index was built from).
    ///
    /// An offset inside a multi-byte character is reported at that character; an offset past
    /// the end is clamped to the end.
    #[must_use]
    pub fn line_col(&self, text: &str, offset: u32) -> LineCol {
        let offset = offset.min(text.len() as u32);
        let anchor = self.anchor(text, offset);
        let column = if self.ascii {
            offset - anchor.line_start
        } else {
            let prefix = &text.as_bytes()[anchor.at as usize..offset as usize];
            let started = anchor.column + characters_started(prefix);
            // Inside a character, its lead byte is in the prefix: report that character.
            started - u32::from(!text.is_char_boundary(offset as usize))
        };
        LineCol {
            line: anchor.line + 1,
            column: column + 1,
        }
    }

    /// The 0-based line of byte `offset` of `text` (the text this index was built from) and its
    /// column in UTF-16 code units from the line's start, as the language server counts; an
    /// offset inside a character counts from that character's start.
    #[must_use]
    pub fn line_utf16(&self, text: &str, offset: u32) -> (usize, u32) {
        let mut offset = (offset as usize).min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let anchor = self.anchor(text, offset as u32);
        let counted = text[anchor.at as usize..offset].encode_utf16().count() as u32;
        (anchor.line as usize, anchor.utf16 + counted)
    }

    /// Byte offset of the start of 1-based `line` of `text` (the text this index was built
    /// from), if the text has that line.
    #[must_use]
    pub fn line_start(&self, text: &str, line: u32) -> Option<u32> {
        let line = (line as usize).checked_sub(1)?;
        if line >= self.lines {
            return None;
        }
        let at = self.marks.partition_point(|m| (m.line as usize) <= line);
        let mark = self.marks[at.checked_sub(1)?];
        let mut start = mark.line_start as usize;
        for _ in mark.line as usize..line {
            start = next_line_start(text.as_bytes(), start.max(mark.at as usize))?;
        }
        Some(start as u32)
    }
}

/// Marks the stretch `start..end` of line `line` (0-based) every [`MARK_BYTES`] past the last
/// mark, at character boundaries, with their columns.
fn mark_inside(text: &str, marks: &mut Vec<Mark>, start: usize, end: usize, line: usize) {
    let Some(last) = marks.last().copied() else {
        return;
    };
    if end.saturating_sub(last.at as usize) <= MARK_BYTES {
        return;
    }
    let (mut at, mut column, mut utf16) = if last.line_start as usize == start {
        (last.at as usize, last.column, last.utf16)
    } else {
        (start, 0, 0)
    };
    loop {
        let mut next = (marks.last().map_or(0, |m| m.at as usize) + MARK_BYTES).max(at);
        while next < end && !text.is_char_boundary(next) {
            next += 1;
        }
        if next >= end {
            return;
        }
        column += characters_started(&text.as_bytes()[at..next]);
        utf16 += text[at..next].encode_utf16().count() as u32;
        marks.push(Mark {
            at: next as u32,
            line: line as u32,
            line_start: start as u32,
            column,
            utf16,
        });
        at = next;
    }
}

/// The characters that start in `bytes`: every byte that is not a UTF-8 continuation byte.
/// Needs no character boundary at either end.
fn characters_started(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| b.cast_signed() >= -0x40).count() as u32
}

/// A loaded text with its display name and line index; or several files joined into one
/// address space (an overlay and the description it extends).
///
/// Shared behind an `Arc` by the document, its errors and diagnostics. Spans index
/// [`SourceFile::text`]; when files are joined, each occupies its own range of offsets (the
/// first from 0, each next one a byte after the previous one ends), as rustc's `SourceMap`
/// gives each file its range of `BytePos`. Nodes and spans stay what they are; a span is
/// turned back into its file and a position in it only when it is shown
/// ([`SourceFile::file_at`], [`SourceFile::line_col`], [`SourceFile::describe`], miette).
#[derive(Clone)]
pub struct SourceFile {
    name: String,
    text: Text,
    lines: LineIndex,
    /// Where the first file ends: the whole text when it is the only one.
    first_end: u32,
    /// The files after the first, in the order of their ranges (none for one file).
    others: Vec<Part>,
}

/// A file joined after the first one.
#[derive(Clone, Debug)]
struct Part {
    name: String,
    start: u32,
    end: u32,
    lines: LineIndex,
}

/// One file of a [`SourceFile`], with the range of offsets it occupies.
#[derive(Clone, Copy, Debug)]
pub struct FileRef<'a> {
    /// The name shown in locations: the path as the user (or the `extends` of an overlay, or a
    /// `$ref`) wrote it.
    pub name: &'a str,
    /// Its offsets in the joined text: a span inside it is `range.start` plus an offset of
    /// the file's own text.
    pub range: Span,
    /// Its own text.
    pub text: &'a str,
    /// Its line index, over its own text.
    pub lines: &'a LineIndex,
    /// Its position among the joined files (0 for the first).
    pub index: usize,
}

impl FileRef<'_> {
    /// `span` (of the joined text) as a span of this file's own text.
    #[must_use]
    pub fn local(&self, span: Span) -> Span {
        let clamp = |at: u32| at.clamp(self.range.start, self.range.end) - self.range.start;
        Span::new(clamp(span.start), clamp(span.end.max(span.start)))
    }

    /// Line and column of `offset` (of the joined text) in this file.
    #[must_use]
    pub fn line_col(&self, offset: u32) -> LineCol {
        self.lines
            .line_col(self.text, self.local(Span::empty(offset)).start)
    }
}

/// The text of a [`SourceFile`]: its own (a file read, a string handed over), or shared with
/// whoever else holds it (an editor's buffer: one copy of a large text serves the editor,
/// the lint and the features). A `String` behind the `Arc`, not a fixed string: the editor
/// edits its text in place once no definition holds it any more.
#[derive(Clone)]
enum Text {
    Owned(String),
    Shared(Arc<String>),
}

impl Text {
    fn as_str(&self) -> &str {
        match self {
            Text::Owned(text) => text,
            Text::Shared(text) => text,
        }
    }
}

impl fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SourceFile")
            .field("name", &self.name)
            .field("len", &self.text().len())
            .finish_non_exhaustive()
    }
}

impl SourceFile {
    /// A source named `name` (usually the path as the user wrote it) holding `text`.
    #[must_use]
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Self::of(name.into(), Text::Owned(text.into()))
    }

    /// A source named `name` that shares `text` with its other holders instead of copying it.
    #[must_use]
    pub fn shared(name: impl Into<String>, text: Arc<String>) -> Self {
        Self::of(name.into(), Text::Shared(text))
    }

    fn of(name: String, text: Text) -> Self {
        let lines = LineIndex::new(text.as_str());
        let first_end = text.as_str().len() as u32;
        SourceFile {
            name,
            text,
            lines,
            first_end,
            others: Vec::new(),
        }
    }

    /// `files` joined into one address space: the first from offset 0, each next one
    /// starting a byte after the previous one ends (a line break no file holds, so that a
    /// snippet or a scan for a line's end stops at the end of its file). Each keeps its name
    /// and line index; the joined source is named after the first. The loader keeps the
    /// whole below 1 GiB ([`SourceFile::joined_len`] says what joining would make).
    #[must_use]
    pub fn joined(files: &[&SourceFile]) -> SourceFile {
        let Some((first, rest)) = files.split_first() else {
            return SourceFile::new("", "");
        };
        let mut text = String::with_capacity(SourceFile::joined_len(files));
        text.push_str(first.own_text());
        let mut others = Vec::with_capacity(rest.len());
        for file in rest {
            text.push('\n');
            let start = text.len() as u32;
            text.push_str(file.own_text());
            others.push(Part {
                name: file.name.clone(),
                start,
                end: text.len() as u32,
                lines: file.lines.clone(),
            });
        }
        SourceFile {
            name: first.name.clone(),
            text: Text::Owned(text),
            lines: first.lines.clone(),
            first_end: first.first_end,
            others,
        }
    }

    /// The length of the text [`SourceFile::joined`] makes of `files`; each file's range
    /// starts where the files before it, and a byte each, end.
    #[must_use]
    pub fn joined_len(files: &[&SourceFile]) -> usize {
        files
            .iter()
            .map(|f| f.own_text().len() + 1)
            .sum::<usize>()
            .saturating_sub(1)
    }

    /// The name shown in locations (`name:line:column`): the first file's, which is the one
    /// the user named.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The first file's own text (the whole text for a source of one file).
    fn own_text(&self) -> &str {
        &self.text()[..self.first_end as usize]
    }

    /// The files of this source, the first first.
    pub fn files(&self) -> impl Iterator<Item = FileRef<'_>> {
        std::iter::once(self.first()).chain((0..self.others.len()).map(|at| self.part(at)))
    }

    /// Whether this source joins several files.
    #[must_use]
    pub fn is_joined(&self) -> bool {
        !self.others.is_empty()
    }

    /// The file holding `offset`: the last whose range starts at or before it (an offset at
    /// a file's end, an empty span after its last byte, belongs to that file).
    #[must_use]
    pub fn file_at(&self, offset: u32) -> FileRef<'_> {
        let after = self.others.partition_point(|p| p.start <= offset);
        match after.checked_sub(1) {
            None => self.first(),
            Some(at) => self.part(at),
        }
    }

    fn first(&self) -> FileRef<'_> {
        FileRef {
            name: &self.name,
            range: Span::new(0, self.first_end),
            text: self.own_text(),
            lines: &self.lines,
            index: 0,
        }
    }

    /// The file after the first at position `at` of `others`.
    fn part(&self, at: usize) -> FileRef<'_> {
        let part = &self.others[at];
        FileRef {
            name: &part.name,
            range: Span::new(part.start, part.end),
            text: &self.text()[part.start as usize..part.end as usize],
            lines: &part.lines,
            index: at + 1,
        }
    }

    /// The name of the file holding `offset`.
    #[must_use]
    pub fn name_at(&self, offset: u32) -> &str {
        self.file_at(offset).name
    }

    /// The whole text.
    #[must_use]
    pub fn text(&self) -> &str {
        self.text.as_str()
    }

    /// The file's extension, lower-cased, used to choose a format.
    #[must_use]
    pub fn extension(&self) -> Option<String> {
        Path::new(&self.name)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
    }

    /// The line index of the first file (the whole text for a source of one file).
    #[must_use]
    pub fn line_index(&self) -> &LineIndex {
        &self.lines
    }

    /// The text covered by `span` (empty if the span is out of bounds or splits a character).
    #[must_use]
    pub fn slice(&self, span: Span) -> &str {
        self.text().get(span.range()).unwrap_or("")
    }

    /// Line and column of byte `offset`, in the file holding it.
    #[must_use]
    pub fn line_col(&self, offset: u32) -> LineCol {
        if self.others.is_empty() {
            return self.lines.line_col(self.text(), offset);
        }
        self.file_at(offset).line_col(offset)
    }

    /// Start and end positions of `span` in the file holding its start, for reports that give
    /// both (`endLine`, `endColumn` in JSON).
    #[must_use]
    pub fn location(&self, span: Span) -> Location {
        if self.others.is_empty() {
            return Location {
                start: self.line_col(span.start),
                end: self.line_col(span.end),
            };
        }
        let file = self.file_at(span.start);
        Location {
            start: file.line_col(span.start),
            end: file.line_col(span.end),
        }
    }

    /// `name:line:column` of the start of `span`, in the file holding it.
    #[must_use]
    pub fn describe(&self, span: Span) -> String {
        let file = self.file_at(span.start);
        format!("{}:{}", file.name, file.line_col(span.start))
    }
}

/// Where a span starts and ends, in lines and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// Position of the first character.
    pub start: LineCol,
    /// Position just past the last character.
    pub end: LineCol,
}

impl miette::SourceCode for SourceFile {
    /// What miette reads for `str`, found from the span's line instead of from the start of the
    /// text: its own reading scans the text from its first byte for every snippet, which made
    /// the findings of a 13 MB file take seconds to show.
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        // The snippet is read from the file holding the span, in that file's lines, under
        // its name; offsets stay those of the joined text, which the labels use.
        let file = self.file_at(u32::try_from(span.offset()).unwrap_or(u32::MAX));
        let base = file.range.start as usize;
        let text = file.text;
        let offset = span.offset().saturating_sub(base).min(text.len());
        let span = &miette::SourceSpan::new(offset.into(), span.len());
        let (line, _) = file
            .lines
            .line_of(text, u32::try_from(offset).unwrap_or(u32::MAX));
        // From one line more than the context above: miette ends an empty span's snippet by
        // the byte before it, which may end the line above.
        let lines_before = line.saturating_sub(context_lines_before + 1);
        let from = u32::try_from(lines_before + 1)
            .ok()
            .and_then(|first| file.lines.line_start(text, first))
            .map_or(0, |start| start as usize);
        let local = miette::SourceSpan::new((offset - from).into(), span.len());
        let inner = text[from..].read_span(&local, context_lines_before, context_lines_after)?;
        let start = inner.span().offset() + from + base;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            file.name.to_owned(),
            inner.data(),
            miette::SourceSpan::new(start.into(), inner.span().len()),
            inner.line() + lines_before,
            inner.column(),
            lines_covered(inner.data()),
        )))
    }
}

/// The lines `data` covers, as `SpanContents::line_count` documents it. miette's reading of a
/// `str` gives instead the lines from the start of the text to the snippet's end, and its
/// report takes two labels' snippets for overlapping when the first's line plus that count
/// reaches the second's line: with it, every label of a finding joined the snippets between
/// them, and a label two hundred lines from the finding printed those two hundred lines.
fn lines_covered(data: &[u8]) -> usize {
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    std::iter::successors(Some(0), |&at| next_line_start(body, at)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Snippets read from the span's line are what miette reads from the whole text, and
        /// say how many lines they cover.
        #[test]
        fn snippets_read_as_miette_reads_them(
            text in "([a-c]{0,3}(\n|\r\n|\r)){0,12}[a-c]{0,3}",
            at in 0usize..60,
            len in 0usize..20,
            before in 0usize..3,
            after in 0usize..3,
        ) {
            use miette::SourceCode;
            let at = at.min(text.len());
            let span = miette::SourceSpan::new(at.into(), len.min(text.len() - at));
            let ours = SourceFile::new("t", text.clone());
            let ours = ours.read_span(&span, before, after);
            let theirs = text.as_str().read_span(&span, before, after);
            if let Ok(ours) = &ours {
                // The lines the snippet covers (miette's `str` counts from the text's start).
                let data = std::str::from_utf8(ours.data()).unwrap_or_default();
                let data = data.replace("\r\n", "\n").replace('\r', "\n");
                let lines = data.strip_suffix('\n').unwrap_or(&data).split('\n').count();
                proptest::prop_assert_eq!(ours.line_count(), lines);
            }
            let seen = |c: Result<Box<dyn miette::SpanContents<'_> + '_>, miette::MietteError>| {
                c.map(|c| (c.data().to_vec(), *c.span(), c.line(), c.column()))
            };
            proptest::prop_assert_eq!(format!("{:?}", seen(ours)), format!("{:?}", seen(theirs)));
        }
    }

    #[test]
    fn ascii_positions() {
        let src = SourceFile::new("a.yaml", "ab\ncd\n");
        assert_eq!(src.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(src.line_col(2), LineCol { line: 1, column: 3 });
        assert_eq!(src.line_col(3), LineCol { line: 2, column: 1 });
        assert_eq!(src.line_col(6), LineCol { line: 3, column: 1 });
        assert_eq!(src.line_col(99), LineCol { line: 3, column: 1 });
    }

    #[test]
    fn multibyte_columns_count_characters() {
        // "é" is 2 bytes, "€" 3, "𝄞" 4.
        let text = "x: é€𝄞z\ny";
        let src = SourceFile::new("a.yaml", text);
        let z = text.find('z').unwrap() as u32;
        assert_eq!(src.line_col(z), LineCol { line: 1, column: 7 });
        let y = text.find('y').unwrap() as u32;
        assert_eq!(src.line_col(y), LineCol { line: 2, column: 1 });
        // An offset inside "€" reports the column of "€".
        let euro = text.find('€').unwrap() as u32;
        assert_eq!(src.line_col(euro + 1), src.line_col(euro));
    }

    #[test]
    fn crlf_lines() {
        let src = SourceFile::new("a.json", "{\r\n  \"a\": 1\r\n}");
        assert_eq!(src.line_col(5), LineCol { line: 2, column: 3 });
        assert_eq!(src.line_index().line_start(src.text(), 3), Some(13));
    }

    /// Joined files keep their own names, lines and columns; a span of the joined text is
    /// shown in the file holding it, and miette reads its snippet from there.
    #[test]
    fn joined_files_locate_in_their_own_file() {
        use miette::SourceCode;
        let overlay = SourceFile::new("overlay.yaml", "overlay: 1.0.0\nextends: v.json\n");
        let vendor = SourceFile::new("v.json", "{\n  \"openapi\": \"3.0.3\"\n}");
        let joined = SourceFile::joined(&[&overlay, &vendor]);
        assert_eq!(joined.name(), "overlay.yaml");
        assert_eq!(
            joined.text().len(),
            SourceFile::joined_len(&[&overlay, &vendor])
        );
        let extends = joined.text().find("extends").unwrap() as u32;
        assert_eq!(
            joined.describe(Span::new(extends, extends + 7)),
            "overlay.yaml:2:1"
        );
        let openapi = joined.text().find("\"openapi\"").unwrap() as u32;
        assert_eq!(joined.describe(Span::empty(openapi)), "v.json:2:3");
        let file = joined.file_at(openapi);
        assert_eq!((file.name, file.index), ("v.json", 1));
        assert_eq!(
            file.local(Span::new(openapi, openapi + 9)),
            Span::new(4, 13)
        );
        assert_eq!(joined.slice(Span::new(openapi, openapi + 9)), "\"openapi\"");
        let location = joined.location(Span::new(openapi, openapi + 9));
        assert_eq!((location.start.line, location.end.column), (2, 12));
        // The end of the first file belongs to it, not to the next.
        assert_eq!(joined.name_at(overlay.text().len() as u32), "overlay.yaml");
        let span = miette::SourceSpan::new((openapi as usize).into(), 9);
        let snippet = joined.read_span(&span, 0, 0).expect("a snippet");
        assert_eq!(snippet.name(), Some("v.json"));
        assert_eq!((snippet.line(), snippet.column()), (1, 2));
        // What miette reads of the vendor's file alone, moved to the file's range.
        let base = file.range.start as usize;
        let alone = vendor
            .read_span(
                &miette::SourceSpan::new((openapi as usize - base).into(), 9),
                0,
                0,
            )
            .expect("a snippet");
        assert_eq!(snippet.span().offset(), alone.span().offset() + base);
        assert_eq!(snippet.data(), alone.data());
        assert_eq!(
            joined.files().map(|f| f.name).collect::<Vec<_>>(),
            ["overlay.yaml", "v.json"]
        );
    }

    #[test]
    fn lone_carriage_returns_end_lines() {
        let text = "a: 1\rb: 2\r\nc: 3\n\rd: 4";
        let src = SourceFile::new("a.yaml", text);
        let at = |needle: &str| src.line_col(text.find(needle).unwrap() as u32);
        assert_eq!(at("b"), LineCol { line: 2, column: 1 });
        assert_eq!(at("c"), LineCol { line: 3, column: 1 });
        assert_eq!(at("d"), LineCol { line: 5, column: 1 });
        assert_eq!(src.line_index().line_count(), 5);
    }
}

#[cfg(test)]
mod line_index_agrees {
    use proptest::prelude::*;

    use super::LineIndex;

    /// Every line start, the plain way: the reference the marks and scans must agree with.
    fn starts(text: &str) -> Vec<usize> {
        let b = text.as_bytes();
        let mut out = vec![0];
        for i in 0..b.len() {
            if b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')) {
                out.push(i + 1);
            }
        }
        out
    }

    proptest! {
        #[test]
        fn positions_agree_with_every_line_start(
            parts in prop::collection::vec(prop_oneof![
                Just("a".to_owned()), Just("é".to_owned()), Just("\n".to_owned()),
                Just("\r\n".to_owned()), Just("\r".to_owned()), Just("xyz".to_owned()),
                // Runs past the marks' spacing: marks inside long lines, at character
                // boundaries of multi-byte text.
                Just("a".repeat(700)), Just("é".repeat(300)), Just("😀".repeat(200)),
            ], 0..60),
            ascii_only in any::<bool>(),
        ) {
            let text: String = if ascii_only {
                parts.concat().replace(['é', '😀'], "e")
            } else {
                parts.concat()
            };
            let index = LineIndex::new(&text);
            let all = starts(&text);
            prop_assert_eq!(index.line_count(), all.len());
            for (line, start) in all.iter().enumerate() {
                prop_assert_eq!(index.line_start(&text, line as u32 + 1), Some(*start as u32));
            }
            prop_assert_eq!(index.line_start(&text, all.len() as u32 + 1), None);
            for offset in (0..=text.len()).step_by(7).chain(all.iter().copied()) {
                let line = all.iter().rposition(|s| *s <= offset).unwrap_or(0);
                let at = index.line_col(&text, offset as u32);
                prop_assert_eq!(at.line as usize, line + 1);
                if text.is_char_boundary(offset) {
                    let column = text[all[line]..offset].chars().count() + 1;
                    prop_assert_eq!(at.column as usize, column);
                    let utf16 = text[all[line]..offset].encode_utf16().count();
                    prop_assert_eq!(index.line_utf16(&text, offset as u32), (line, utf16 as u32));
                }
            }
        }
    }
}
