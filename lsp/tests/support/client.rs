//! A minimal LSP client for tests: frames JSON-RPC messages onto the server's input, reads
//! its output on a thread, and waits (with a generous bound, so that a broken server fails
//! the test instead of hanging it) for the answer or notification a test expects.
//!
//! Shared by the library's tests (server on in-process pipes) and the CLI's (the `syncdef lsp`
//! process).
#![allow(
    dead_code,
    reason = "each test binary uses a different part of the client"
)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long a test waits for one message before failing.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A client connected to one server.
pub struct Client {
    input: Box<dyn Write + Send>,
    output: Receiver<Value>,
    queue: VecDeque<Value>,
    next_id: i64,
}

impl Client {
    /// A client writing to the server's `input` and reading its `output`.
    pub fn new(input: impl Write + Send + 'static, output: impl Read + Send + 'static) -> Client {
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            while let Some(message) = read_frame(&mut output) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Client {
            input: Box::new(input),
            output: receiver,
            queue: VecDeque::new(),
            next_id: 1,
        }
    }

    /// Writes `bytes` as they are (for garbage).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.input
            .write_all(bytes)
            .expect("the server reads its input");
        self.input.flush().expect("flush");
    }

    /// Writes one framed message.
    pub fn send(&mut self, message: &Value) {
        let text = message.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{text}", text.len());
        self.send_raw(frame.as_bytes());
    }

    /// Sends a notification.
    #[allow(
        clippy::needless_pass_by_value,
        reason = "tests hand over the params they just built; `allow`, not `expect`: the CLI's tests compile this file without the pedantic lints"
    )]
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its whole response (`result` or `error`); notifications
    /// that arrive meanwhile are kept for [`Client::notification`].
    #[allow(
        clippy::needless_pass_by_value,
        reason = "tests hand over the params they just built; `allow`, not `expect`: the CLI's tests compile this file without the pedantic lints"
    )]
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.take(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
    }

    /// The `result` of a request, failing the test on an error response.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    /// The next message matching `wanted`, from what was kept or what arrives.
    pub fn take(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.queue.iter().position(&wanted) {
            return self.queue.remove(i).expect("index from position");
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.queue.push_back(message),
                Err(e) => panic!(
                    "no expected message from the server ({e}); got: {:?}",
                    self.queue
                ),
            }
        }
    }

    /// The params of the next notification `method`.
    pub fn notification(&mut self, method: &str) -> Value {
        self.take(|m| m["method"] == method && m.get("id").is_none())["params"].clone()
    }

    /// The next diagnostics published for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Value {
        self.take(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
            ["params"]
            .clone()
    }

    /// `initialize` then `initialized`; returns the server's capabilities.
    pub fn initialize(&mut self) -> Value {
        let result = self.call(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        self.notify("initialized", json!({}));
        result["capabilities"].clone()
    }

    /// Opens `text` at `uri`, version 1.
    pub fn open(&mut self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
        );
    }

    /// Replaces `range` ((line, character) to (line, character), UTF-16) of `uri` with `text`.
    pub fn change(&mut self, uri: &str, version: i32, range: [(u32, u32); 2], text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": lsp_range(range), "text": text}],
            }),
        );
    }

    /// `shutdown` then `exit`.
    pub fn shut_down(&mut self) {
        let result = self.call("shutdown", Value::Null);
        assert_eq!(result, Value::Null);
        self.notify("exit", Value::Null);
    }
}

/// An LSP range as JSON.
pub fn lsp_range(range: [(u32, u32); 2]) -> Value {
    json!({
        "start": {"line": range[0].0, "character": range[0].1},
        "end": {"line": range[1].0, "character": range[1].1},
    })
}

/// An LSP position as JSON.
pub fn at(line: u32, character: u32) -> Value {
    json!({"line": line, "character": character})
}

/// The (line, UTF-16 character) of the first occurrence of `needle` in `text`, at its start,
/// or `offset` bytes into it.
pub fn find(text: &str, needle: &str, offset: usize) -> (u32, u32) {
    let byte = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` is in the text"))
        + offset;
    position_of(text, byte)
}

/// The (line, UTF-16 character) of byte `byte` of `text`.
pub fn position_of(text: &str, byte: usize) -> (u32, u32) {
    let before = &text[..byte];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = text[line_start..byte].encode_utf16().count();
    (
        u32::try_from(line).expect("line"),
        u32::try_from(character).expect("character"),
    )
}

/// One message of the server's output; `None` at its end.
fn read_frame(output: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    output.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
