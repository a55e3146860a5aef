//! Helpers shared by the end-to-end tests: run the built `syncdef` binary and capture what it
//! prints, with colors off and paths relative to the workspace root so snapshots are stable.

#![allow(dead_code)]

pub mod dice;
pub mod json_keys;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What one run printed and returned.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<std::process::Output> for Run {
    fn from(output: std::process::Output) -> Run {
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

/// The workspace root: tests run the binary from there so that file names in output are short
/// and the same on every machine.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// A fixture path relative to the workspace root.
pub fn fixture(name: &str) -> String {
    format!("tests/fixtures/{name}")
}

fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_syncdef"));
    cmd.args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env("COLUMNS", "100");
    cmd
}

pub fn syncdef(args: &[&str]) -> Run {
    syncdef_with_stdin(args, "")
}

/// Runs the binary from `dir` instead of the workspace root.
pub fn syncdef_in(dir: &Path, args: &[&str]) -> Run {
    let output = command(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("syncdef runs to completion");
    Run::from(output)
}

pub fn syncdef_with_stdin(args: &[&str], stdin: &str) -> Run {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the syncdef binary starts");
    if let Some(mut input) = child.stdin.take() {
        // The command may exit before reading (usage errors); a closed pipe is fine then.
        let _ = input.write_all(stdin.as_bytes());
    }
    let output = child
        .wait_with_output()
        .expect("syncdef runs to completion");
    Run::from(output)
}

/// The binary with `args` and `env` added, as a run beside the loopback servers starts it:
/// from the workspace root, logging at `warn`, with no credentials or state of the caller's.
pub fn syncdef_command(args: &[String], env: &'static [(&'static str, &'static str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_syncdef"));
    command
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("RUST_LOG", "warn")
        .env_remove("SYNCDEF_PLATFORM_CREDENTIALS")
        .env_remove("SYNCDEF_STATE")
        .envs(env.iter().copied());
    command
}

/// Runs the binary with `env` added, off the async runtime, so that mock servers running on it
/// keep answering meanwhile. Logs at `warn`.
pub async fn syncdef_beside_servers(
    args: Vec<String>,
    env: &'static [(&'static str, &'static str)],
) -> Run {
    tokio::task::spawn_blocking(move || {
        let output = syncdef_command(&args, env).output().expect("syncdef runs");
        Run::from(output)
    })
    .await
    .expect("the run finishes")
}
