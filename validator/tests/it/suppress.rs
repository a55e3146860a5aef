//! Suppressing one finding at one place: `x-syncdef-ignore` in the definition, and the ignore
//! file keyed by file and JSON pointer.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use syncdef_validator::output::{OutputFormat, RenderOptions, render};
use syncdef_validator::suppress::ignore_file::IgnoreFile;
use syncdef_validator::{
    Config, Diagnostic, FileReport, LintReport, RuleSettings, lint_paths, lint_text,
};

/// A definition with one finding: `updateRequest` sends no concurrency token (SD602, at
/// `/synchronization/Customer/push/schemasTransformer/updateRequest`).
const SD602: &str = include_str!("../fixtures/SD602.yaml");

/// `SD602` with `line` inserted after the (unique) line `after`.
fn with_line(after: &str, line: &str) -> String {
    let at = SD602
        .find(&format!("\n{after}\n"))
        .unwrap_or_else(|| panic!("no line {after:?}"))
        + after.len()
        + 2;
    format!("{}{line}\n{}", &SD602[..at], &SD602[at..])
}

fn lint(name: &str, text: &str) -> FileReport {
    lint_text(name, text, &RuleSettings::default())
}

/// `CODE line:column` of each finding reported.
fn found(file: &FileReport) -> Vec<String> {
    file.diagnostics
        .iter()
        .map(|d| {
            let at = d.location().start;
            format!("{} {}:{}", d.code(), at.line, at.column)
        })
        .collect()
}

fn codes(diagnostics: &[syncdef_validator::Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().map(Diagnostic::code).collect()
}

#[test]
fn an_ignore_on_the_node_at_fault_suppresses_its_finding() {
    let text = with_line(
        "        updateRequest:",
        "          x-syncdef-ignore: [SD602]",
    );
    let file = lint("update.yaml", &text);
    assert_eq!(found(&file), Vec::<String>::new());
    assert_eq!(codes(&file.suppressed), ["SD602"]);
    let report = LintReport {
        files: vec![file],
        errors: Vec::new(),
    };
    assert_eq!(report.summary().suppressed, 1);
    assert_eq!(report.summary().warnings, 0);
    assert_eq!(report.exit_code(true), 0);
    assert_eq!(report.suppressed().count(), 1);
}

#[test]
fn one_code_written_as_a_string_on_the_entry_covers_the_whole_entry() {
    let text = with_line("  Customer:", "    x-syncdef-ignore: SD602");
    let file = lint("update.yaml", &text);
    assert_eq!(found(&file), Vec::<String>::new());
    assert_eq!(codes(&file.suppressed), ["SD602"]);
}

#[test]
fn an_ignore_on_a_sibling_node_suppresses_nothing_and_is_reported_unused() {
    let text = with_line(
        "        createRequest:",
        "          x-syncdef-ignore: [SD602]",
    );
    let file = lint("update.yaml", &text);
    // The finding stays, and the list item that matched nothing is reported where it is.
    assert_eq!(found(&file), ["SD115 61:30", "SD602 66:9"]);
    assert!(file.suppressed.is_empty());
    let unused = &file.diagnostics[0];
    assert_eq!(unused.severity, syncdef_validator::Severity::Warning);
    assert_eq!(
        unused.pointer.as_deref(),
        Some("/synchronization/Customer/push/schemasTransformer/createRequest")
    );
}

#[test]
fn an_unknown_code_is_reported_with_the_code_it_likely_means() {
    let text = with_line("  Customer:", "    x-syncdef-ignore: [SD62, SD402]");
    let file = lint("update.yaml", &text);
    assert_eq!(found(&file), ["SD116 46:24", "SD115 46:30", "SD602 66:9"]);
    let unknown = &file.diagnostics[0];
    assert!(unknown.message.contains("`SD62`"), "{}", unknown.message);
    assert_eq!(unknown.help.as_deref(), Some("did you mean `SD602`?"));
}

#[test]
fn a_value_that_is_no_list_of_codes_is_reported() {
    let text = with_line("  Customer:", "    x-syncdef-ignore: {SD602: yes}");
    let file = lint("update.yaml", &text);
    assert_eq!(found(&file), ["SD116 46:23", "SD602 66:9"]);
    let text = with_line("  Customer:", "    x-syncdef-ignore: [SD602, 602]");
    let file = lint("update.yaml", &text);
    assert_eq!(found(&file), ["SD116 46:31"]);
    assert_eq!(codes(&file.suppressed), ["SD602"]);
}

#[test]
fn a_rule_that_is_off_leaves_its_suppressions_unreported() {
    // The rule did not run: whether the suppression would match is unknown.
    let text = with_line("  Customer:", "    x-syncdef-ignore: [SD402]");
    let settings =
        RuleSettings::parse("ignore = [\"SD402\"]\n", Path::new("syncdef.toml")).expect("valid");
    let file = lint_text("update.yaml", &text, &settings);
    assert_eq!(found(&file), ["SD602 66:9"]);
    let settings =
        RuleSettings::parse("ignore = [\"SD115\"]\n", Path::new("syncdef.toml")).expect("valid");
    let file = lint_text("update.yaml", &text, &settings);
    assert_eq!(found(&file), ["SD602 66:9"]);
}

#[test]
fn the_key_is_accepted_on_every_object_of_the_definition() {
    // Every place names a code that does not fire there; SD115 off leaves nothing to report.
    let mut text = SD602.to_owned();
    for (after, line) in [
        ("paths:", "  x-syncdef-ignore: [SD202]"),
        ("    post:", "      x-syncdef-ignore: [SD802]"),
        ("  schemas:", "    x-syncdef-ignore: [SD802]"),
        ("      properties:", "        x-syncdef-ignore: [SD802]"),
        ("synchronization:", "  x-syncdef-ignore: [SD601]"),
        ("    push:", "      x-syncdef-ignore: SD601"),
        (
            "      preSynchronizationAction:",
            "        x-syncdef-ignore: [SD501]",
        ),
        ("        SyncToken:", "          x-syncdef-ignore: [SD501]"),
        ("          schema:", "            x-syncdef-ignore: [SD503]"),
        (
            "      schemasTransformer:",
            "        x-syncdef-ignore: [SD402]",
        ),
        (
            "          PrimaryEmailAddr:",
            "            x-syncdef-ignore: [SD801]",
        ),
        (
            "        updateRequest:",
            "          x-syncdef-ignore: [SD602]",
        ),
    ] {
        let at = text.find(&format!("\n{after}\n")).expect(after) + after.len() + 2;
        text.insert_str(at, &format!("{line}\n"));
    }
    let settings =
        RuleSettings::parse("ignore = [\"SD115\"]\n", Path::new("syncdef.toml")).expect("valid");
    let file = lint_text("update.yaml", &text, &settings);
    assert_eq!(found(&file), Vec::<String>::new());
    assert_eq!(codes(&file.suppressed), ["SD602"]);
}

/// The same definition in JSON, with `value` set at `pointer`.
fn json_with(pointer: &str, value: serde_json::Value) -> String {
    let doc =
        syncdef_definitions::load::load(syncdef_definitions::SourceFile::new("update.yaml", SD602))
            .expect("the fixture loads");
    let mut json = doc.root().to_json();
    json.pointer_mut(pointer)
        .and_then(serde_json::Value::as_object_mut)
        .expect("an object")
        .insert("x-syncdef-ignore".to_owned(), value);
    serde_json::to_string_pretty(&json).expect("JSON")
}

#[test]
fn a_json_definition_suppresses_and_reports_the_same() {
    let entry = "/synchronization/Customer";
    let text = json_with(entry, serde_json::json!(["SD602"]));
    let file = lint("update.json", &text);
    assert_eq!(found(&file), Vec::<String>::new());
    assert_eq!(codes(&file.suppressed), ["SD602"]);

    let text = json_with(entry, serde_json::json!(["SD602", "SD402"]));
    let file = lint("update.json", &text);
    let unused = file.diagnostics.first().expect("SD115");
    assert_eq!(unused.code(), "SD115");
    assert_eq!(file.source.slice(unused.span), "\"SD402\"");
}

fn fixture(name: &str) -> PathBuf {
    Path::new("tests/fixtures/suppress").join(name)
}

fn lint_with_ignore_file(files: &[&str], ignore_file: &str) -> LintReport {
    let config = Config {
        settings: Some(Arc::new(RuleSettings::default())),
        ignore_file: Some(fixture(ignore_file)),
        ..Config::default()
    };
    let paths: Vec<PathBuf> = files.iter().map(|f| fixture(f)).collect();
    lint_paths(&paths, &config)
}

#[test]
fn the_ignore_file_suppresses_by_file_rule_and_pointer_and_reports_what_it_cannot_use() {
    let report = lint_with_ignore_file(&["update.yaml"], ".syncdef-ignore.yaml");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.summary().suppressed, 1);
    let options = RenderOptions {
        color: false,
        width: 100,
        links: false,
        ..RenderOptions::default()
    };
    // The unused entry and the unknown code are located in the ignore file; entries for files
    // this run did not lint are not reported.
    insta::assert_snapshot!(
        "ignore_file_human",
        render(&report, OutputFormat::Human, &options)
    );
    insta::assert_snapshot!(
        "ignore_file_json",
        render(&report, OutputFormat::Json, &options)
    );
}

