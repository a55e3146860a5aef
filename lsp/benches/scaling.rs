//! Scaling guard of the language server's input: the time to serve a stream must stay linear
//! in the number of frames and in the length of what it skips (a header line without an end,
//! a header block without an end, the body of a frame whose length is not a number), and the
//! positions of diagnostics in the number of them on one line. Each
//! dimension is served at a size and at 8 times that size; the run fails (exit status 1) when
//! the time ratio of a dimension reaches 12 (see `transform-lang/benches/support/scaling.rs`).
//!
//! `cargo bench -p syncdef-lsp --bench scaling [NAME...]` (release), or
//! `cargo test -p syncdef-lsp --bench scaling` (the test profile CI builds already).
//! Figures: docs/benchmarks.md, "Scaling".

#[path = "../../transform-lang/benches/support/scaling.rs"]
mod scaling;

use std::io::Cursor;
use std::sync::Arc;

use serde_json::json;

fn frame(message: &serde_json::Value) -> Vec<u8> {
    let text = message.to_string();
    format!("Content-Length: {}\r\n\r\n{text}", text.len()).into_bytes()
}

/// A whole session: `initialize`, `middle`, ten requests, `shutdown` and `exit`.
fn session(middle: &[u8]) -> Arc<[u8]> {
    let mut input = frame(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
    input.extend(middle);
    input.extend(requests(10, 1_000_000_000));
    input.extend(frame(
        &json!({"jsonrpc": "2.0", "id": -1, "method": "shutdown"}),
    ));
    input.extend(frame(&json!({"jsonrpc": "2.0", "method": "exit"})));
    input.into()
}

/// `n` requests the server answers (with "method not found"), ids from `first`.
fn requests(n: usize, first: usize) -> Vec<u8> {
    (first..first + n)
        .flat_map(|id| {
            frame(&json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/unknownThing", "params": {}}))
        })
        .collect()
}

/// Serves `input` to its end; checks that the server answered every request.
fn serve(input: &Arc<[u8]>, answers: usize) {
    let mut output = Vec::new();
    match syncdef_lsp::serve(Cursor::new(Arc::clone(input)), &mut output) {
        Ok(syncdef_lsp::Exit::Clean) => {}
        other => panic!("the session did not end cleanly: {other:?}"),
    }
    let answered = memchr::memmem::find_iter(&output, b"\"id\":").count();
    assert!(
        answered >= answers,
        "{answered} answers, {answers} expected"
    );
}

/// `n` well-formed requests in one stream.
fn frames(n: usize) -> (Arc<[u8]>, usize) {
    (session(&requests(n, 1)), n + 12)
}

/// A header line of `n` KiB without a line end, then a blank line.
fn header_line(n: usize) -> (Arc<[u8]>, usize) {
    let mut middle = b"Content-Length: 5".to_vec();
    middle.resize(middle.len() + n * 1024, b'7');
    middle.extend(b"\r\n\r\n");
    (session(&middle), 12)
}

/// A header block of `n` KiB of lines (`X-Filler: ...`) that never ends.
fn header_block(n: usize) -> (Arc<[u8]>, usize) {
    let mut middle = b"Content-Length: 5\r\n".to_vec();
    while middle.len() < n * 1024 {
        middle.extend(b"X-Filler: 0123456789\r\n");
    }
    middle.extend(b"\r\n");
    (session(&middle), 12)
}

/// A frame whose length is not a number, with a body of `n` KiB, skipped.
fn skipped_body(n: usize) -> (Arc<[u8]>, usize) {
    let mut middle = b"Content-Length: abc\r\n\r\n".to_vec();
    middle.resize(middle.len() + n * 1024, b'x');
    (session(&middle), 12)
}

/// A session's input, and how many answers it must get.
type Session = (Arc<[u8]>, usize);

const DIMENSIONS: &[scaling::Dimension<Session>] = &[
    ("requests in one stream", 2000, frames),
    ("header line without end (KiB)", 1024, header_line),
    ("header block without end (KiB)", 1024, header_block),
    ("skipped body of a bad length (KiB)", 1024, skipped_body),
];

/// A one-line text outside ASCII (a minified document) of `n` keys, and the offset of each key:
/// a diagnostic each, whose LSP position counts UTF-16 units from the line's start.
fn one_line_keys(n: usize) -> (String, Vec<usize>) {
    let mut text = String::from("{");
    let mut offsets = Vec::with_capacity(n);
    for i in 0..n {
        offsets.push(text.len() + 1);
        text.push_str(&format!("\"clé{i}\": \"𝄞\", "));
    }
    text.push('}');
    (text, offsets)
}

/// The LSP positions of every key of `text`, as the diagnostics of a document are sent.
fn positions(text: &str, offsets: &[usize]) {
    let map = syncdef_lsp::position::LineMap::new(text);
    for &offset in offsets {
        std::hint::black_box(map.position(text, offset));
    }
}

/// The dimensions of the diagnostics' positions.
const POSITIONS: &[scaling::Dimension<(String, Vec<usize>)>] =
    &[("diagnostic positions on one line", 2000, one_line_keys)];

fn main() {
    scaling::print_header();
    let mut all = scaling::measure_all(POSITIONS, |(text, offsets)| positions(text, offsets));
    all.extend(scaling::measure_all(DIMENSIONS, |(input, answers)| {
        serve(input, *answers);
    }));
    scaling::finish(&all);
}
