//! One test per rule: a fixture with exactly that mistake must produce that rule's diagnostics
//! and nothing else; the human (no color) and JSON renderings are snapshotted.

use std::path::{Path, PathBuf};

use syncdef_validator::output::{OutputFormat, RenderOptions, render};
use syncdef_validator::{Config, LintReport, Rule, RuleSettings, lint_paths};

fn fixture(name: &str) -> PathBuf {
    // Relative to the crate so file names in snapshots do not depend on the checkout.
    Path::new("tests/fixtures").join(name)
}

fn lint(name: &str) -> LintReport {
    let config = Config {
        settings: Some(std::sync::Arc::new(RuleSettings::default())),
        ..Config::default()
    };
    lint_paths(&[fixture(name)], &config)
}

fn check_rule(code: &str, fixture: &str) {
    let rule = Rule::from_code(code).expect("the code exists");
    let report = lint(&format!("{fixture}.yaml"));
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let codes: Vec<&str> = report.diagnostics().map(|d| d.code()).collect();
    assert!(!codes.is_empty(), "{code}: no diagnostic");
    assert!(
        codes.iter().all(|c| *c == rule.code()),
        "{code}: the fixture has one mistake, but got {codes:?}"
    );
    let options = RenderOptions {
        color: false,
        width: 100,
        links: false,
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

macro_rules! rule_tests {
    ($($name:ident => $code:literal $(in $fixture:literal)?,)*) => {
        $(
            #[test]
            fn $name() {
                let fixture = [$($fixture,)? $code][0];
                check_rule($code, fixture);
            }
        )*
    };
}

rule_tests! {
    sd100_invalid_syntax => "SD100",
    sd101_duplicate_key => "SD101",
    sd102_alias_bomb => "SD102",
    sd103_excessive_nesting => "SD103",
    sd104_non_utf8_input => "SD104",
    sd105_invalid_openapi => "SD105",
    sd106_broken_ref => "SD106",
    sd107_circular_ref => "SD107",
    sd108_invalid_sync_structure => "SD108",
    sd109_unknown_key => "SD109",
    sd110_missing_sync_section => "SD110",
    sd110_misspelt_sync_section => "SD110" in "SD110_misspelt",
    sd112_misspelt_key => "SD112",
    sd113_invalid_server_variable => "SD113",
    sd114_invalid_extension => "SD114",
    sd201_malformed_operation_ref => "SD201",
    sd202_unknown_operation_path => "SD202",
    sd203_method_not_on_path => "SD203",
    sd204_dot_segment_path => "SD204",
    sd301_unknown_placeholder => "SD301",
    sd302_unknown_placeholder_entry => "SD302",
    sd303_unsupplied_path_parameter => "SD303",
    sd401_missing_template => "SD401",
    sd402_unused_template => "SD402",
    sd403_template_syntax_error => "SD403",
    sd403_unknown_function => "SD403" in "SD403_function",
    sd403_error_inside_string_template => "SD403" in "SD403_string",
    sd404_foreign_template_root => "SD404",
    sd405_sync_token_without_pre_action => "SD405",
    sd406_undeclared_server_variable => "SD406",
    sd407_unknown_sync_token_name => "SD407",
    sd407_unknown_related_entry => "SD407" in "SD407_related",
    sd501_unknown_action_type => "SD501",
    sd502_unknown_action_placement => "SD502",
    sd503_incomplete_header_action => "SD503",
    sd504_unknown_synchronization_target => "SD504",
    sd505_entry_dependency_cycle => "SD505",
    sd601_unknown_module => "SD601",
    sd602_update_without_concurrency_token => "SD602",
    sd603_update_without_external_id => "SD603",
    sd604_update_not_sparse => "SD604",
    sd701_unknown_security_scheme => "SD701",
    sd702_incomplete_oauth_flow => "SD702",
    sd703_undeclared_scope => "SD703",
    sd704_missing_security => "SD704",
    sd705_insecure_url => "SD705",
    sd801_unknown_record_field => "SD801",
    sd801_unknown_loop_item_field => "SD801" in "SD801_loop",
    sd801_unknown_record_extension => "SD801" in "SD801_extension",
    sd801_filter_property_email => "SD801" in "SD801_filter_email",
    sd801_filter_property_website => "SD801" in "SD801_filter_website",
    sd801_filter_property_taxable => "SD801" in "SD801_filter_taxable",
    sd801_filter_property_ordering_enabled => "SD801" in "SD801_filter_orderingEnabled",
    sd801_filter_property_credit_limit => "SD801" in "SD801_filter_creditLimit",
    sd802_request_body_mismatch => "SD802",
    sd802_shape_mismatch => "SD802" in "SD802_shape",
    sd803_unknown_response_field => "SD803",
    sd804_external_id_not_convertible => "SD804",
    sd805_external_id_may_not_convert => "SD805",
    sd806_unknown_action_response_field => "SD806",
    sd807_unfiltered_billing_address => "SD807",
    sd808_response_contract_mismatch => "SD808",
    sd809_external_id_kept_as_text => "SD809",
}

#[test]
fn valid_definitions_lint_clean() {
    for fixture in [
        "valid.yaml",
        "valid_business_central.yaml",
        "valid_query_delete.yaml",
        "valid_typed.yaml",
        "valid_account_record.yaml",
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
fn every_rule_with_a_fixture_has_a_test() {
    // Guards against adding a fixture (or a rule) and forgetting the test line above.
    let source = include_str!("rules.rs");
    for entry in std::fs::read_dir("tests/fixtures").expect("fixtures dir") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some(stem) = name.strip_suffix(".yaml").filter(|c| c.starts_with("SD")) {
            let tested = source.contains(&format!("=> \"{stem}\","))
                || source.contains(&format!("in \"{stem}\","));
            assert!(tested, "{name} has no test");
        }
    }
}

#[test]
fn a_misspelt_pre_action_key_is_an_error_and_supplies_no_token() {
    // `preSyncronizationAction` is read as `preSynchronizationAction`, so its content is
    // checked, but the platform never runs it: the update's `$.syncToken` has no supplier.
    let report = lint("misspelt_pre_action.yaml");
    let mut codes: Vec<&str> = report.diagnostics().map(|d| d.code()).collect();
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
