//! The lint scope: findings in the parts of a vendor's description the synchronization uses are
//! reported; those in parts no entry reaches are counted apart, unless the scope is `all`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use syncdef_validator::{
    Config, Diagnostic, FileReport, LintReport, RuleSettings, Scope, lint_paths, lint_text,
};

/// A vendor's description: a warning (SD126) in a schema the entry reaches through two
/// `$ref`s, errors in a schema (SD124) and an operation (SD123) no entry uses.
const VENDOR: &str = "tests/fixtures/scope/vendor.yaml";

fn lint(path: &str, config: Config) -> LintReport {
    let config = Config {
        settings: config
            .settings
            .or_else(|| Some(Arc::new(RuleSettings::default()))),
        ..config
    };
    lint_paths(&[PathBuf::from(path)], &config)
}

/// `CODE pointer` of each finding.
fn found<'a>(diagnostics: impl Iterator<Item = &'a Diagnostic>) -> Vec<String> {
    diagnostics
        .map(|d| format!("{} {}", d.code(), d.pointer.as_deref().unwrap_or("-")))
        .collect()
}

const USED: &str = "SD126 /components/schemas/Country/properties/CountryCode/example";
const UNUSED_OPERATION: &str = "SD123 /paths/~1v3~1company~1{realmId}~1invoice/get/responses/20O";
const UNUSED_SCHEMA: &str = "SD124 /components/schemas/CalloutNotification/required/0";

#[test]
fn only_the_findings_in_the_parts_the_synchronization_uses_are_reported() {
    let report = lint(VENDOR, Config::default());
    assert_eq!(found(report.diagnostics()), [USED]);
    assert_eq!(
        found(report.outside_scope()),
        [UNUSED_OPERATION, UNUSED_SCHEMA]
    );
    let summary = report.summary();
    assert_eq!((summary.errors, summary.warnings), (0, 1));
    assert_eq!(summary.outside_scope, 2);
    assert_eq!(summary.suppressed, 0);
    // The errors no entry reaches fail nothing.
    assert_eq!(report.exit_code(false), 0);
    assert_eq!(report.exit_code(true), 1);
}

#[test]
fn scope_all_reports_every_finding() {
    let config = Config {
        scope: Some(Scope::All),
        ..Config::default()
    };
    let report = lint(VENDOR, config);
    assert_eq!(
        found(report.diagnostics()),
        [UNUSED_OPERATION, USED, UNUSED_SCHEMA]
    );
    assert_eq!(report.summary().outside_scope, 0);
    assert_eq!(report.exit_code(false), 1);
}

#[test]
fn scope_all_in_syncdef_toml_reports_every_finding_and_the_flag_wins_over_it() {
    let settings = RuleSettings::parse("scope = \"all\"\n", Path::new("syncdef.toml"))
        .expect("a valid syncdef.toml");
    assert_eq!(settings.scope(), Scope::All);
    let settings = Some(Arc::new(settings));
    let report = lint(
        VENDOR,
        Config {
            settings: settings.clone(),
            ..Config::default()
        },
    );
    assert_eq!(report.summary().errors, 2);
    assert_eq!(report.summary().outside_scope, 0);
    let report = lint(
        VENDOR,
        Config {
            settings,
            scope: Some(Scope::Used),
            ..Config::default()
        },
    );
    assert_eq!(report.summary().errors, 0);
    assert_eq!(report.summary().outside_scope, 2);
}

#[test]
fn an_unknown_scope_in_syncdef_toml_is_refused() {
    let error = RuleSettings::parse("scope = \"some\"\n", Path::new("syncdef.toml"))
        .expect_err("an unknown scope");
    assert!(
        error
            .message
            .contains("unknown variant `some`, expected `used` or `all`"),
        "{}",
        error.message
    );
}

#[test]
fn a_description_without_a_synchronization_section_is_linted_in_full() {
    let report = lint(
        "tests/fixtures/scope/no_synchronization.yaml",
        Config::default(),
    );
    let codes: Vec<&str> = report.diagnostics().map(Diagnostic::code).collect();
    for code in ["SD110", "SD123", "SD124", "SD126"] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
    assert_eq!(report.summary().outside_scope, 0);
}

