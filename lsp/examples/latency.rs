//! Measures what an editor waits for, and what the server holds in memory: the time from a
//! `didChange` to the `publishDiagnostics` of its version (the 150 ms quiet time included),
//! from a completion request to its answer (on settled text, and right after a change, before
//! its lint), and the server process's resident memory (peak and after the edits).
//!
//! `cargo run --release -p syncdef-lsp --example latency [-- DEFINITION [CHANGES [COMPLETIONS]]]`
//! (default: the QuickBooks Online definition, 30 changes, 200 completions). The server runs
//! as a child process (this program, with `--serve`), so that its memory is its own; with
//! `SYNCDEF=path/to/syncdef` in the environment it is that binary's `syncdef lsp`, as an
//! editor starts it. Prints medians and 95th percentiles; asserts nothing.

#![expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "percentiles and mebibytes of a measurement: counts far below 2^52, rounded on purpose"
)]

#[path = "../tests/support/client.rs"]
mod client;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use client::Client;
use serde_json::json;

/// The operation reference completed: the value of the first `create`, cut after this many
/// bytes (a path being typed), or all of it when shorter.
const TYPED: usize = 25;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--serve") {
        syncdef_lsp::serve(std::io::stdin(), std::io::stdout())?;
        return Ok(());
    }
    let path = args.first().map_or_else(
        || {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../catalog/quickbooks-online/definition.yaml")
        },
        std::path::PathBuf::from,
    );
    let changes: usize = args.get(1).map_or(Ok(30), |n| n.parse())?;
    let completions: usize = args.get(2).map_or(Ok(200), |n| n.parse())?;
    let path = std::fs::canonicalize(path)?;
    let text = std::fs::read_to_string(&path)?;
    let language = if path.extension().is_some_and(|e| e == "json") {
        "json"
    } else {
        "yaml"
    };
    let uri = format!("file://{}", path.display());
    let (mut server, mut client) = start()?;
    client.initialize();
    let idle = memory(&server)?;

    let started = Instant::now();
    client.open(&uri, language, &text);
    client.diagnostics(&uri);
    let opened = started.elapsed();
    let open = memory(&server)?;

    let module = Edit::module(&text, language)?;
    let mut lint = Vec::new();
    for version in 2..2 + changes {
        let started = Instant::now();
        let version = i32::try_from(version)?;
        module.send(&mut client, &uri, version);
        let published = client.diagnostics(&uri);
        lint.push(started.elapsed());
        assert_eq!(
            published["version"], version,
            "the diagnostics of the version sent"
        );
    }

    let at = operation_reference(&text, language)?;
    let mut settled = Vec::new();
    for _ in 0..completions {
        settled.push(complete(&mut client, &uri, at));
    }
    // While typing: the change's lint is still waiting for its quiet time.
    let mut typing = Vec::new();
    for version in 2 + changes..2 + changes + changes.min(completions) {
        module.send(&mut client, &uri, i32::try_from(version)?);
        typing.push(complete(&mut client, &uri, at));
        client.diagnostics(&uri);
    }
    let after = memory(&server)?;
    client.shut_down();
    server.wait()?;

    let file = path.display().to_string();
    println!(
        "{file}: {} bytes, opened and linted in {:.1} ms",
        text.len(),
        ms(opened)
    );
    report(&file, "didChange -> publishDiagnostics", &mut lint);
    report(&file, "completion request -> answer", &mut settled);
    report(&file, "completion right after a change", &mut typing);
    println!(
        "{file}: server memory: {:.1} MiB before the open, {:.1} MiB after it, {:.1} MiB after the edits, peak {:.1} MiB ({:.2} times the text)",
        mib(idle.resident),
        mib(open.resident),
        mib(after.resident),
        mib(after.peak),
        after.peak as f64 / text.len() as f64
    );
    Ok(())
}

/// This program again serving on its standard streams, or `$SYNCDEF lsp`.
fn start() -> std::io::Result<(Child, Client)> {
    let mut command;
    if let Some(syncdef) = std::env::var_os("SYNCDEF") {
        command = Command::new(syncdef);
        command.arg("lsp");
    } else {
        command = Command::new(std::env::current_exe()?);
        command.arg("--serve");
    }
    let mut server = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let (Some(input), Some(output)) = (server.stdin.take(), server.stdout.take()) else {
        return Err(std::io::Error::other("the server's pipes"));
    };
    Ok((server, Client::new(input, output)))
}

/// A module name switched between a misspelt and the correct one, so that every version has
/// a finding to publish.
struct Edit {
    line: u32,
    character: u32,
    correct: String,
}

impl Edit {
    fn module(text: &str, language: &str) -> Result<Edit, Box<dyn std::error::Error>> {
        let key = if language == "json" {
            "\"module\": \""
        } else {
            "module: "
        };
        let Some(start) = text.find(key).map(|i| i + key.len()) else {
            return Err(format!("the definition has no `{key}` to edit").into());
        };
        let correct: String = text[start..]
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        let (line, character) = client::position_of(text, start);
        Ok(Edit {
            line,
            character,
            correct,
        })
    }

    fn send(&self, client: &mut Client, uri: &str, version: i32) {
        let (word, previous) = if version % 2 == 0 {
            ("Acounts", self.correct.as_str())
        } else {
            (self.correct.as_str(), "Acounts")
        };
        let end = self.character + u32::try_from(previous.len()).unwrap_or(0);
        let range = [(self.line, self.character), (self.line, end)];
        client.change(uri, version, range, word);
    }
}

/// Where an operation reference is being typed: inside the first `create` value.
fn operation_reference(text: &str, language: &str) -> Result<(u32, u32), String> {
    let key = if language == "json" {
        "\"create\": \""
    } else {
        "create: "
    };
    let start = text
        .find(key)
        .map(|i| i + key.len())
        .ok_or_else(|| format!("the definition has no `{key}`"))?;
    let value = text[start..].find(['"', '\n']).unwrap_or(0);
    Ok(client::position_of(text, start + value.min(TYPED)))
}

fn complete(client: &mut Client, uri: &str, (line, character): (u32, u32)) -> Duration {
    let started = Instant::now();
    let params =
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
    let items = client.call("textDocument/completion", params);
    let elapsed = started.elapsed();
    assert!(
        items.as_array().is_some_and(|a| !a.is_empty()),
        "completion offers the operations"
    );
    elapsed
}

/// The server's resident memory now and at its peak, from `/proc` (Linux).
struct Memory {
    resident: u64,
    peak: u64,
}

fn memory(server: &Child) -> Result<Memory, Box<dyn std::error::Error>> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.id()))?;
    let field = |name: &str| -> Result<u64, String> {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches(" kB").parse::<u64>().ok())
            .map(|kib| kib * 1024)
            .ok_or_else(|| format!("no {name} in /proc/{}/status", server.id()))
    };
    Ok(Memory {
        resident: field("VmRSS:")?,
        peak: field("VmHWM:")?,
    })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn report(file: &str, what: &str, times: &mut [Duration]) {
    if times.is_empty() {
        return;
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{file}: {what}: median {:.1} ms, p95 {:.1} ms, max {:.1} ms ({} runs)",
        ms(at(0.5)),
        ms(at(0.95)),
        ms(at(1.0)),
        times.len()
    );
}
