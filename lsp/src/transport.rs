//! JSON-RPC over a byte stream, framed by `Content-Length` headers, read leniently.
//!
//! `lsp-server`'s own reader ends the connection at the first malformed message; an editor
//! plugin with a bug, or a stray write to the server's standard input, must not end the
//! server. This reader turns every frame it cannot read into [`Incoming::Malformed`] (which
//! the server answers with a JSON-RPC error), finds the next frame (skipping to the next
//! `Content-Length` header when the bad frame's length cannot be trusted, and saying what it
//! skipped with [`Incoming::Skipped`]) and reads on; only the end of the input ends it.
//! Header lines and blocks are bounded, and messages quote at most a short prefix of the
//! input.

mod headers;
mod reader;
mod resync;
mod shown;

use std::io::{self, Write};

use lsp_server::Message;
use serde_json::{Value, json};

use crate::open_frame;

pub use headers::{MAX_BLOCK, MAX_LINE};
pub use reader::Reader;

/// The largest frame read (a definition of hundreds of megabytes is not edited in an editor).
pub const MAX_FRAME: usize = 512 * 1024 * 1024;

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
    /// Input skipped to find the next frame after one that could not be read: nothing to
    /// answer, something to log.
    Skipped {
        /// How many bytes.
        bytes: u64,
        /// The first of them, quoted and escaped.
        start: String,
        /// Whether a frame's header followed (otherwise the input ended).
        found: bool,
    },
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
        let mut reader = Reader::new(io::Cursor::new(input.as_bytes().to_vec()));
        let mut out = Vec::new();
        while let Some(frame) = reader.read().expect("in-memory reads succeed") {
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

    fn is_request(incoming: &Incoming, id: i32) -> bool {
        matches!(incoming, Incoming::Message(Message::Request(r)) if r.id == id.into())
    }

    #[test]
    fn a_length_too_long_gives_back_the_frames_it_swallowed() {
        let first = r#"{"jsonrpc":"2.0","id":1,"method":"a"}"#;
        let second = r#"{"jsonrpc":"2.0","id":2,"method":"b"}"#;
        let input = format!("Content-Length: 60\r\n\r\n{first}{}", frame(second));
        let got = frames(&input);
        assert!(
            matches!(&got[0], Incoming::Malformed { code: -32700, .. }),
            "{got:?}"
        );
        assert!(is_request(&got[1], 2), "{got:?}");
        assert_eq!(got.len(), 2, "{got:?}");
    }

    #[test]
    fn bytes_before_a_header_are_skipped_and_said() {
        let request = r#"{"jsonrpc":"2.0","id":3,"method":"c"}"#;
        let input = format!("Content-Length: 2\r\n\r\n{{}}]junk{}", frame(request));
        let got = frames(&input);
        assert!(
            matches!(&got[0], Incoming::Malformed { code: -32600, .. }),
            "{got:?}"
        );
        assert!(
            matches!(&got[1], Incoming::Skipped { bytes: 5, found: true, start } if start == "`]junk`"),
            "{got:?}"
        );
        assert!(is_request(&got[2], 3), "{got:?}");
    }

    #[test]
    fn a_bad_length_skips_its_body() {
        let request = r#"{"jsonrpc":"2.0","id":4,"method":"d"}"#;
        let input = format!("Content-Length: -1\r\n\r\n{request}{}", frame(request));
        let got = frames(&input);
        assert!(
            matches!(&got[0], Incoming::Malformed { code: -32700, message, .. } if message.contains("`-1`")),
            "{got:?}"
        );
        assert!(
            matches!(&got[1], Incoming::Skipped { bytes, found: true, .. } if *bytes == request.len() as u64),
            "{got:?}"
        );
        assert!(is_request(&got[2], 4), "{got:?}");
        assert_eq!(got.len(), 3, "{got:?}");
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
        let mut reader = Reader::new(io::Cursor::new(b"Content-Length: 50\r\n\r\n{}".to_vec()));
        assert!(reader.read().is_err());
    }
}
