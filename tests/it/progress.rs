//! Progress bars of `pull` and of `lint` over many files: drawn on stderr when it is a
//! terminal (a pseudo-terminal from `script`), and nothing of them when it is not (a pipe,
//! as in CI and every other test here): the lines printed are the same as without bars.

use crate::common;

use std::process::Command;

const PULL: [&str; 7] = [
    "pull",
    "engine/tests/fixtures/pull.yaml",
    "--entry",
    "Customer",
    "--dry-run",
    "--responses",
    "tests/fixtures/pull/pages.json",
];

/// What `syncdef args` writes on its stderr when stderr is a terminal (stdout goes to
/// `/dev/null`), through util-linux's `script`.
fn on_a_terminal(args: &[&str]) -> String {
    let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_syncdef"))
        .chain(args.iter().copied())
        .map(|arg| format!("'{}'", arg.replace('\'', r"'\''")))
        .collect();
    let output = Command::new("script")
        .args([
            "-qec",
            &format!("{} > /dev/null", quoted.join(" ")),
            "/dev/null",
        ])
        .current_dir(common::root())
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .output()
        .expect("`script` (util-linux) runs the command on a pseudo-terminal");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Whether `text` holds what a bar draws with: carriage returns and escape sequences.
fn drawn(text: &str) -> bool {
    text.contains('\r') || text.contains('\u{1b}')
}

#[test]
fn pull_shows_records_and_pages_on_a_terminal_and_nothing_more_in_a_pipe() {
    let shown = on_a_terminal(&PULL);
    assert!(
        shown.contains("Customer: 3 record(s), 3 page(s)"),
        "{shown:?}"
    );
    assert!(shown.contains("records/s"), "{shown:?}");
    // Lines printed meanwhile stand above the bar, and the summary stays after it.
    assert!(shown.contains("page 2, element 1"), "{shown:?}");
    assert!(
        shown.contains("3 record(s) from 3 page(s), 1 element(s) set apart"),
        "{shown:?}"
    );

    // Logs for a collector: no bar on the terminal either.
    let mut json = PULL.to_vec();
    json.extend(["--log-format", "json"]);
    let collected = on_a_terminal(&json);
    assert!(!collected.contains("record(s), "), "{collected:?}");
    assert!(
        collected.contains("3 record(s) from 3 page(s)"),
        "{collected:?}"
    );

    let piped = common::syncdef(&PULL);
    assert_eq!(piped.code, 1, "{}", piped.stderr);
    assert!(!drawn(&piped.stderr), "{:?}", piped.stderr);
    let lines: Vec<&str> = piped.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", piped.stderr);
    assert!(
        lines[0].starts_with("Customer: page 2, element 1: "),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        "3 record(s) from 3 page(s), 1 element(s) set apart (above)"
    );
}

#[test]
fn lint_of_many_files_shows_files_done_on_a_terminal_and_nothing_in_a_pipe() {
    let shown = on_a_terminal(&["lint", "catalog"]);
    assert!(shown.contains("linting ["), "{shown:?}");
    assert!(shown.contains(" files ("), "{shown:?}");

    let piped = common::syncdef(&["lint", "catalog"]);
    assert!(!drawn(&piped.stderr), "{:?}", piped.stderr);
    assert!(!piped.stderr.contains("linting ["), "{}", piped.stderr);
    // One file alone has no bar, on a terminal too.
    let one = on_a_terminal(&["lint", "catalog/quickbooks-online/definition.yaml"]);
    assert!(!one.contains("linting ["), "{one:?}");
}
