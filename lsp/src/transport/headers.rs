//! One header block: `Name: value` lines up to a blank line. Lines and the block are bounded,
//! so that a header that never ends costs a few KiB instead of the whole input (a 300 MB line
//! without a line end once took 887 MB).

use std::io::{self, BufRead};

use super::resync::find_header;
use super::shown::shown;

/// The longest header line read; `Content-Length: 536870912` needs 26 bytes.
pub const MAX_LINE: usize = 4096;
/// The longest header block read (its lines together).
pub const MAX_BLOCK: usize = 16 * 1024;

/// What a header block held.
pub enum Block {
    /// The input ended before a header.
    End,
    /// A frame of this many bytes follows.
    Length(usize),
    /// Not a header block the frame's length can be read from; where the next frame starts is
    /// unknown.
    Invalid(String),
    /// A line held bytes, then a `Content-Length` header: the bytes are skipped and `rest`
    /// (from the header on) is to be read again. `invalid` tells why the block was already
    /// wrong before that line, if it was.
    Junk {
        skipped: Vec<u8>,
        rest: Vec<u8>,
        invalid: Option<String>,
    },
}

/// Reads one header block. Lines ending in a bare `\n` are accepted; blank lines before a
/// block are skipped. A line holding bytes before a `Content-Length` header ends the block
/// there, as [`Block::Junk`].
pub fn read_block(input: &mut impl BufRead) -> io::Result<Block> {
    let mut length = None;
    let mut invalid = None;
    let mut line = Vec::new();
    let mut block = 0;
    loop {
        line.clear();
        match read_line(input, &mut line)? {
            Line::End => return Ok(Block::End),
            Line::TooLong => {
                return Ok(Block::Invalid(format!(
                    "a header line longer than {MAX_LINE} bytes: {}",
                    shown(&line)
                )));
            }
            Line::Read => {}
        }
        let text = line.trim_ascii_end();
        if text.is_empty() {
            if block == 0 {
                continue;
            }
            break;
        }
        block += line.len();
        if block > MAX_BLOCK {
            return Ok(Block::Invalid(format!(
                "a header block longer than {MAX_BLOCK} bytes"
            )));
        }
        // Bytes, then a header: what is left of a body whose length was too short.
        if let Some(at) = find_header(text).filter(|&at| at > 0) {
            return Ok(Block::Junk {
                skipped: text[..at].to_vec(),
                rest: line[at..].to_vec(),
                invalid,
            });
        }
        match header(text) {
            Header::ContentLength(value) => match parse_length(value) {
                Some(n) => length = Some(n),
                None => invalid = Some(format!("invalid Content-Length {}", shown(value))),
            },
            Header::Other => {}
            Header::Junk => invalid = Some(format!("malformed header line {}", shown(text))),
        }
    }
    Ok(match (invalid, length) {
        (Some(reason), _) => Block::Invalid(reason),
        (None, Some(n)) => Block::Length(n),
        (None, None) => Block::Invalid("a header block without Content-Length".to_owned()),
    })
}

enum Line {
    /// A line, with its line end (or the last bytes of the input, without one).
    Read,
    /// The input ended.
    End,
    /// [`MAX_LINE`] bytes without a line end: they were read, the rest of the line was not.
    TooLong,
}

fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Line> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(if line.is_empty() {
                Line::End
            } else {
                Line::Read
            });
        }
        let room = MAX_LINE - line.len();
        let (used, done) = match memchr::memchr(b'\n', buffer) {
            Some(i) if i < room => (i + 1, true),
            _ => (buffer.len().min(room), false),
        };
        line.extend_from_slice(&buffer[..used]);
        input.consume(used);
        if done {
            return Ok(Line::Read);
        }
        if line.len() == MAX_LINE {
            return Ok(Line::TooLong);
        }
    }
}

enum Header<'a> {
    /// The value of `Content-Length`.
    ContentLength(&'a [u8]),
    /// Another header (`Content-Type`), ignored.
    Other,
    /// Not a header line.
    Junk,
}

fn header(text: &[u8]) -> Header<'_> {
    let Some(colon) = memchr::memchr(b':', text) else {
        return Header::Junk;
    };
    let name = text[..colon].trim_ascii();
    if name.eq_ignore_ascii_case(b"content-length") {
        Header::ContentLength(text[colon + 1..].trim_ascii())
    } else if !name.is_empty() && name.iter().all(|&b| is_token(b)) {
        Header::Other
    } else {
        Header::Junk
    }
}

/// A byte of an HTTP token (RFC 9110), which a header name is.
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn parse_length(value: &[u8]) -> Option<usize> {
    std::str::from_utf8(value).ok()?.parse().ok()
}