#[test]
fn an_ignore_file_pointer_names_one_node_not_what_is_beneath_it() {
    // Generated entries are a baseline: a new finding under a listed node must show.
    let report = lint_with_ignore_file(&["update.yaml"], "entry-level.yaml");
    let codes: Vec<&str> = report.diagnostics().map(Diagnostic::code).collect();
    assert_eq!(codes, ["SD115", "SD602"]);
    assert_eq!(report.summary().suppressed, 0);
}

#[test]
fn an_ignore_file_of_the_wrong_shape_is_refused_with_its_line_and_column() {
    let path = Path::new("ci/.syncdef-ignore.yaml");
    let cases = [
        ("- update.yaml\n", "line 1, column 3"),
        (
            "update.yaml:\n  SD602: '#/synchronization'\n",
            "line 2, column 10",
        ),
        ("update.yaml:\n  SD602:\n    - 602\n", "line 3, column 7"),
        (
            "update.yaml:\n  SD602:\n    - synchronization/Customer\n",
            "line 3, column 7",
        ),
        ("update.yaml: [\n", "line 2, column 1"),
    ];
    for (text, at) in cases {
        let error = IgnoreFile::parse(path, text).expect_err(text);
        let shown = error.to_string();
        assert!(
            shown.starts_with(&format!("ci/.syncdef-ignore.yaml: {at}: ")),
            "{text:?}: {shown}"
        );
    }
    let empty = IgnoreFile::parse(path, "# nothing ignored yet\n").expect("an empty file");
    assert!(empty.is_empty());
}
