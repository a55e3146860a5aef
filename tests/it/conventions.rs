//! End-to-end tests of the conventions CI systems and editors rely on, whatever the command:
//! SARIF that says when a run failed, camelCase JSON, `-q`/`-v`, and colour from the
//! environment.

use crate::common;

use common::{fixture, syncdef};
use serde_json::Value;

/// Fails with every violation of the SARIF 2.1.0 schema (vendored by the validator's tests).
pub(crate) fn assert_valid_sarif(log: &Value) {
    let mut schema: Value =
        serde_json::from_str(include_str!("../../validator/tests/sarif-2.1.0-rtm.5.json"))
            .expect("schema is JSON");
    // The published schema's `language` patterns end with a stray `]` (a known erratum) that
    // the regex engine refuses; our logs never set `language`.
    for owner in ["run", "toolComponent"] {
        schema["definitions"][owner]["properties"]["language"]["pattern"] =
            "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".into();
    }
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

fn sarif_of(stdout: &str) -> Value {
    let log: Value = serde_json::from_str(stdout).expect("stdout is one JSON document");
    assert_valid_sarif(&log);
    log
}

fn invocation(log: &Value) -> &Value {
    &log["runs"][0]["invocations"][0]
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("syncdef-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn sarif_of_a_run_with_findings_is_successful_with_fingerprints() {
    let run = syncdef(&["lint", "--format", "sarif", &fixture("lint/mistakes.yaml")]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let log = sarif_of(&run.stdout);
    assert_eq!(invocation(&log)["executionSuccessful"], true);
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for result in results {
        assert!(
            result["partialFingerprints"]
                .as_object()
                .is_some_and(|f| !f.is_empty())
        );
        let artifact = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(artifact["uri"], "tests/fixtures/lint/mistakes.yaml");
        assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
    }
}

#[test]
fn sarif_of_a_run_that_could_not_start_says_it_failed() {
    // An unreadable --config stops the run before any file is linted: exit 2, and still a
    // SARIF log, which no upload can mistake for a clean run.
    let run = syncdef(&[
        "lint",
        "--format",
        "sarif",
        "--config",
        "no/such/syncdef.toml",
        &fixture("lint/valid.yaml"),
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("no/such/syncdef.toml"),
        "{}",
        run.stderr
    );
    let log = sarif_of(&run.stdout);
    assert_eq!(invocation(&log)["executionSuccessful"], false);
    let text = invocation(&log)["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .expect("a notification");
    assert!(text.contains("no/such/syncdef.toml"), "{text}");
}

#[test]
fn sarif_of_a_run_that_could_not_read_a_path_says_it_failed() {
    let run = syncdef(&["lint", "--format", "sarif", "no/such/definition.yaml"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let log = sarif_of(&run.stdout);
    assert_eq!(invocation(&log)["executionSuccessful"], false);
    let text = invocation(&log)["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .expect("a notification");
    assert!(text.contains("no/such/definition.yaml"), "{text}");
}

#[test]
fn sarif_lists_the_rules_that_fired_and_those_configured() {
    let dir = temp_dir("sarif-rules");
    let config = dir.join("syncdef.toml");
    std::fs::write(&config, "[rules]\nSD704 = \"warning\"\n").expect("write syncdef.toml");
    let run = syncdef(&[
        "lint",
        "--format",
        "sarif",
        "--config",
        &config.to_string_lossy(),
        &fixture("lint/valid.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let log = sarif_of(&run.stdout);
    let ids: Vec<&str> = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(ids, ["SD704"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_json_key_walk_finds_snake_and_kebab_case_but_not_in_user_data() {
    use common::json_keys::non_camel_case_keys;
    let doc = serde_json::json!({
        "diagnostics": [{"end_line": 1, "endColumn": 2}],
        "requests": [{"headers": {"content-type": "x"}, "body": {"Due_Date": 1}}],
        "entries": {"my_entry": {"pushed-as-dependency": 0}},
    });
    assert_eq!(
        non_camel_case_keys(&doc),
        [
            "/diagnostics/0/end_line",
            "/entries/my_entry/pushed-as-dependency"
        ]
    );
}

/// Each JSON document a command prints, with what printed it.
fn json_outputs() -> Vec<(String, Value)> {
    let qb = "definitions/tests/fixtures/quickbooks-online.yaml";
    let record = "tests/fixtures/dry_run/account.json";
    let mistakes = fixture("lint/mistakes.yaml");
    let runs: Vec<Vec<&str>> = vec![
        vec!["lint", "--format", "json", &mistakes],
        vec!["lint", "--format", "sarif", &mistakes],
        vec!["rules", "--format", "json"],
        vec![
            "push",
            "--dry-run",
            qb,
            "--entry",
            "Account",
            "--record",
            record,
            "--external-id",
            "67",
            "--responses",
            "tests/fixtures/dry_run/qb-update-responses.json",
            "--format",
            "json",
        ],
        // A definition with lint errors: the refusal is the lint's JSON document.
        vec![
            "push",
            "--dry-run",
            &mistakes,
            "--entry",
            "Customer",
            "--record",
            record,
            "--format",
            "json",
        ],
        // Nothing listens on the discard port of loopback: a failed push, with its error.
        vec![
            "push",
            qb,
            "--entry",
            "Account",
            "--record",
            record,
            "--var",
            "realmId=1",
            "--base-url",
            "http://127.0.0.1:9",
            "--max-attempts",
            "1",
            "--format",
            "json",
        ],
    ];
    runs.into_iter()
        .map(|args| {
            let run = syncdef(&args);
            let what = args.join(" ");
            let doc = serde_json::from_str(&run.stdout)
                .unwrap_or_else(|e| panic!("{what}: stdout is not JSON ({e}): {}", run.stderr));
            (what, doc)
        })
        .collect()
}

#[test]
fn every_json_document_names_its_fields_in_camel_case() {
    // `sync` and `sync status` are walked in tests/it/sync.rs, which has the servers they need.
    let outputs = json_outputs();
    assert_eq!(outputs.len(), 6);
    for (what, doc) in &outputs {
        common::json_keys::assert_camel_case(doc, what);
    }
    // `rules` takes `--format json` like every other command; `--json` still works.
    let old = syncdef(&["rules", "--json"]);
    assert_eq!(old.code, 0, "{}", old.stderr);
    assert_eq!(old.stdout, syncdef(&["rules", "--format", "json"]).stdout);
}

/// Runs the binary from the workspace root with `env` set and `RUST_LOG` and the colour
/// variables removed (the test's own environment must not decide).
fn run_env(args: &[&str], env: &[(&str, &str)]) -> common::Run {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_syncdef"));
    command.args(args).current_dir(common::root());
    for name in [
        "RUST_LOG",
        "NO_COLOR",
        "FORCE_COLOR",
        "CLICOLOR_FORCE",
        "TERM",
    ] {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    common::Run::from(command.output().expect("syncdef runs"))
}

/// A push to the discard port of loopback, where nothing listens: the engine retries once
/// (an INFO event) after sending (a DEBUG event).
fn push_to_nowhere(flags: &[&str]) -> common::Run {
    push_to_nowhere_with(flags, &[])
}

/// [`push_to_nowhere`] with `env` set.
fn push_to_nowhere_with(flags: &[&str], env: &[(&str, &str)]) -> common::Run {
    let mut args = vec![
        "push",
        "definitions/tests/fixtures/quickbooks-online.yaml",
        "--entry",
        "Account",
        "--record",
        "tests/fixtures/dry_run/account.json",
        "--var",
        "realmId=1",
        "--base-url",
        "http://127.0.0.1:9",
        "--max-attempts",
        "2",
        "--format",
        "json",
    ];
    args.extend_from_slice(flags);
    // The definition's operations require OAuth2: without a token nothing would be sent.
    let mut env = env.to_vec();
    env.push(("SYNCDEF_ACCESS_TOKEN", "local-token"));
    let run = run_env(&args, &env);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    run
}

#[test]
fn verbose_and_quiet_set_the_log_level() {
    let retry = "retrying external request";
    let default = push_to_nowhere(&[]);
    assert!(!default.stderr.contains(retry), "{}", default.stderr);
    let verbose = push_to_nowhere(&["-v"]);
    assert!(verbose.stderr.contains(retry), "{}", verbose.stderr);
    assert!(!verbose.stderr.contains("DEBUG"), "{}", verbose.stderr);
    let very = push_to_nowhere(&["-vv"]);
    assert!(very.stderr.contains("DEBUG"), "{}", very.stderr);
    let quiet = push_to_nowhere(&["--quiet"]);
    assert!(!quiet.stderr.contains(retry), "{}", quiet.stderr);
    // The machine format on stdout is the same whatever the verbosity.
    let strip = |run: &common::Run| {
        let mut doc: Value = serde_json::from_str(&run.stdout).expect("JSON");
        doc["outcome"]["duration"] = Value::Null;
        doc["outcome"]["notes"] = Value::Null;
        // The backoff is drawn at random.
        doc["outcome"]["error"]["retryAfterMs"] = Value::Null;
        doc["requests"] = Value::Null;
        doc
    };
    assert_eq!(strip(&default), strip(&quiet));
    assert_eq!(strip(&default), strip(&very));
}

#[test]
fn rust_log_chooses_levels_by_target_and_a_flag_beats_it() {
    let engine = push_to_nowhere_with(&[], &[("RUST_LOG", "error,syncdef_engine=debug")]);
    assert!(engine.stderr.contains("DEBUG"), "{}", engine.stderr);
    let elsewhere = push_to_nowhere_with(&[], &[("RUST_LOG", "error,syncdef_worker=debug")]);
    assert!(!elsewhere.stderr.contains("DEBUG"), "{}", elsewhere.stderr);
    let flagged = push_to_nowhere_with(&["-q"], &[("RUST_LOG", "syncdef_engine=debug")]);
    assert!(!flagged.stderr.contains("DEBUG"), "{}", flagged.stderr);
    let mistyped = push_to_nowhere_with(&["-q"], &[("RUST_LOG", "syncdef_engine=loud")]);
    assert!(
        !mistyped.stderr.contains("RUST_LOG"),
        "a flag leaves RUST_LOG unread"
    );
    let mistyped = push_to_nowhere_with(&[], &[("RUST_LOG", "syncdef_engine=loud")]);
    assert!(
        mistyped
            .stderr
            .contains("RUST_LOG=\"syncdef_engine=loud\" is not"),
        "{}",
        mistyped.stderr
    );
}

#[test]
fn verbosity_flags_are_accepted_by_every_command_anywhere_on_the_line() {
    for args in [
        ["-q", "rules"],
        ["rules", "-v"],
        ["-vv", "schema"],
        ["-q", "explain"],
    ] {
        let mut args = args.to_vec();
        if args.contains(&"explain") {
            args.push("SD100");
        }
        let run = run_env(&args, &[]);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    }
    let extra: Vec<&str> = vec!["sync", "status", "-q", "--help"];
    assert_eq!(run_env(&extra, &[]).code, 0);
    let both = run_env(&["rules", "-q", "-v"], &[]);
    assert_eq!(both.code, 2, "-q with -v is a usage error: {}", both.stderr);
}

#[test]
fn quiet_lint_drops_the_summary_line_but_never_a_finding() {
    let mistakes = fixture("lint/mistakes.yaml");
    let loud = run_env(&["lint", &mistakes], &[]);
    let quiet = run_env(&["lint", "-q", &mistakes], &[]);
    assert_eq!(quiet.code, 1);
    assert!(loud.stdout.contains("Found "), "{}", loud.stdout);
    assert!(!quiet.stdout.contains("Found "), "{}", quiet.stdout);
    assert!(quiet.stdout.contains("SD202"), "{}", quiet.stdout);
    assert!(
        loud.stdout.starts_with(quiet.stdout.trim_end()),
        "{}",
        quiet.stdout
    );
    let clean = run_env(&["lint", "--quiet", &fixture("lint/valid.yaml")], &[]);
    assert_eq!((clean.code, clean.stdout.as_str()), (0, ""));
    // A path that could not be linted is still said.
    let missing = run_env(&["lint", "-q", "no/such/definition.yaml"], &[]);
    assert!(
        missing.stdout.contains("no/such/definition.yaml"),
        "{}",
        missing.stdout
    );
    // Machine formats are untouched.
    for format in ["json", "sarif", "github"] {
        let plain = run_env(&["lint", "--format", format, &mistakes], &[]);
        let quiet = run_env(&["lint", "--format", format, "-q", &mistakes], &[]);
        assert_eq!(plain.stdout, quiet.stdout, "{format}");
    }
}

#[test]
fn colour_follows_the_flag_then_no_color_then_force_color() {
    let mistakes = fixture("lint/mistakes.yaml");
    let coloured = |args: &[&str], env: &[(&str, &str)]| {
        let mut all = vec!["lint", mistakes.as_str()];
        all.extend_from_slice(args);
        let run = run_env(&all, env);
        assert_eq!(run.code, 1, "{}", run.stderr);
        run.stdout.contains('\u{1b}')
    };
    // Tests write into a pipe, never a terminal: plain unless forced.
    assert!(!coloured(&[], &[]));
    assert!(coloured(&[], &[("FORCE_COLOR", "1")]));
    assert!(coloured(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!coloured(&[], &[("FORCE_COLOR", "0")]));
    assert!(!coloured(&[], &[("FORCE_COLOR", "")]));
    assert!(!coloured(&[], &[("NO_COLOR", "1"), ("FORCE_COLOR", "1")]));
    assert!(coloured(&[], &[("NO_COLOR", ""), ("FORCE_COLOR", "1")]));
    assert!(!coloured(&["--color", "never"], &[("FORCE_COLOR", "1")]));
    assert!(coloured(&["--color", "always"], &[("NO_COLOR", "1")]));
}