/// The vendor's description with `from` replaced by `to` (once, and it must be there).
fn vendor_with(edits: &[(&str, &str)]) -> String {
    let mut text = std::fs::read_to_string(VENDOR).expect("the fixture");
    for (from, to) in edits {
        assert_eq!(text.matches(from).count(), 1, "{from:?}");
        text = text.replacen(from, to, 1);
    }
    text
}

fn lint_vendor(edits: &[(&str, &str)]) -> FileReport {
    lint_text("vendor.yaml", &vendor_with(edits), &RuleSettings::default())
}

#[test]
fn the_parameters_of_a_used_path_item_and_what_they_refer_to_are_used() {
    let file = lint_vendor(&[
        (
            "    Id: {name: id, in: path, required: true, schema: {type: string}}",
            "    Id: {name: id, in: path, required: false, schema: {type: string}}\n    \
             InvoiceId: {name: id, in: path, required: false, schema: {type: string}}",
        ),
        (
            "  /v3/company/{realmId}/invoice:\n",
            "  /v3/company/{realmId}/invoice/{id}:\n    \
             parameters: [{$ref: \"#/components/parameters/InvoiceId\"}]\n",
        ),
    ]);
    assert_eq!(
        found(file.diagnostics.iter()),
        ["SD121 /components/parameters/Id/required", USED]
    );
    assert!(
        found(file.outside_scope.iter())
            .contains(&"SD121 /components/parameters/InvoiceId/required".to_owned()),
        "{:?}",
        file.outside_scope
    );
}

#[test]
fn the_security_schemes_a_used_operation_or_the_document_names_are_used() {
    let scheme = |name: &str| {
        format!(
            "    {name}:\n      type: oauth2\n      flows:\n        authorizationCode:\n          \
             authorizationUrl: http://{name}.example/auth\n          \
             tokenUrl: https://{name}.example/token\n          scopes: {{}}\n"
        )
    };
    let schemes = format!(
        "  securitySchemes:\n{}{}",
        scheme("partner"),
        scheme("legacy")
    );
    let file = lint_vendor(&[
        ("  securitySchemes:\n", &schemes),
        (
            "    get:\n      responses: {\"200\": {description: the customer}}",
            "    get:\n      security: [{partner: []}]\n      \
             responses: {\"200\": {description: the customer}}",
        ),
    ]);
    let reported = found(file.diagnostics.iter());
    assert!(
        reported.contains(
            &"SD705 /components/securitySchemes/partner/flows/authorizationCode/authorizationUrl"
                .to_owned()
        ),
        "{reported:?}"
    );
    assert_eq!(
        found(file.outside_scope.iter())
            .iter()
            .filter(|f| f.contains("/legacy/"))
            .count(),
        1,
        "{:?}",
        file.outside_scope
    );
}

#[test]
fn schemas_a_used_discriminator_maps_to_are_used() {
    let file = lint_vendor(&[(
        "        BillAddr: {$ref: \"#/components/schemas/Address\"}\n",
        "        BillAddr: {$ref: \"#/components/schemas/Address\"}\n        \
         kind: {type: string}\n      discriminator:\n        propertyName: kind\n        \
         mapping:\n          company: \"#/components/schemas/CalloutNotification\"\n",
    )]);
    assert_eq!(found(file.diagnostics.iter()), [USED, UNUSED_SCHEMA]);
    assert_eq!(found(file.outside_scope.iter()), [UNUSED_OPERATION]);
}

#[test]
fn an_ignore_file_entry_for_a_finding_outside_the_scope_stays_in_use() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("scope_ignore_file");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let definition = dir.join("vendor.yaml");
    std::fs::copy(VENDOR, &definition).expect("the fixture copied");
    let ignore = dir.join(".syncdef-ignore.yaml");
    std::fs::write(
        &ignore,
        "vendor.yaml:\n  SD124:\n    - '#/components/schemas/CalloutNotification/required/0'\n",
    )
    .expect("the ignore file written");
    let config = Config {
        settings: Some(Arc::new(RuleSettings::default())),
        ignore_file: Some(ignore),
        ..Config::default()
    };
    let report = lint_paths(&[definition], &config);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    // No SD115 for the entry: it names a finding, which the scope sets apart.
    assert_eq!(found(report.diagnostics()), [USED]);
    assert_eq!(report.summary().outside_scope, 2);
    assert_eq!(report.summary().suppressed, 0);
}
