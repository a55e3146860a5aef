//! Nothing a client sends ends the server: not garbage on the wire, not a message that is not
//! JSON-RPC, not a document that is not a definition. Only `exit` (or the end of input) does.

use crate::support;

use serde_json::{Value, json};
use support::{catalog, start};

#[test]
fn garbage_on_the_wire_is_answered_and_the_server_reads_on() {
    let mut client = start();
    client.initialize();
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    let error = client.take(|m| m.get("error").is_some());
    assert_eq!(error["id"], Value::Null);
    assert_eq!(error["error"]["code"], -32700);
    client.send_raw(b"this is no header\r\n\r\n");
    let error = client.take(|m| m.get("error").is_some());
    assert_eq!(error["error"]["code"], -32700);
    client.send(&json!({"jsonrpc": "2.0", "id": 41, "method": 5}));
    let error = client.take(|m| m.get("error").is_some());
    assert_eq!(error["id"], 41);
    assert_eq!(error["error"]["code"], -32600);
    // Parameters of the wrong shape for a notification are ignored, for a request refused.
    client.notify("textDocument/didOpen", json!({"textDocument": 3}));
    let unknown = client.request("textDocument/unknownThing", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    client.shut_down();
}

#[test]
fn a_document_that_is_no_definition_gets_findings_not_a_dead_server() {
    let mut client = start();
    client.initialize();
    let uri = "file:///nowhere/broken.yaml";
    client.open(
        uri,
        "yaml",
        "synchronization: {Account: [\n\t: : ]]]\u{0}\u{feff}é𝄞",
    );
    let published = client.diagnostics(uri);
    let diagnostics = published["diagnostics"].as_array().expect("a list");
    assert!(!diagnostics.is_empty(), "{published}");
    let first = &diagnostics[0];
    assert!(
        first["code"].as_str().is_some_and(|c| c.starts_with("SD")),
        "{first}"
    );
    // Edits anywhere, even past the end, keep it alive.
    client.change(uri, 2, [(90, 3), (99, 0)], "{\"x\": [1, 2");
    client.diagnostics(uri);
    let (_, good_uri, text) = catalog("quickbooks-online/definition.yaml");
    client.open(&good_uri, "yaml", &text);
    assert_eq!(client.diagnostics(&good_uri)["diagnostics"], json!([]));
    client.shut_down();
}

#[test]
fn requests_before_initialize_and_after_shutdown_are_refused() {
    let mut client = start();
    let early = client.request("textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], -32002);
    client.initialize();
    let again = client.request("initialize", json!({"capabilities": {}}));
    assert_eq!(again["error"]["code"], -32600);
    assert_eq!(client.call("shutdown", Value::Null), Value::Null);
    let late = client.request("textDocument/hover", json!({}));
    assert_eq!(late["error"]["code"], -32600);
    client.notify("exit", Value::Null);
}

/// Sends ten well-formed requests at once, then waits for the answer to each.
fn ten_requests_are_answered(client: &mut support::Client, first_id: i64) {
    for id in first_id..first_id + 10 {
        client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/unknownThing", "params": {}}));
    }
    for id in first_id..first_id + 10 {
        let answer = client.take(|m| m["id"] == id && m.get("method").is_none());
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
    }
}

/// The next `window/logMessage` notification (the server logs nothing but skipped input).
fn skip_logs(client: &mut support::Client) -> Value {
    client.notification("window/logMessage")
}

#[test]
fn after_a_frame_of_a_wrong_length_the_server_finds_the_next_frame_and_answers_it() {
    let body = r#"{"jsonrpc":"2.0","id":900,"method":"textDocument/unknownThing","params":{}}"#;
    let bad_frames = [
        format!("Content-Length: abc\r\n\r\n{body}"),
        format!("Content-Length: -1\r\n\r\n{body}"),
        format!("Content-Length: 10\r\n\r\n{body}"),
        format!("Content-Length: 1.5\r\nContent-Type: x\r\n\r\n{body}"),
    ];
    let mut client = start();
    client.initialize();
    for (i, bad) in bad_frames.iter().enumerate() {
        client.send_raw(bad.as_bytes());
        let error = client.take(|m| m.get("error").is_some() && m["id"].is_null());
        assert_eq!(error["error"]["code"], -32700, "{bad}: {error}");
        ten_requests_are_answered(&mut client, 1000 + 100 * i64::try_from(i).unwrap_or(0));
        let log = skip_logs(&mut client);
        let message = log["message"].as_str().unwrap_or_default();
        assert!(message.contains("skipped"), "{bad}: {log}");
        assert!(message.len() < 300, "{message}");
    }
    client.shut_down();
}

#[test]
fn a_header_line_without_end_is_cut_short_and_the_server_answers_after_it() {
    let mut client = start();
    client.initialize();
    let started = std::time::Instant::now();
    // 50 MB of header without a line end, in pieces (a pipe takes a few KiB at a time; the
    // server must read them as they come and keep none of them).
    client.send_raw(b"Content-Length: 5");
    let piece = vec![b'7'; 1 << 20];
    for _ in 0..50 {
        client.send_raw(&piece);
    }
    client.send_raw(b"\r\n\r\n");
    let error = client.take(|m| m.get("error").is_some() && m["id"].is_null());
    assert_eq!(error["error"]["code"], -32700, "{error}");
    let message = error["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.len() < 200,
        "the error quotes the whole line: {} bytes",
        message.len()
    );
    ten_requests_are_answered(&mut client, 2000);
    let log = skip_logs(&mut client);
    assert!(
        log["message"].as_str().is_some_and(|m| m.len() < 300),
        "{log}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "50 MB of header took {:?}",
        started.elapsed()
    );
    client.shut_down();
}

#[test]
fn a_header_block_without_end_is_cut_short_too() {
    let mut client = start();
    client.initialize();
    let lines = "X-Filler: 0123456789\r\n".repeat(100_000);
    client.send_raw(format!("Content-Length: 5\r\n{lines}").as_bytes());
    client.send_raw(b"\r\n{}");
    let error = client.take(|m| m.get("error").is_some() && m["id"].is_null());
    assert_eq!(error["error"]["code"], -32700, "{error}");
    ten_requests_are_answered(&mut client, 3000);
    client.shut_down();
}
