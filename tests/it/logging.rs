//! `--log-format`, a global flag: the log lines on stderr as text (the default) or as one JSON
//! object per line, for a command logging through the common setup (`push`) as for `sync`,
//! which sets up its own (tests/it/sync.rs checks it, secrets included).

use crate::common;

use serde_json::Value;

const DEFINITION: &str = "catalog/quickbooks-online/definition.yaml";
const ACCOUNT: &str = "tests/fixtures/dry_run/account.json";

fn push_dry_run(extra: &[&str]) -> common::Run {
    let mut args = vec![
        "push",
        DEFINITION,
        "--entry",
        "Account",
        "--record",
        ACCOUNT,
        "--dry-run",
        "-vv",
    ];
    args.extend(extra);
    common::syncdef(&args)
}

#[test]
fn json_logs_are_one_object_per_line_with_level_target_and_fields() {
    let run = push_dry_run(&["--log-format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<Value> = run
        .stderr
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    let request = lines
        .iter()
        .find(|line| line["fields"]["message"] == "external request")
        .unwrap_or_else(|| panic!("no request logged:\n{}", run.stderr));
    assert_eq!(request["level"], "DEBUG", "{request}");
    assert_eq!(request["target"], "syncdef_engine::call::send", "{request}");
    assert_eq!(request["fields"]["step"], "create", "{request}");
    assert_eq!(request["fields"]["attempt"], 1, "{request}");
    assert!(request["timestamp"].is_string(), "{request}");
}

#[test]
fn text_stays_the_default_log_format() {
    let default = push_dry_run(&[]);
    let text = push_dry_run(&["--log-format", "text"]);
    for run in [&default, &text] {
        assert_eq!(run.code, 0, "{}", run.stderr);
        let line = run
            .stderr
            .lines()
            .find(|line| line.contains("external request"))
            .unwrap_or_else(|| panic!("no request logged:\n{}", run.stderr));
        assert!(
            line.contains(" DEBUG syncdef_engine::call::send: external request step=create"),
            "{line}"
        );
    }
    let unknown = push_dry_run(&["--log-format", "yaml"]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(
        unknown.stderr.contains("[possible values: text, json]"),
        "{}",
        unknown.stderr
    );
}
