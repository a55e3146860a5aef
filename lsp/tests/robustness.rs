//! Nothing a client sends ends the server: not garbage on the wire, not a message that is not
//! JSON-RPC, not a document that is not a definition. Only `exit` (or the end of input) does.

mod support;

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
