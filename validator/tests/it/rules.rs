//! Every rule of the code table against its fixtures: each fixture has exactly that rule's
//! mistake and must produce that rule's diagnostics and nothing else; the human (no color) and
//! JSON renderings are snapshotted.

use std::path::{Path, PathBuf};

use syncdef_validator::output::{OutputFormat, RenderOptions, render};
use syncdef_validator::{Config, Diagnostic, LintReport, Rule, RuleSettings, Scope, lint_paths};

fn fixture(name: &str) -> PathBuf {
    // Relative to the crate so file names in snapshots do not depend on the checkout.
    Path::new("tests/fixtures").join(name)
}

/// Lints a fixture with every finding in scope: a rule's fixture may put its mistake in a part
/// of the description no entry uses (the scope has its own tests, `scope.rs`).
fn lint(name: &str) -> LintReport {
    let config = Config {
        settings: Some(std::sync::Arc::new(RuleSettings::default())),
        scope: Some(Scope::All),
        ..Config::default()
    };
    lint_paths(&[fixture(name)], &config)
}

fn check_rule(code: &str, fixture: &str) {
    let rule = Rule::from_code(code).expect("the code exists");
    let report = lint(&format!("{fixture}.yaml"));
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let codes: Vec<&str> = report.diagnostics().map(Diagnostic::code).collect();
    assert!(!codes.is_empty(), "{code}: no diagnostic");
    assert!(
        codes.iter().all(|c| *c == rule.code()),
        "{code}: the fixture has one mistake, but got {codes:?}"
    );
    let options = RenderOptions {
        color: false,
        width: 100,
        links: false,
        ..RenderOptions::default()
    };
    insta::assert_snapshot!(
        format!("{fixture}_human"),
        render(&report, OutputFormat::Human, &options)
    );
    insta::assert_snapshot!(
        format!("{fixture}_json"),
        render(&report, OutputFormat::Json, &options)
    );
}

/// Declared rules that no fixture file can trigger, and the test that covers each instead.
const WITHOUT_FIXTURE: &[(&str, &str)] = &[(
    "SD111",
    "a file over 4 GiB: `load_problem::tests::each_kind_maps_to_its_rule`",
)];

/// The fixtures of `code`: `<CODE>.yaml` and `<CODE>_<case>.yaml`, sorted.
fn fixtures_of(code: &str) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir("tests/fixtures")
        .expect("the fixture folder")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".yaml")?;
            (stem == code || stem.strip_prefix(code)?.starts_with('_')).then(|| stem.to_owned())
        })
        .collect();
    found.sort();
    found
}

/// Every rule the code table declares has a fixture, and each of its fixtures makes it fire
/// alone: a rule declared but never dispatched, or registered without a fixture, fails here.
#[test]
fn every_declared_rule_fires_alone_on_each_of_its_fixtures() {
    for rule in Rule::ALL {
        let code = rule.code();
        let fixtures = fixtures_of(code);
        if fixtures.is_empty() {
            assert!(
                WITHOUT_FIXTURE.iter().any(|(c, _)| *c == code),
                "{code} is declared but has no fixture: add tests/fixtures/{code}.yaml with exactly that mistake"
            );
        }
        for fixture in fixtures {
            check_rule(code, &fixture);
        }
    }
}

/// Every fixture named after a code belongs to a declared rule.
#[test]
fn every_rule_fixture_names_a_declared_rule() {
    for entry in std::fs::read_dir("tests/fixtures").expect("the fixture folder") {
        let name = entry
            .expect("an entry")
            .file_name()
            .into_string()
            .expect("utf-8");
        if let Some(code) = name
            .strip_prefix("SD")
            .map(|rest| format!("SD{}", &rest[..3.min(rest.len())]))
        {
            assert!(
                Rule::from_code(&code).is_some(),
                "{name}: no rule has the code {code}"
            );
        }
    }
}

#[test]
fn valid_definitions_lint_clean() {
    for fixture in [
        "valid.yaml",
        "valid_business_central.yaml",
        "valid_query_delete.yaml",
        "valid_typed.yaml",
        "valid_account_record.yaml",
        "valid_operation_security.yaml",
        "valid_parameters.yaml",
    ] {
        assert_clean(fixture);
    }
}

fn assert_clean(fixture: &str) {
    let report = lint(fixture);
    let found: Vec<String> = report
        .diagnostics()
        .map(|d| format!("{} {} {:?}", d.code(), d.message, d.location()))
        .collect();
    assert!(found.is_empty(), "{found:#?}");
    assert_eq!(report.summary().files, 1);
    assert_eq!(report.exit_code(true), 0);
}

