//! End-to-end tests of definitions written as an OpenAPI Overlay over a vendor's unmodified
//! description: they lint and dry-run exactly as the same definition written as one document,
//! and every finding names the file that holds it, in every output format.

use crate::common;

use common::syncdef;

const DIR: &str = "definitions/tests/fixtures/overlay";

fn path(name: &str) -> String {
    format!("{DIR}/{name}")
}

/// What a finding says, without where it is.
fn findings(stdout: &str) -> Vec<serde_json::Value> {
    let report: serde_json::Value = serde_json::from_str(stdout).expect("JSON output");
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            serde_json::json!({
                "code": d["code"], "severity": d["severity"], "message": d["message"],
                "pointer": d["pointer"], "help": d["help"],
            })
        })
        .collect()
}

#[test]
fn an_overlay_lints_as_the_definition_written_as_one() {
    let overlay = syncdef(&["lint", "--format", "json", &path("overlay.yaml")]);
    let single = syncdef(&["lint", "--format", "json", &path("single.yaml")]);
    assert_eq!(
        overlay.code, single.code,
        "{}{}",
        overlay.stdout, overlay.stderr
    );
    let mut ours = findings(&overlay.stdout);
    let mut theirs = findings(&single.stdout);
    let by_code = |d: &serde_json::Value| d["code"].to_string();
    ours.sort_by_key(by_code);
    theirs.sort_by_key(by_code);
    assert_eq!(ours, theirs);
    assert_eq!(ours.len(), 2, "{}", overlay.stdout);
}

#[test]
fn findings_name_the_vendor_file_or_the_overlay_in_text() {
    let out = syncdef(&["lint", "--color", "never", &path("overlay.yaml")]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains(&format!("{DIR}/overlay.yaml:35:15")),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(&format!("{DIR}/vendor.json:214:24")),
        "{}",
        out.stdout
    );
    insta::assert_snapshot!(out.stdout);
}

#[test]
fn findings_name_the_vendor_file_or_the_overlay_in_sarif() {
    let out = syncdef(&["lint", "--format", "sarif", &path("overlay.yaml")]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let log: serde_json::Value = serde_json::from_str(&out.stdout).expect("SARIF is JSON");
    let places: Vec<serde_json::Value> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            serde_json::json!({
                "ruleId": r["ruleId"],
                "location": r["locations"][0]["physicalLocation"],
            })
        })
        .collect();
    insta::assert_json_snapshot!(places);
}

#[test]
fn a_bad_overlay_is_reported_in_the_overlay() {
    let out = syncdef(&["lint", "--format", "json", &path("bad-actions.yaml")]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON output");
    let places: Vec<String> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| format!("{} {}:{}:{}", d["code"], d["file"], d["line"], d["column"]))
        .collect();
    insta::assert_debug_snapshot!(places);
}

#[test]
fn an_overlay_dry_runs_as_the_definition_written_as_one() {
    let account = [
        "--entry",
        "Account",
        "--record",
        "tests/fixtures/dry_run/account.json",
    ];
    let update = [&account[..], &["--external-id", "7"]].concat();
    let invoice = [
        "--entry",
        "Invoice",
        "--record",
        "tests/fixtures/dry_run/invoice.json",
        "--related",
        "Account=42",
    ];
    for (case, options) in [
        ("create", &account[..]),
        ("update", &update),
        ("invoice", &invoice),
    ] {
        let run = |name: &str| {
            let definition = path(name);
            let args = [&["push", "--dry-run", definition.as_str()][..], options].concat();
            syncdef(&args)
        };
        let overlay = run("overlay.yaml");
        let single = run("single.yaml");
        assert_eq!(
            overlay.code, 0,
            "{case}: {}{}",
            overlay.stdout, overlay.stderr
        );
        let stable = |text: &str| {
            text.lines()
                .filter(|line| !line.contains(" ms") && !line.contains("duration"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(stable(&overlay.stdout), stable(&single.stdout), "{case}");
        assert!(
            overlay.stdout.contains("api.example.com"),
            "{}",
            overlay.stdout
        );
    }
}
