//! JSON-RPC over a byte stream, framed by `Content-Length` headers, read leniently.
//!
//! `lsp-server`'s own reader ends the connection at the first malformed message; an editor
//! plugin with a bug, or a stray write to the server's standard input, must not end the
//! server. This reader turns every frame it cannot read into [`Incoming::Malformed`] (which
//! the server answers with a JSON-RPC error) and reads on; only the end of the input ends it.

use std::io::{self, BufRead, Read, Write};

use lsp_server::Message;
use serde_json::{Value, json};

use crate::open_frame;

/// The largest frame read (a definition of hundreds of megabytes is not edited in an editor).
pub const MAX_FRAME: usize = 512 * 1024 * 1024;

/// The most of a frame's announced length allocated before it arrives.
const UP_FRONT: usize = 64 * 1024 * 1024;

/// What one frame of the input held.
#[derive(Debug)]
pub enum Incoming {
    /// A well-formed request, response or notification.
    Message(Message),
    /// A frame that is not one: the JSON-RPC error to answer (`-32700` for text that is not
    /// JSON, `-32600` for JSON that is not a message), with the request id when it had one.
    Malformed {
        /// The JSON-RPC error code.
        code: i32,
        /// What was wrong.
        message: String,
        /// The `id` of the frame, when it had a readable one.
        id: Value,
    },
}

/// Reads the next frame; `None` at the end of the input.
///
/// # Errors
/// Only errors of the stream itself; a frame's content never is one.
pub fn read(input: &mut impl BufRead) -> io::Result<Option<Incoming>> {
    let length = match read_headers(input)? {
        Headers::End => return Ok(None),
        Headers::Length(length) => length,
        Headers::Invalid(reason) => {
            return Ok(Some(malformed(-32700, reason, Value::Null)));
        }
    };
    if length > MAX_FRAME {
        return Ok(Some(malformed(
            -32700,
            format!("a frame of {length} bytes is over the {MAX_FRAME} this server reads"),
            Value::Null,
        )));
    }
    // Up to `UP_FRONT` is allocated at once, exactly (a large document's text arrives in one
    // frame: a list grown by doubling held a third more than it); past it the body grows as
    // it arrives, so that a wrong length costs what was sent.
    let mut body = Vec::with_capacity(length.min(UP_FRONT));
    input.take(length as u64).read_to_end(&mut body)?;
    if body.len() < length {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the input ended inside a frame",
        ));
    }
    Ok(Some(decode(&body)))
}

enum Headers {
    End,
    Length(usize),
    Invalid(String),
}

/// Reads one header block (up to its blank line). Lines ending in a bare `\n` are accepted.
fn read_headers(input: &mut impl BufRead) -> io::Result<Headers> {
    let mut length = None;
    let mut invalid = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(Headers::End);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if length.is_none() && invalid.is_none() {
                // Blank lines between frames are tolerated.
                continue;
            }
            break;
        }
        match text.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => invalid = Some(format!("invalid Content-Length `{}`", value.trim())),
                }
            }
            Some(_) => {}
            None => invalid = Some(format!("malformed header line `{text}`")),
        }
    }
    Ok(match (invalid, length) {
        (Some(reason), _) => Headers::Invalid(reason),
        (None, Some(n)) => Headers::Length(n),
        (None, None) => Headers::Invalid("a header block without Content-Length".to_owned()),
    })
}

/// The message a frame's body holds, or the error to answer it with.
fn decode(body: &[u8]) -> Incoming {
    if body.len() >= open_frame::LARGE_FRAME
        && let Some(message) = open_frame::read(body)
    {
        return Incoming::Message(message);
    }
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(e) => return malformed(-32700, format!("the message is not JSON: {e}"), Value::Null),
    };
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned()
        .unwrap_or(Value::Null);
    // `Message` is untagged: a request whose `method` is not a string would read as a
    // response, which the server ignores; it must be answered as invalid instead.
    let method_ok = value.get("method").is_none_or(Value::is_string);
    if !value.is_object() || !method_ok {
        return malformed(
            -32600,
            "not a JSON-RPC message: an object with a string `method`, or a response, is expected"
                .to_owned(),
            id,
        );
    }
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        Err(e) => malformed(
            -32600,
            format!("not a JSON-RPC request, response or notification: {e}"),
            id,
        ),
    }
}

fn malformed(code: i32, message: String, id: Value) -> Incoming {
    Incoming::Malformed { code, message, id }
}

/// Writes `message` as one frame.
///
/// # Errors
/// When the output cannot be written (the client went away).
pub fn write(output: &mut impl Write, message: &Message) -> io::Result<()> {
    message.write(output)
}

/// Writes a JSON-RPC error response whose id may be `null` (which `lsp-server`'s types cannot
/// hold): the answer to a frame that could not be read.
///
/// # Errors
/// When the output cannot be written.
pub fn write_error(
    output: &mut impl Write,
    id: &Value,
    code: i32,
    message: &str,
) -> io::Result<()> {
    let text = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    })
    .to_string();
    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &str) -> Vec<Incoming> {
        let mut reader = io::Cursor::new(input.as_bytes().to_vec());
        let mut out = Vec::new();
        while let Some(frame) = read(&mut reader).expect("in-memory reads succeed") {
            out.push(frame);
        }
        out
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// A large `didOpen` is read by its own path: what comes out is what the generic reading
    /// gives, and a large frame of anything else still reads.
    #[test]
    fn large_frames_read_as_small_ones() {
        let text = format!("openapi: \"3.0.3\"\n{}", "paths: {}\n".repeat(200_000));
        let open = json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": "file:///a.yaml", "languageId": "yaml", "version": 1, "text": text}},
        });
        let other =
            json!({"jsonrpc": "2.0", "id": 1, "method": "x/large", "params": {"text": text}});
        let input = [frame(&open.to_string()), frame(&other.to_string())].concat();
        let got = frames(&input);
        let [
            Incoming::Message(Message::Notification(opened)),
            Incoming::Message(Message::Request(large)),
        ] = &got[..]
        else {
            panic!("{got:?}");
        };
        assert_eq!(opened.params, open["params"]);
        assert_eq!(large.params, other["params"]);
    }

    #[test]
    fn reads_on_after_frames_it_cannot_read() {
        let input = [
            frame("{not json"),
            "Garbage header\r\n\r\n".to_owned(),
            frame(r#"{"jsonrpc":"2.0","id":7,"method":5}"#),
            frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
        ]
        .concat();
        let got = frames(&input);
        assert_eq!(got.len(), 4, "{got:?}");
        assert!(matches!(
            &got[0],
            Incoming::Malformed {
                code: -32700,
                id: Value::Null,
                ..
            }
        ));
        assert!(matches!(&got[1], Incoming::Malformed { code: -32700, .. }));
        assert!(matches!(&got[2], Incoming::Malformed { code: -32600, id, .. } if id == &json!(7)));
        assert!(
            matches!(&got[3], Incoming::Message(Message::Notification(n)) if n.method == "exit")
        );
    }

    #[test]
    fn an_absurd_length_is_refused_without_allocating_it() {
        let got = frames("Content-Length: 99999999999999\r\n\r\n");
        assert!(
            matches!(&got[..], [Incoming::Malformed { code: -32700, .. }]),
            "{got:?}"
        );
    }

    #[test]
    fn a_frame_cut_short_by_the_end_of_input_is_an_error_of_the_stream() {
        let mut reader = io::Cursor::new(b"Content-Length: 50\r\n\r\n{}".to_vec());
        assert!(read(&mut reader).is_err());
    }
}