#[test]
fn a_misspelt_pre_action_key_is_an_error_and_supplies_no_token() {
    // `preSyncronizationAction` is read as `preSynchronizationAction`, so its content is
    // checked, but the platform never runs it: the update's `$.syncToken` has no supplier.
    let report = lint("misspelt_pre_action.yaml");
    let mut codes: Vec<&str> = report.diagnostics().map(Diagnostic::code).collect();
    codes.sort_unstable();
    assert_eq!(codes, ["SD112", "SD405"]);
    assert!(
        report
            .diagnostics()
            .all(|d| d.severity == syncdef_validator::Severity::Error)
    );
}

#[test]
fn a_filter_property_read_as_an_account_field_names_the_pushed_field() {
    // The Accounts collection filters by these names; the account the platform pushes carries
    // the same values under other names (the vendor's Account object).
    for (filter, field) in [
        ("email", "corpEmail"),
        ("website", "webSite"),
        ("taxable", "isTaxable"),
        ("orderingEnabled", "enableOrdering"),
        ("creditLimit", "creditLimitAmount"),
    ] {
        let report = lint(&format!("SD801_filter_{filter}.yaml"));
        let found: Vec<_> = report.diagnostics().collect();
        assert_eq!(found.len(), 1, "{filter}: {found:?}");
        let d = found[0];
        assert_eq!(d.code(), "SD801");
        assert_eq!(d.severity, syncdef_validator::Severity::Error);
        assert!(
            d.message
                .contains(&format!("`{filter}` is a filter property of the Accounts"))
                && d.message.contains(&format!("`{field}`")),
            "{filter}: {}",
            d.message
        );
        assert_eq!(
            d.help.as_deref(),
            Some(format!("read `$.account.{field}`").as_str()),
            "{filter}"
        );
    }
}

#[test]
fn a_filter_property_the_pushed_account_lacks_is_said_to_have_no_field() {
    // `folder` filters accounts, but the pushed account has no field for it; a filter name
    // read on a nested account (`parentAccount`) names the field on that account.
    let valid = std::fs::read_to_string(fixture("valid.yaml")).expect("fixture");
    let text = valid.replace(
        r##"Address: "#valueof($.account.corpEmail)""##,
        r##"Address: "#valueof($.account.folder)"
          Parent: "#valueof($.account.parentAccount.email)""##,
    );
    assert_ne!(text, valid);
    let report = syncdef_validator::lint_text("accounts.yaml", &text, &RuleSettings::default());
    let found: Vec<(&str, Option<&str>)> = report
        .diagnostics
        .iter()
        .map(|d| (d.message.as_str(), d.help.as_deref()))
        .collect();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].0.ends_with(
            "`folder` is a filter property of the Accounts collection (`GET /api/accounts`), not a field of the pushed account"
        ),
        "{found:#?}"
    );
    assert!(found[0].1.is_some_and(|h| h.contains("x-syncdef-records")));
    assert_eq!(found[1].1, Some("read `$.account.parentAccount.corpEmail`"));
}

#[test]
fn a_document_without_a_section_is_still_checked_as_openapi() {
    let report = lint("no_sync_openapi_errors.yaml");
    let mut codes: Vec<&str> = report.diagnostics().map(Diagnostic::code).collect();
    codes.sort_unstable();
    // The unknown field, the missing description and the undeclared path parameter (a rule of
    // the OpenAPI part), beside what is missing for a definition.
    assert_eq!(
        codes,
        ["SD105", "SD105", "SD110", "SD120"],
        "{:#?}",
        report.diagnostics().map(|d| &d.message).collect::<Vec<_>>()
    );
}

#[test]
fn server_variables_are_checked_in_a_document_without_a_section() {
    for (fixture, says) in [
        ("no_sync_server_enum_empty.yaml", "has an empty `enum`"),
        (
            "no_sync_server_default_not_in_enum.yaml",
            "is not one of its `enum` values",
        ),
    ] {
        let report = lint(fixture);
        let found: Vec<(&str, &str)> = report
            .diagnostics()
            .map(|d| (d.code(), d.message.as_str()))
            .collect();
        assert!(
            found
                .iter()
                .any(|(code, message)| *code == "SD113" && message.contains(says)),
            "{fixture}: {found:#?}"
        );
        assert!(report.exit_code(true) != 0, "{fixture}");
    }
}

