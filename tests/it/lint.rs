//! End-to-end tests of `syncdef lint`, `rules`, `explain` and `schema`.

use crate::common;

use common::{fixture, root, syncdef, syncdef_in, syncdef_with_stdin};

#[test]
fn a_valid_definition_lints_clean() {
    let out = syncdef(&["lint", &fixture("lint/valid.yaml")]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    insta::assert_snapshot!(out.stdout);
}

/// The engine's tests and benchmark load the definitions crate's QuickBooks fixture whole (the
/// engine refuses a definition with lint errors), invoices included: it must stay clean,
/// warnings too.
#[test]
fn the_quickbooks_fixture_of_the_definitions_crate_lints_clean() {
    let path = root().join("definitions/tests/fixtures/quickbooks-online.yaml");
    let path = path.to_string_lossy();
    let out = syncdef(&["lint", "--deny-warnings", "--format", "json", &path]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON output");
    let summary = &report["summary"];
    assert_eq!(summary["files"], serde_json::json!(1), "{}", out.stdout);
    assert_eq!(summary["errors"], serde_json::json!(0), "{}", out.stdout);
    assert_eq!(summary["warnings"], serde_json::json!(0), "{}", out.stdout);
}

#[test]
fn mistakes_are_reported_with_their_location_in_every_format() {
    let file = fixture("lint/mistakes.yaml");
    for format in ["human", "json", "github", "sarif"] {
        let out = syncdef(&["lint", "--format", format, &file]);
        assert_eq!(out.code, 1, "{format}: {}{}", out.stdout, out.stderr);
        insta::assert_snapshot!(
            format!("mistakes_{format}"),
            without_root(format, &out.stdout)
        );
    }
}

/// The SARIF log with the machine's source root replaced, so the snapshot is the same anywhere.
fn without_root(format: &str, stdout: &str) -> String {
    if format != "sarif" {
        return stdout.to_owned();
    }
    let mut log: serde_json::Value = serde_json::from_str(stdout).expect("SARIF is JSON");
    log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] = "file:///<root>/".into();
    serde_json::to_string_pretty(&log).expect("JSON") + "\n"
}

#[test]
fn json_format_has_the_documented_shape() {
    let out = syncdef(&["lint", "--format", "json", &fixture("lint/mistakes.yaml")]);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    let diagnostics = report["diagnostics"]
        .as_array()
        .expect("a diagnostics array");
    assert!(!diagnostics.is_empty());
    for d in diagnostics {
        for key in [
            "code",
            "severity",
            "message",
            "file",
            "line",
            "column",
            "endLine",
            "endColumn",
            "pointer",
            "help",
            "related",
        ] {
            assert!(d.get(key).is_some(), "missing {key} in {d}");
        }
        assert!(d["line"].as_u64().is_some_and(|l| l >= 1));
    }
    assert_eq!(report["summary"]["files"], 1);
    assert!(report["summary"]["errors"].as_u64().is_some_and(|e| e >= 2));
}

/// The catalog's notes: counted in the JSON summary as the human summary counts them, each
/// with the place that tells it from the others at the same line (a response template that
/// six entries share through a YAML anchor and its aliases), in the JSON and GitHub formats
/// too.
#[test]
fn shared_findings_name_what_tells_them_apart_in_every_format() {
    let catalog = root().join("catalog");
    let catalog = catalog.to_string_lossy();
    let json = syncdef(&["lint", "--format", "json", &catalog]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    let infos = diagnostics
        .iter()
        .filter(|d| d["severity"] == "info")
        .count();
    assert!(infos > 1, "{}", json.stdout);
    assert_eq!(report["summary"]["infos"], serde_json::json!(infos));
    let creates: std::collections::BTreeSet<String> = diagnostics
        .iter()
        .filter(|d| d["code"] == "SD809")
        .map(|d| d["related"][0]["line"].to_string())
        .collect();
    assert_eq!(
        creates.len(),
        infos,
        "one create operation a note: {}",
        json.stdout
    );

    let github = syncdef(&["lint", "--format", "github", &catalog]);
    let notes: std::collections::BTreeSet<&str> = github
        .stdout
        .lines()
        .filter(|l| l.starts_with("::notice file="))
        .collect();
    // The one notice without a file counts the findings outside the lint scope (in the
    // vendors' descriptions the overlays extend), which are not infos.
    assert_eq!(
        notes.len(),
        infos,
        "identical annotations: {}",
        github.stdout
    );
}

#[test]
fn directories_are_searched_for_definitions() {
    let out = syncdef(&["lint", "--format", "json", &fixture("lint")]);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    assert_eq!(report["summary"]["files"], 2, "{}", out.stdout);
    assert_eq!(out.code, 1);
}

/// A summary "in 2 files" for findings of one file of two would send the reader looking
/// through both.
#[test]
fn the_summary_says_how_many_of_the_files_linted_have_findings() {
    let one_of_two = syncdef(&["lint", &fixture("lint")]);
    assert!(
        one_of_two
            .stdout
            .ends_with("Found 2 errors in 1 of 2 files.\n"),
        "{}",
        one_of_two.stdout
    );
    let project = project_with_findings();
    let both = syncdef_in(project.path(), &["lint", "defs"]);
    let last = both.stdout.lines().last().unwrap_or_default();
    assert!(last.ends_with(" in 2 files."), "{}", both.stdout);
}

#[test]
fn unreadable_paths_exit_with_2() {
    let out = syncdef(&[
        "lint",
        "--format",
        "json",
        "tests/fixtures/lint/missing.yaml",
    ]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("missing.yaml"), "{}", out.stderr);
}

#[test]
fn rules_lists_every_rule_and_explain_prints_one() {
    let rules = syncdef(&["rules"]);
    assert_eq!(rules.code, 0);
    let first = rules.stdout.lines().next().expect("at least one rule");
    let code = first.split_whitespace().next().expect("a code");
    let explain = syncdef(&["explain", code]);
    assert_eq!(explain.code, 0, "{}", explain.stderr);
    assert!(explain.stdout.starts_with(code));
    assert!(
        explain.stdout.contains("## What it does"),
        "{}",
        explain.stdout
    );

    let unknown = syncdef(&["explain", "SD9999"]);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains("syncdef rules"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn schema_is_a_json_schema() {
    let out = syncdef(&["schema"]);
    assert_eq!(out.code, 0);
    let schema: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    assert!(schema.get("$schema").is_some(), "{}", out.stdout);
}

#[test]
fn schema_records_prints_the_platform_record_schema() {
    let out = syncdef(&["schema", "--records"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let schema: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert!(schema["$defs"]["Account"]["properties"]["addresses"].is_object());
    assert_eq!(schema["properties"]["invoice"]["$ref"], "#/$defs/Invoice");
}

#[test]
fn a_sample_record_is_rendered_and_checked_against_the_request_body() {
    let definition = root().join("catalog/quickbooks-online/definition.yaml");
    let definition = definition.to_string_lossy();
    // The catalog's own records fit.
    let good = root().join("catalog/records/account-acme-eur.json");
    let out = syncdef(&[
        "lint",
        &definition,
        "--record",
        &format!("Account={}", good.display()),
    ]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    // A display name with a colon breaks QuickBooks' pattern: found only by rendering.
    let dir = std::env::temp_dir().join(format!("syncdef-sample-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("account.json");
    std::fs::write(&bad, r#"{"id": 1, "name": "Acme: Trading"}"#).expect("write");
    let out = syncdef(&[
        "lint",
        "--format",
        "json",
        &definition,
        "--record",
        &format!("Account={}", bad.display()),
    ]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(
        !codes.is_empty() && codes.iter().all(|c| *c == "SD802"),
        "{codes:?}"
    );
    // A malformed flag or an unreadable file is a usage error.
    let out = syncdef(&["lint", &definition, "--record", "Account"]);
    assert_eq!(out.code, 2);
    let out = syncdef(&["lint", &definition, "--record", "Account=/nonexistent.json"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("cannot read the sample"),
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The token a pre-action reads is rendered as a dry-run reads it: from the sample answer of the
/// action's operation (its example `"0"` here), not from a stand-in. A schema whose pattern
/// refuses the token every fresh record has is found by lint, as the dry-run refuses the update.
#[test]
fn a_token_read_by_a_pre_action_is_rendered_as_the_dry_run_reads_it() {
    let text = std::fs::read_to_string(root().join("catalog/quickbooks-online/definition.yaml"))
        .expect("the catalog definition");
    let token = "        SyncToken:\n          type: string\n          pattern: \"^[0-9]+$\"";
    assert!(
        text.contains(token),
        "the customer's SyncToken schema moved"
    );
    let strict = token.replace("^[0-9]+$", "^[1-9]+$");
    let dir = std::env::temp_dir().join(format!("syncdef-token-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let definition = dir.join("definition.yaml");
    std::fs::write(&definition, text.replacen(token, &strict, 1)).expect("write");
    let definition = definition.to_string_lossy();
    let account = root().join("catalog/records/account-acme-eur.json");
    let sample = format!("Account={}", account.display());
    let out = syncdef(&["lint", "--format", "json", &definition, "--record", &sample]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    let token_findings: Vec<&serde_json::Value> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| {
            d["code"] == "SD802"
                && d["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("SyncToken"))
        })
        .collect();
    assert!(!token_findings.is_empty(), "{}", out.stdout);
    let out = syncdef(&[
        "push",
        "--dry-run",
        &definition,
        "--entry",
        "Account",
        "--record",
        &account.to_string_lossy(),
        "--external-id",
        "58",
    ]);
    assert_ne!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("SyncToken") || out.stderr.contains("SyncToken"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--related ENTRY=ID`, as `dry-run` takes it: a sample is rendered with the external id a
/// related record has (`$.related.Customer.IntegrationId`), not with a stand-in the request
/// schema may refuse.
#[test]
fn related_external_ids_are_rendered_with_the_sample() {
    let definition = fixture("related/ledger.yaml");
    let invoice = root().join("catalog/records/invoice-acme-eur.json");
    let sample = format!("Invoice={}", invoice.display());
    let lint = |extra: &[&str]| {
        let mut args = vec!["lint", "--deny-warnings", "--format", "json", &definition];
        args.extend_from_slice(&["--record", &sample]);
        args.extend_from_slice(extra);
        syncdef(&args)
    };
    // The stand-in id is no GUID: the rendered invoice does not fit the schema.
    let out = lint(&[]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    let found: Vec<(&str, &str)> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["severity"] != "info")
        .map(|d| {
            (
                d["code"].as_str().unwrap_or(""),
                d["message"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert!(
        matches!(found.as_slice(), [("SD802", m)] if m.contains("`/customerId`")),
        "{found:?}"
    );
    // With the customer's id, as dry-run would be given it, the invoice fits.
    let out = lint(&["--related", "Customer=5d115c9c-44e3-ea11-bb43-000d3a2feca1"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    // A malformed flag is a usage error; so is an entry no linted definition has.
    let out = lint(&["--related", "Customer"]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("NAME=VALUE"), "{}", out.stderr);
    let out = lint(&["--related", "Custmer=5d115c9c-44e3-ea11-bb43-000d3a2feca1"]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("--related Custmer") && out.stderr.contains("`Customer`"),
        "{}",
        out.stderr
    );
}

#[test]
fn findings_on_a_minified_line_name_their_position_instead_of_a_snippet() {
    // The whole document is one line of several kilobytes: printing it as a snippet would bury
    // the finding (and with megabytes, break the renderer).
    let out = syncdef(&["lint", &fixture("minified/mistakes.json")]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.lines().all(|l| l.chars().count() < 200),
        "{}",
        out.stdout
    );
    insta::assert_snapshot!(out.stdout);
}

#[test]
fn fail_severity_chooses_what_fails_the_run() {
    // The Business Central catalog has infos only (SD809), a fixture one warning, another an
    // error: each fails the run from its own severity down.
    let cases: [(&str, [(&str, i32); 4]); 3] = [
        (
            "catalog/business-central/definition.yaml",
            [("error", 0), ("warning", 0), ("info", 1), ("none", 0)],
        ),
        (
            "validator/tests/fixtures/SD807.yaml",
            [("error", 0), ("warning", 1), ("info", 1), ("none", 0)],
        ),
        (
            "validator/tests/fixtures/SD112.yaml",
            [("error", 1), ("warning", 1), ("info", 1), ("none", 0)],
        ),
    ];
    for (file, expected) in cases {
        for (severity, code) in expected {
            let run = syncdef(&["lint", "--fail-severity", severity, file]);
            assert_eq!(
                run.code, code,
                "{file} --fail-severity {severity}: {}",
                run.stderr
            );
        }
    }
    // `--deny-warnings` is `--fail-severity warning`; naming both is a usage error.
    assert_eq!(
        syncdef(&[
            "lint",
            "--deny-warnings",
            "validator/tests/fixtures/SD807.yaml"
        ])
        .code,
        1
    );
    let both = syncdef(&[
        "lint",
        "--deny-warnings",
        "--fail-severity",
        "info",
        "catalog",
    ]);
    assert_eq!(both.code, 2, "{}", both.stderr);
}

#[test]
fn a_definition_on_standard_input_is_linted_under_its_given_name() {
    let text = std::fs::read_to_string(common::root().join("validator/tests/fixtures/SD807.yaml"))
        .expect("fixture");
    let run = common::syncdef_with_stdin(
        &[
            "lint",
            "-",
            "--stdin-filename",
            "accounts.yaml",
            "--format",
            "json",
        ],
        &text,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let found = report.to_string();
    assert!(found.contains("SD807"), "{found}");
    assert!(found.contains("accounts.yaml"), "{found}");
    // With other paths it is a usage error, not a guess.
    let both = common::syncdef_with_stdin(&["lint", "-", "catalog"], &text);
    assert_eq!(both.code, 2, "{}", both.stderr);
}

#[test]
fn a_run_that_could_not_read_a_path_never_says_no_problems() {
    let run = syncdef(&["lint", "no/such/definition.yaml"]);
    assert_eq!(run.code, 2);
    assert!(!run.stdout.contains("No problems found"), "{}", run.stdout);
    assert!(
        run.stdout.contains("1 path could not be linted"),
        "{}",
        run.stdout
    );
}

#[test]
fn completion_scripts_know_every_command_and_lint_flag() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let run = syncdef(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        for word in [
            "lint",
            "push",
            "sync",
            "lsp",
            "fail-severity",
            "stdin-filename",
            "scope",
        ] {
            assert!(run.stdout.contains(word), "{shell} completion lacks {word}");
        }
    }
    assert_eq!(syncdef(&["completions", "tcsh"]).code, 2);
}

/// A project with a `syncdef.toml` at its root and definitions with findings below it, in YAML
/// and in JSON.
fn project_with_findings() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let defs = dir.path().join("defs");
    std::fs::create_dir(&defs).expect("defs/");
    std::fs::write(dir.path().join("syncdef.toml"), "").expect("syncdef.toml");
    for (from, to) in [
        ("lint/mistakes.yaml", "mistakes.yaml"),
        ("minified/mistakes.json", "mistakes.json"),
    ] {
        std::fs::copy(root().join(fixture(from)), defs.join(to)).expect("copy a fixture");
    }
    dir
}

#[test]
fn a_generated_ignore_file_makes_the_next_run_pass_and_is_found_from_below() {
    let project = project_with_findings();
    let dir = project.path();
    let before = syncdef_in(dir, &["lint", "--format", "json", "defs"]);
    assert_eq!(before.code, 1, "{}{}", before.stdout, before.stderr);
    let before: serde_json::Value = serde_json::from_str(&before.stdout).expect("JSON");
    let findings = before["diagnostics"].as_array().map_or(0, Vec::len);

    let out = syncdef_in(dir, &["lint", "--generate-ignore-file", "defs"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    insta::assert_snapshot!("generated_ignore_file_stdout", out.stdout);
    let written = std::fs::read_to_string(dir.join(".syncdef-ignore.yaml")).expect("written");
    insta::assert_snapshot!("generated_ignore_file", written);

    let after = syncdef_in(dir, &["lint", "--format", "json", "defs"]);
    assert_eq!(after.code, 0, "{}{}", after.stdout, after.stderr);
    let after: serde_json::Value = serde_json::from_str(&after.stdout).expect("JSON");
    assert_eq!(after["diagnostics"], serde_json::json!([]), "{after}");
    assert_eq!(after["summary"]["suppressed"], serde_json::json!(findings));

    // From a subdirectory, the ignore file beside the project's syncdef.toml still applies.
    let below = syncdef_in(&dir.join("defs"), &["lint", "--deny-warnings", "."]);
    assert_eq!(below.code, 0, "{}{}", below.stdout, below.stderr);
    assert!(
        below.stdout.ends_with(&format!(
            "No problems found in 2 files ({findings} suppressed).\n"
        )),
        "{}",
        below.stdout
    );
}

#[test]
fn an_ignore_file_entry_that_matches_nothing_is_reported_at_its_line() {
    let project = project_with_findings();
    let dir = project.path();
    std::fs::write(
        dir.join("ci-ignore.yaml"),
        "defs/mistakes.yaml:\n  SD202:\n    - '#/synchronization/Customer/push/create'\n    - '#/synchronization/Customer/push/update'\n",
    )
    .expect("an ignore file");
    let out = syncdef_in(
        dir,
        &[
            "lint",
            "--ignore-file",
            "ci-ignore.yaml",
            "--format",
            "github",
            "defs/mistakes.yaml",
        ],
    );
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .contains("::warning file=ci-ignore.yaml,line=4,col=7,"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("title=SD115::"), "{}", out.stdout);
    assert!(!out.stdout.contains("title=SD202"), "{}", out.stdout);
}

#[test]
fn an_ignore_file_that_cannot_be_used_exits_with_2() {
    let project = project_with_findings();
    let dir = project.path();
    let out = syncdef_in(dir, &["lint", "--ignore-file", "missing.yaml", "defs"]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("missing.yaml"), "{}", out.stdout);
    std::fs::write(
        dir.join(".syncdef-ignore.yaml"),
        "defs/mistakes.yaml: [SD202]\n",
    )
    .expect("an ignore file");
    let out = syncdef_in(dir, &["lint", "defs"]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .contains(".syncdef-ignore.yaml: line 1, column 21: "),
        "{}",
        out.stdout
    );
    let out = syncdef_with_stdin(&["lint", "--generate-ignore-file", "-"], "");
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
}

/// A file of 1 GiB or more is refused by its size, before it is read: run in an address space
/// of 512 MiB, a read of the 3 GiB (sparse, so free to make) would abort the process.
#[test]
fn a_file_of_3_gib_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("huge.json");
    std::fs::File::create(&path)
        .and_then(|f| f.set_len(3 << 30))
        .expect("a sparse file");
    let output = std::process::Command::new("prlimit")
        .arg("--as=536870912")
        .arg(env!("CARGO_BIN_EXE_syncdef"))
        .args(["lint", "--format", "json"])
        .arg(&path)
        .output()
        .expect("prlimit (util-linux) runs syncdef");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("SD111"), "{stdout}");
    assert!(stdout.contains("1 GiB or larger"), "{stdout}");
}

/// A vendor's description whose synchronization reaches a warning (SD126, two `$ref`s deep)
/// and none of its two errors (SD123 in an operation, SD124 in a schema).
const VENDOR: &str = "validator/tests/fixtures/scope/vendor.yaml";

#[test]
fn findings_in_parts_no_entry_uses_are_counted_in_every_format_and_fail_nothing() {
    let note = "2 findings in parts of the description no entry uses; `--scope all` shows them";
    for format in ["human", "json", "github", "sarif"] {
        let out = syncdef(&["lint", "--format", format, VENDOR]);
        assert_eq!(out.code, 0, "{format}: {}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains("SD126"), "{format}: {}", out.stdout);
        for unused in ["SD123", "SD124"] {
            assert!(!out.stdout.contains(unused), "{format}: {}", out.stdout);
        }
        match format {
            "json" => {
                let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
                assert_eq!(report["summary"]["outsideScope"], 2, "{report}");
            }
            "sarif" => {
                let log: serde_json::Value = serde_json::from_str(&out.stdout).expect("SARIF");
                let run = &log["runs"][0];
                assert_eq!(run["properties"]["outsideScope"], 2, "{log}");
                let notification =
                    &run["invocations"][0]["toolConfigurationNotifications"][0]["message"];
                assert_eq!(notification["text"], note, "{log}");
            }
            _ => insta::assert_snapshot!(format!("outside_scope_{format}"), out.stdout),
        }
    }
}

#[test]
fn scope_all_reports_the_findings_of_every_part() {
    for format in ["human", "json", "github", "sarif"] {
        let out = syncdef(&["lint", "--scope", "all", "--format", format, VENDOR]);
        assert_eq!(out.code, 1, "{format}: {}{}", out.stdout, out.stderr);
        for code in ["SD123", "SD124", "SD126"] {
            assert!(
                out.stdout.contains(code),
                "{format} lacks {code}: {}",
                out.stdout
            );
        }
        assert!(
            !out.stdout.contains("--scope all"),
            "{format}: {}",
            out.stdout
        );
    }
}

#[test]
fn scope_all_in_syncdef_toml_reports_every_part_and_the_flag_wins() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("syncdef.toml"), "scope = \"all\"\n").expect("syncdef.toml");
    std::fs::copy(root().join(VENDOR), dir.path().join("vendor.yaml")).expect("the fixture");
    let all = syncdef_in(dir.path(), &["lint", "--format", "json", "vendor.yaml"]);
    assert_eq!(all.code, 1, "{}{}", all.stdout, all.stderr);
    let report: serde_json::Value = serde_json::from_str(&all.stdout).expect("JSON");
    assert_eq!(report["summary"]["errors"], 2, "{report}");
    assert_eq!(report["summary"]["outsideScope"], 0, "{report}");
    let used = syncdef_in(dir.path(), &["lint", "--scope", "used", "vendor.yaml"]);
    assert_eq!(used.code, 0, "{}{}", used.stdout, used.stderr);
}

#[test]
fn a_definition_on_standard_input_is_linted_in_the_same_scope() {
    let text = std::fs::read_to_string(root().join(VENDOR)).expect("the fixture");
    let used = syncdef_with_stdin(&["lint", "-", "--stdin-filename", "vendor.yaml"], &text);
    assert_eq!(used.code, 0, "{}{}", used.stdout, used.stderr);
    assert!(
        used.stdout.contains("2 findings in parts"),
        "{}",
        used.stdout
    );
    let all = syncdef_with_stdin(
        &[
            "lint",
            "-",
            "--stdin-filename",
            "vendor.yaml",
            "--scope",
            "all",
        ],
        &text,
    );
    assert_eq!(all.code, 1, "{}{}", all.stdout, all.stderr);
    assert!(all.stdout.contains("SD124"), "{}", all.stdout);
}

#[test]
fn a_description_without_a_synchronization_section_is_linted_in_full() {
    let out = syncdef(&[
        "lint",
        "--format",
        "json",
        "validator/tests/fixtures/scope/no_synchronization.yaml",
    ]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    for code in ["SD123", "SD124", "SD126"] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
    assert_eq!(report["summary"]["outsideScope"], 0, "{report}");
}

/// The catalog lints quietly: its infos (nothing to change) are counted in the summary and
/// printed with `--show-infos` or `-v`; the machine formats carry them always.
#[test]
fn infos_are_counted_and_printed_only_when_asked() {
    let catalog = root().join("catalog");
    let catalog = catalog.to_string_lossy();
    let quiet = syncdef(&["lint", &catalog]);
    assert_eq!(quiet.code, 0, "{}{}", quiet.stdout, quiet.stderr);
    assert!(quiet.stdout.lines().count() <= 10, "{}", quiet.stdout);
    assert!(!quiet.stdout.contains("SD809"), "{}", quiet.stdout);
    assert!(quiet.stdout.contains("--show-infos"), "{}", quiet.stdout);
    for flag in ["--show-infos", "-v"] {
        let shown = syncdef(&["lint", flag, &catalog]);
        assert!(shown.stdout.contains("SD809"), "{flag}: {}", shown.stdout);
        assert!(
            !shown.stdout.contains("not shown"),
            "{flag}: {}",
            shown.stdout
        );
    }
    let json = syncdef(&["lint", "--format", "json", &catalog]);
    assert!(json.stdout.contains("\"SD809\""), "{}", json.stdout);
}
