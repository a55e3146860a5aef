//! The response templates of the catalog, changed the ways the platform's contract
//! (`{id: int64, errors: [string], success: boolean}`) refuses: each is an error at its value.

use syncdef_validator::{RuleSettings, lint_text};

fn codes_after(replace: &str, with: &str) -> Vec<String> {
    let catalog = include_str!("../../../catalog/quickbooks-online/definition.yaml");
    assert!(catalog.contains(replace), "the catalog has `{replace}`");
    let changed = catalog.replacen(replace, with, 1);
    lint_text("qbo.yaml", &changed, &RuleSettings::default())
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code(), d.message))
        .collect()
}

#[test]
fn success_read_from_a_string_field_is_an_error() {
    let found = codes_after(
        r##"success: "#exists($.Customer.Id)""##,
        r##"success: "#valueof($.Customer.DisplayName)""##,
    );
    assert!(
        found
            .iter()
            .any(|d| d.starts_with("SD808") && d.contains("declares as a string")),
        "{found:#?}"
    );
}

#[test]
fn errors_read_from_a_field_that_is_not_an_array_is_an_error() {
    let found = codes_after(
        r##"          errors:
            - "#loop($.Fault.Error)": "#xconcat(#currentvalueatpath($.Message),: ,#currentvalueatpath($.Detail), /(code ,#currentvalueatpath($.code),/))""##,
        r##"          errors: "#valueof($.Customer.DisplayName)""##,
    );
    assert!(found.iter().any(|d| d.starts_with("SD808")), "{found:#?}");
}

#[test]
fn the_catalog_response_templates_keep_the_contract() {
    let found = codes_after("sparse: true", "sparse: true");
    assert!(found.is_empty(), "{found:#?}");
}