#[test]
fn a_request_body_schema_the_engine_cannot_compile_is_an_error_at_the_reference() {
    // The SD802 fixture with a pattern no regular expression engine compiles: the engine
    // refuses to load such a definition, so lint says so at the operation reference.
    let text = std::fs::read_to_string(fixture("SD802.yaml"))
        .expect("the fixture")
        .replace(
            "DisplayName: {type: string}",
            "DisplayName: {type: string, pattern: \"(\"}",
        );
    let found = sd802_messages("uncompilable", &text);
    assert!(
        found
            .iter()
            .any(|m| m.contains("its request body schema does not compile")
                && m.contains("the engine refuses to load the definition")),
        "{found:#?}"
    );
}

/// The SD802 messages of `text`, linted as the file `<name>.yaml` with the default settings.
fn sd802_messages(name: &str, text: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("syncdef-sd802-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join(format!("{name}.yaml"));
    std::fs::write(&file, text).expect("written");
    let config = Config {
        settings: Some(std::sync::Arc::new(RuleSettings::default())),
        ..Config::default()
    };
    let report = lint_paths(&[file], &config);
    let found = report
        .diagnostics()
        .filter(|d| d.code() == "SD802")
        .map(|d| d.message.clone())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    found
}

#[test]
fn a_constant_body_that_fits_several_alternatives_of_a_one_of_is_an_error() {
    // A template that reads nothing writes the same body for every record: the engine refuses
    // it for every push when `oneOf` cannot tell its alternatives apart, so lint says so too,
    // whatever sample it renders over.
    let text = r##"
openapi: 3.0.3
info: {title: Events, version: "1"}
servers: [{url: "https://events.example.com"}]
security: [{key: []}]
paths:
  /cursors:
    post:
      requestBody:
        content:
          application/json:
            schema:
              oneOf:
                - {properties: {cursor: {type: string}}}
                - {properties: {limit: {type: number}}}
      responses:
        "200":
          description: the cursor
          content:
            application/json:
              schema: {type: object, properties: {id: {type: integer}}}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
synchronization:
  Account:
    module: Accounts
    push:
      create: /cursors/post
      schemasTransformer:
        createRequest: {cursor: "x"}
        createResponse: {id: "#valueof($.id)"}
"##;
    let found = sd802_messages("one-of", text);
    assert!(found.iter().any(|m| m.contains("oneOf")), "{found:#?}");
}

/// The messages of `text`'s findings, linted as a definition.
fn messages_of(text: &str) -> Vec<String> {
    let report = syncdef_validator::lint_text("customers.yaml", text, &RuleSettings::default());
    report
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code(), d.message))
        .collect()
}

#[test]
fn a_read_only_property_listed_as_required_is_neither_required_nor_taken() {
    // Vendors that share one schema between requests and answers list a read-only `Id` in
    // `required`; OpenAPI applies that to answers only. The create that leaves it out has no
    // finding, the update that writes it one (read-only), not a second saying it is required.
    let text = std::fs::read_to_string(fixture("SD802_read_only_required.yaml")).expect("fixture");
    let report = syncdef_validator::lint_text("customers.yaml", &text, &RuleSettings::default());
    let found: Vec<(String, Option<&str>)> = report
        .diagnostics
        .iter()
        .map(|d| (format!("{} {}", d.code(), d.message), d.pointer.as_deref()))
        .collect();
    assert_eq!(
        found,
        [(
            "SD802 `Id` in the body is read-only: the external system sets it and does not take it in a request".to_owned(),
            Some("/synchronization/Customer/push/schemasTransformer/updateRequest")
        )]
    );
}

#[test]
fn a_read_only_property_a_template_names_by_a_computed_key_is_found_in_its_rendering() {
    // The static walk cannot read an `#eval` key; the rendering over the sample record writes
    // `Balance`, and the finding points at the template.
    let text = std::fs::read_to_string(fixture("SD802_read_only.yaml")).expect("fixture");
    let computed = text.replace(
        "          Balance: \"#valueof($.account.creditLimitAmount)\"\n          MetaData:\n            CreateTime: \"2026-01-01T00:00:00Z\"\n",
        "          \"#eval(#xconcat(Bal,ance))\": \"#valueof($.account.creditLimitAmount)\"\n",
    );
    assert_ne!(computed, text);
    let found = messages_of(&computed);
    assert_eq!(
        found,
        [
            "SD802 `Balance` in the body is read-only: the external system sets it and does not take it in a request"
        ]
    );
}
