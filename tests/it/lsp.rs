//! `syncdef lsp` as an editor starts it: a process speaking LSP on its standard streams.

#[path = "../../lsp/tests/support/client.rs"]
mod client;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use client::{Client, find};
use serde_json::{Value, json};

fn spawn() -> (Child, Client) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_syncdef"))
        .args(["lsp", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("syncdef lsp starts");
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    (child, Client::new(stdin, stdout))
}

/// The exit status, waiting at most `client::PATIENCE`.
fn status(child: &mut Child) -> i32 {
    let deadline = Instant::now() + client::PATIENCE;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code().expect("exited, not killed");
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("syncdef lsp did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn quickbooks() -> (String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../catalog/quickbooks-online/definition.yaml");
    let path = std::fs::canonicalize(path).expect("the catalog definition");
    let text = std::fs::read_to_string(&path).expect("readable");
    (format!("file://{}", path.display()), text)
}

#[test]
fn the_binary_publishes_findings_survives_garbage_and_exits_cleanly() {
    let (mut child, mut client) = spawn();
    let capabilities = client.initialize();
    assert_eq!(capabilities["textDocumentSync"], 2, "incremental sync");
    let (uri, text) = quickbooks();
    client.open(&uri, "yaml", &text);
    assert_eq!(client.diagnostics(&uri)["diagnostics"], json!([]));

    client.send_raw(b"Content-Length: 5\r\n\r\n]]]]]");
    let error = client.take(|m| m.get("error").is_some());
    assert_eq!(error["error"]["code"], -32700);

    let (line, character) = find(&text, "module: Accounts", "module: Ac".len());
    client.change(&uri, 2, [(line, character), (line, character + 1)], "");
    let published = client.diagnostics(&uri);
    assert_eq!(published["version"], 2);
    let finding = &published["diagnostics"][0];
    assert_eq!(finding["code"], "SD601", "{published}");
    assert_eq!(
        finding["range"],
        client::lsp_range([(line, 12), (line, 19)])
    );

    let (line, character) = find(&text, "create: /customer/post", "create: /cu".len());
    let items = client.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .map(|a| a.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    assert!(labels.contains(&"/customer/post"), "{items}");

    client.shut_down();
    assert_eq!(status(&mut child), 0);
}

#[test]
fn exit_without_shutdown_or_a_closed_input_exit_with_1() {
    let (mut child, mut client) = spawn();
    client.initialize();
    client.notify("exit", Value::Null);
    assert_eq!(status(&mut child), 1);

    let (mut child, client) = spawn();
    drop(client);
    assert_eq!(status(&mut child), 1);
}
