//! End-to-end tests of `syncdef transform`.

use crate::common;

use common::{fixture, syncdef};

#[test]
fn applies_a_template_to_one_record() {
    let out = syncdef(&[
        "transform",
        "--template",
        &fixture("transform/account-create.json"),
        "--input",
        &fixture("transform/account.json"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!(out.stdout);
}

#[test]
fn compact_prints_one_line_in_output_key_order() {
    let out = syncdef(&[
        "transform",
        "--compact",
        "--template",
        &fixture("transform/account-create.json"),
        "--input",
        &fixture("transform/account.json"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 1);
    assert!(
        out.stdout
            .starts_with(r#"{"DisplayName":"Acme Ltd","PrimaryPhone":"#)
    );
}

#[test]
fn compile_errors_are_located_in_the_template_file() {
    let out = syncdef(&[
        "transform",
        "--template",
        &fixture("transform/unknown-function.json"),
        "--input",
        &fixture("transform/account.json"),
    ]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.is_empty());
    insta::assert_snapshot!(out.stderr);
}

#[test]
fn json_lines_report_a_bad_line_and_go_on() {
    let out = syncdef(&[
        "transform",
        "--template",
        &fixture("transform/account-create.json"),
        "--input-lines",
        &fixture("transform/accounts.jsonl"),
    ]);
    assert_eq!(out.code, 1);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(lines[0].contains(r#""DisplayName":"First""#));
    assert!(lines[1].contains(r#""DisplayName":"Third""#));
    assert!(
        out.stderr.contains("accounts.jsonl:2: not valid JSON"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("1 of 3 lines"), "{}", out.stderr);
}

#[test]
fn json_lines_output_does_not_depend_on_the_number_of_jobs() {
    let run = |jobs: &str| {
        syncdef(&[
            "transform",
            "--jobs",
            jobs,
            "--template",
            &fixture("transform/account-create.json"),
            "--input-lines",
            &fixture("transform/accounts.jsonl"),
        ])
        .stdout
    };
    assert_eq!(run("1"), run("3"));
}

#[test]
fn fail_fast_stops_at_the_first_bad_line() {
    let out = syncdef(&[
        "transform",
        "--fail-fast",
        "--template",
        &fixture("transform/account-create.json"),
        "--input-lines",
        &fixture("transform/accounts.jsonl"),
    ]);
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
    assert!(out.stderr.contains(":2: not valid JSON"), "{}", out.stderr);
}

#[test]
fn template_from_standard_input() {
    let out = common::syncdef_with_stdin(
        &[
            "transform",
            "--compact",
            "--template",
            "-",
            "--input",
            &fixture("transform/account.json"),
        ],
        r##"{"n": "#valueof($.account.name)", "i": "#divide(9,3)", "r": "#round(0.66489,0)"}"##,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "{\"n\":\"Acme Ltd\",\"i\":3,\"r\":1.0}\n");
}

#[test]
fn strict_mode_compares_case_sensitively() {
    let template = r##"{"same": "#ifcondition(#valueof($.account.name),ACME LTD,yes,no)"}"##;
    let input = fixture("transform/account.json");
    let default = common::syncdef_with_stdin(
        &[
            "transform",
            "--compact",
            "--template",
            "-",
            "--input",
            &input,
        ],
        template,
    );
    let strict = common::syncdef_with_stdin(
        &[
            "transform",
            "--compact",
            "--mode",
            "strict",
            "--template",
            "-",
            "--input",
            &input,
        ],
        template,
    );
    assert_eq!(default.stdout, "{\"same\":\"yes\"}\n");
    assert_eq!(strict.stdout, "{\"same\":\"no\"}\n");
}

#[test]
fn usage_errors_exit_with_2() {
    let both_stdin = syncdef(&["transform", "--template", "-", "--input", "-"]);
    assert_eq!(both_stdin.code, 2);
    assert!(
        both_stdin.stderr.contains("only one of"),
        "{}",
        both_stdin.stderr
    );

    let bad_mode = syncdef(&[
        "transform",
        "--mode",
        "strcit",
        "--template",
        &fixture("transform/account-create.json"),
        "--input",
        &fixture("transform/account.json"),
    ]);
    assert_eq!(bad_mode.code, 2);
    assert!(
        bad_mode.stderr.contains("unknown evaluation mode 'strcit'"),
        "{}",
        bad_mode.stderr
    );

    let missing = syncdef(&[
        "transform",
        "--template",
        &fixture("transform/nope.json"),
        "--input",
        &fixture("transform/account.json"),
    ]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("cannot read the template"),
        "{}",
        missing.stderr
    );

    let invalid_input = common::syncdef_with_stdin(
        &[
            "transform",
            "--template",
            &fixture("transform/account-create.json"),
            "--input",
            "-",
        ],
        "{\"account\": ",
    );
    assert_eq!(invalid_input.code, 2);
    assert!(
        invalid_input.stderr.contains("is not valid JSON"),
        "{}",
        invalid_input.stderr
    );
}

/// The examples of the README and docs/transform-language.md, as written, on the shipped files.
#[test]
fn the_documented_examples_run_on_the_shipped_files() {
    let template = "catalog/templates/quickbooks-customer.json";
    let lines = "catalog/records/accounts.jsonl";
    for doc in ["README.md", "docs/transform-language.md"] {
        let text = std::fs::read_to_string(common::root().join(doc)).expect("the doc");
        assert!(
            text.contains(template) && text.contains(lines),
            "{doc} no longer shows the shipped example"
        );
    }
    let out = syncdef(&["transform", "--template", template, "--input-lines", lines]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let names: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("a JSON line")["DisplayName"]
                .clone()
        })
        .collect();
    assert_eq!(names, ["Acme Trading Ltd", "Northwind Analytics"]);
    let first = std::fs::read_to_string(common::root().join(lines)).expect("records");
    let first = first.lines().next().expect("a record");
    let one = common::syncdef_with_stdin(
        &["transform", "--template", template, "--input", "-"],
        first,
    );
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert!(
        one.stdout.contains("\"Acme Trading Ltd\""),
        "{}",
        one.stdout
    );
}

/// A bare platform record (as catalog/records ships them) under a template that reads
/// `$.account`: every value would be null. The command says so and how to wrap it instead.
#[test]
fn a_record_without_its_module_root_is_refused_with_the_fix() {
    let template = "catalog/templates/quickbooks-customer.json";
    let bare = "catalog/records/account-acme-eur.json";
    let out = syncdef(&["transform", "--template", template, "--input", bare]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(
        out.stderr.contains(bare)
            && out.stderr.contains("`$.account`")
            && out.stderr.contains(r#"{"account": "#),
        "{}",
        out.stderr
    );
}

/// In JSON Lines, the bare line is reported with its number and the wrapped ones go on.
#[test]
fn a_json_line_without_its_module_root_is_reported_at_its_line() {
    let template = "catalog/templates/quickbooks-customer.json";
    let wrapped = std::fs::read_to_string(common::root().join("catalog/records/accounts.jsonl"))
        .expect("records");
    let first = wrapped.lines().next().expect("a record");
    let bare: serde_json::Value = serde_json::from_str(first).expect("JSON");
    let input = format!("{first}\n{}\n", bare["account"]);
    let out = common::syncdef_with_stdin(
        &["transform", "--template", template, "--input-lines", "-"],
        &input,
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("<stdin>:2: ") && out.stderr.contains(r#"{"account": "#),
        "{}",
        out.stderr
    );
}

/// A template that reads no module root (`$.name`) takes any input as it is.
#[test]
fn a_template_of_no_module_takes_its_input_as_it_is() {
    let out = common::syncdef_with_stdin(
        &[
            "transform",
            "--template",
            "-",
            "--input",
            "catalog/records/account-acme-eur.json",
        ],
        r##"{"DisplayName": "#valueof($.name)"}"##,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("Acme Trading Ltd"), "{}", out.stdout);
}
