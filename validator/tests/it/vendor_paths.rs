//! The vendor's documentation writes placeholder names in `paths` itself:
//! `/Customer(No='{IntegrationId}')`, `/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')`.
//! A path parameter named like a placeholder is filled by it, so such a definition lints clean.

use syncdef_validator::{RuleSettings, lint_text};

#[test]
fn path_parameters_named_like_placeholders_are_filled_by_them() {
    let catalog = include_str!("../../../catalog/business-central-odata/definition.yaml");
    let vendor = catalog
        .replace("/Customer(No='{customerNo}'):", "/Customer(No='{IntegrationId}'):")
        .replace("- name: customerNo", "- name: IntegrationId")
        .replace(
            "/SalesInvoice(No='{no}',Document_Type='{documentType}'):",
            "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice'):",
        )
        .replace("- name: \"no\"", "- name: IntegrationId")
        .replace(
            "      - name: documentType\n        in: path\n        required: true\n        schema:\n          type: string\n          enum: [Invoice]\n",
            "",
        );
    assert_ne!(vendor, catalog, "the catalog's paths were rewritten");
    let report = lint_text("vendor.yaml", &vendor, &RuleSettings::default());
    let found: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code(), d.message))
        .collect();
    assert!(found.is_empty(), "{found:#?}");
}
