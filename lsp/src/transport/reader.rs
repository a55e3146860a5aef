//! The reader of frames: a header block, then as many bytes as it announced. A frame that
//! cannot be read is answered (as [`Incoming::Malformed`]) and the reader finds the next one.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

use super::headers::{self, Block};
use super::resync::{self, Skipped, find_header};
use super::{Incoming, MAX_FRAME, decode, malformed};

/// The most of a frame's announced length allocated before it arrives.
const UP_FRONT: usize = 64 * 1024 * 1024;

/// What resynchronising puts back before the header it found (the scan consumed it).
const HEADER: &[u8] = b"Content-Length:";

/// Reads frames from `input` until its end.
pub struct Reader<R> {
    input: R,
    /// Bytes already taken from `input` that are to be read again, first.
    carry: io::Cursor<Vec<u8>>,
    /// Whether the next frame's start is unknown (after a frame that could not be read).
    lost: bool,
    /// What was read but not yet returned.
    queued: VecDeque<Incoming>,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> Self {
        Reader {
            input,
            carry: io::Cursor::new(Vec::new()),
            lost: false,
            queued: VecDeque::new(),
        }
    }

    /// The next frame, or what was skipped to find it; `None` at the end of the input.
    ///
    /// # Errors
    /// Only errors of the stream itself, and the end of the input inside a frame's body; a
    /// frame's content never is one.
    pub fn read(&mut self) -> io::Result<Option<Incoming>> {
        if let Some(next) = self.queued.pop_front() {
            return Ok(Some(next));
        }
        if self.lost {
            self.lost = false;
            let skipped = resync::skip_to_header(&mut self.source())?;
            if skipped.found {
                self.put_back(HEADER);
            }
            if skipped.count > 0 {
                return Ok(Some(skipped_incoming(&skipped)));
            }
        }
        let block = headers::read_block(&mut self.source())?;
        match block {
            Block::End => Ok(None),
            Block::Length(length) => self.body(length).map(Some),
            Block::Invalid(reason) => {
                self.lost = true;
                Ok(Some(malformed(-32700, reason, serde_json::Value::Null)))
            }
            Block::Junk {
                skipped,
                rest,
                invalid,
            } => {
                self.put_back(&rest);
                if let Some(reason) = invalid {
                    self.queued
                        .push_back(malformed(-32700, reason, serde_json::Value::Null));
                }
                Ok(Some(Incoming::Skipped {
                    bytes: skipped.len() as u64,
                    start: super::shown::shown(&skipped),
                    found: true,
                }))
            }
        }
    }

    /// The body of a frame of `length` bytes, read and decoded.
    fn body(&mut self, length: usize) -> io::Result<Incoming> {
        if length > MAX_FRAME {
            // Its body, if it follows, is skipped.
            self.lost = true;
            return Ok(malformed(
                -32700,
                format!("a frame of {length} bytes is over the {MAX_FRAME} this server reads"),
                serde_json::Value::Null,
            ));
        }
        // Up to `UP_FRONT` is allocated at once, exactly (a large document's text arrives in
        // one frame: a list grown by doubling held a third more than it); past it the body
        // grows as it arrives, so that a wrong length costs what was sent.
        let mut body = Vec::with_capacity(length.min(UP_FRONT));
        self.source().take(length as u64).read_to_end(&mut body)?;
        if body.len() < length {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the input ended inside a frame",
            ));
        }
        let incoming = decode(&body);
        // Not JSON, and holding a header: the length was too long, and the body holds the
        // next frame's header, read again from there. (Too short, and the rest of the body
        // comes before the next header: the header block's reading skips it.)
        if matches!(incoming, Incoming::Malformed { code: -32700, .. })
            && let Some(at) = find_header(&body)
        {
            self.put_back(&body[at..]);
        }
        Ok(incoming)
    }

    /// The input, after what is to be read again.
    fn source(&mut self) -> impl BufRead + '_ {
        (&mut self.carry).chain(&mut self.input)
    }

    /// Makes `bytes` the next bytes read, before what was still to be read again.
    fn put_back(&mut self, bytes: &[u8]) {
        let at = usize::try_from(self.carry.position()).unwrap_or(usize::MAX);
        let rest = self.carry.get_ref().get(at..).unwrap_or_default();
        let carry = [bytes, rest].concat();
        self.carry = io::Cursor::new(carry);
    }
}

fn skipped_incoming(skipped: &Skipped) -> Incoming {
    Incoming::Skipped {
        bytes: skipped.count,
        start: super::shown::shown(&skipped.start),
        found: skipped.found,
    }
}
