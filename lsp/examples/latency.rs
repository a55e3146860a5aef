//! Measures what an editor waits for: the time from a `didChange` to the `publishDiagnostics`
//! of its version (the 150 ms quiet time included), and from a completion request to its
//! answer, on a shipped definition, with the server on in-process pipes.
//!
//! `cargo run --release -p syncdef-lsp --example latency [-- DEFINITION]` (default: the
//! QuickBooks Online definition). Prints medians and 90th percentiles; asserts nothing.

#[path = "../tests/support/client.rs"]
mod client;

use std::time::{Duration, Instant};

use client::{Client, find};
use serde_json::json;

const CHANGES: usize = 30;
const COMPLETIONS: usize = 200;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).map_or_else(
        || {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../catalog/quickbooks-online/definition.yaml")
        },
        std::path::PathBuf::from,
    );
    let path = std::fs::canonicalize(path)?;
    let text = std::fs::read_to_string(&path)?;
    let uri = format!("file://{}", path.display());
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &text);
    client.diagnostics(&uri);

    // Alternate a misspelt and a correct module, so every version has a finding to publish.
    let Some(module) = text.find("module: ") else {
        return Err("the definition has no `module:` to edit".into());
    };
    let (line, character) = client::position_of(&text, module + "module: ".len());
    let first = text[module + "module: ".len()..]
        .split_whitespace()
        .next()
        .unwrap_or("");
    let mut lint_times = Vec::new();
    for version in 2..2 + CHANGES {
        let word = if version % 2 == 0 { "Acounts" } else { first };
        let previous = if version % 2 == 0 { first } else { "Acounts" };
        let span = u32::try_from(previous.len())?;
        let started = Instant::now();
        let version = i32::try_from(version)?;
        client.change(
            &uri,
            version,
            [(line, character), (line, character + span)],
            word,
        );
        let published = client.diagnostics(&uri);
        lint_times.push(started.elapsed());
        assert_eq!(
            published["version"], version,
            "the diagnostics of the version sent"
        );
    }

    let (line, character) = find(&text, "create: ", "create: ".len());
    let mut completion = Vec::new();
    for _ in 0..COMPLETIONS {
        let started = Instant::now();
        let params = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
        client.call("textDocument/completion", params);
        completion.push(started.elapsed());
    }
    client.shut_down();
    report(
        &path.display().to_string(),
        "didChange -> publishDiagnostics",
        &mut lint_times,
    );
    report(
        &path.display().to_string(),
        "completion request -> answer",
        &mut completion,
    );
    Ok(())
}

fn start() -> Client {
    let (server_in, client_out) = std::io::pipe().expect("a pipe");
    let (client_in, server_out) = std::io::pipe().expect("a pipe");
    std::thread::spawn(move || syncdef_lsp::serve(server_in, server_out));
    Client::new(client_out, client_in)
}

#[expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a quantile in 0..=1 of a short list of runs, rounded to an index inside it"
)]
fn report(file: &str, what: &str, times: &mut [Duration]) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{file}: {what}: median {:.1} ms, p90 {:.1} ms ({} runs)",
        at(0.5).as_secs_f64() * 1000.0,
        at(0.9).as_secs_f64() * 1000.0,
        times.len()
    );
}
