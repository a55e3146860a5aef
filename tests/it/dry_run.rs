//! End-to-end tests of `syncdef dry-run` and `syncdef push`: the exact requests, the
//! synthesised responses and the outcome, in both formats; exit codes.

use crate::common;

use common::syncdef;

const QB: &str = "definitions/tests/fixtures/quickbooks-online.yaml";
const BC: &str = "engine/tests/fixtures/business-central.yaml";
const GENERIC: &str = "engine/tests/fixtures/generic.yaml";
const ACCOUNT: &str = "tests/fixtures/dry_run/account.json";
const INVOICE: &str = "tests/fixtures/dry_run/invoice.json";

/// Durations change from run to run; everything else is stable.
/// `syncdef push --dry-run ARGS...`.
fn dry_run(args: &[&str]) -> common::Run {
    syncdef(&[&["push", "--dry-run"], args].concat())
}

fn stable_json(stdout: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(stdout).expect("the output is JSON");
    v["outcome"]["duration"] = serde_json::Value::from("[duration]");
    v
}

#[test]
fn quickbooks_create_human() {
    let run = dry_run(&[
        QB,
        "--entry",
        "Account",
        "--record",
        ACCOUNT,
        "--var",
        "realmId=4620816365",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn quickbooks_update_with_given_responses_json() {
    let run = dry_run(&[
        QB,
        "--entry",
        "Account",
        "--record",
        ACCOUNT,
        "--external-id",
        "67",
        "--responses",
        "tests/fixtures/dry_run/qb-update-responses.json",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = stable_json(&run.stdout);
    // The SyncToken read by the pre-action is the one sent.
    assert_eq!(json["requests"][1]["body"]["SyncToken"], "3");
    assert_eq!(
        json["requests"][1]["headers"]["authorization"],
        "Bearer ***"
    );
    insta::assert_json_snapshot!(json);
}

#[test]
fn business_central_update_with_etag_header_human() {
    let run = dry_run(&[
        BC,
        "--entry",
        "Invoice",
        "--record",
        INVOICE,
        "--external-id",
        "103001",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("If-Match: W/\"JzQ0"), "{}", run.stdout);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn invoice_with_related_account_json() {
    let run = dry_run(&[
        GENERIC,
        "--entry",
        "Invoice",
        "--record",
        INVOICE,
        "--related",
        "Account=C/12",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = stable_json(&run.stdout);
    assert_eq!(
        json["requests"][0]["url"],
        "https://api.example.com/acme/accounts/C%2F12/invoices"
    );
    insta::assert_json_snapshot!(json);
}

#[test]
fn success_false_exits_1_with_the_external_errors() {
    let run = dry_run(&[
        GENERIC,
        "--entry",
        "Account",
        "--record",
        ACCOUNT,
        "--responses",
        "tests/fixtures/dry_run/generic-failure.json",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn a_missing_related_id_says_what_to_pass() {
    let run = dry_run(&[GENERIC, "--entry", "Invoice", "--record", INVOICE]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("--related Account=ID"),
        "{}",
        run.stdout
    );
}

#[test]
fn usage_errors_exit_2() {
    let run = dry_run(&[GENERIC, "--entry", "Acount", "--record", ACCOUNT]);
    assert_eq!(run.code, 2);
    insta::assert_snapshot!("unknown_entry", run.stderr);
    let run = dry_run(&[
        QB, "--entry", "Account", "--record", ACCOUNT, "--var", "realmId",
    ]);
    assert_eq!(run.code, 2);
    let run = dry_run(&[
        QB,
        "--entry",
        "Account",
        "--record",
        "tests/fixtures/dry_run/missing.json",
    ]);
    assert_eq!(run.code, 2);
    let run = dry_run(&[
        QB, "--entry", "Account", "--record", ACCOUNT, "--var", "nope=1",
    ]);
    assert_eq!(
        run.code, 1,
        "an unknown server variable is a failed push: {}",
        run.stdout
    );
    assert!(run.stdout.contains("not a server variable"));
    let dir = tempfile::tempdir().unwrap();
    let responses = dir.path().join("responses.json");
    std::fs::write(&responses, r#"{"create": {"status": 700}}"#).unwrap();
    let run = dry_run(&[
        GENERIC,
        "--entry",
        "Account",
        "--record",
        ACCOUNT,
        "--responses",
        responses.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("step `create`: `status` must be an HTTP status code"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_definition_with_lint_errors_is_refused_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(common::root().join(GENERIC)).unwrap();
    let broken = dir.path().join("broken.yaml");
    std::fs::write(
        &broken,
        text.replace("create: /accounts/post", "create: /acounts/post"),
    )
    .unwrap();
    let run = dry_run(&[
        broken.to_str().unwrap(),
        "--entry",
        "Account",
        "--record",
        ACCOUNT,
    ]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("lint error"), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn push_sends_for_real_and_prints_the_outcome() {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"id": 12, "success": true, "errors": []})),
        )
        .expect(1)
        .mount(&server)
        .await;
    for step in ["notify", "audit"] {
        Mock::given(method("POST"))
            .and(path(format!("/accounts/12/{step}")))
            .respond_with(ResponseTemplate::new(204))
            .mount(&server)
            .await;
    }
    let uri = server.uri();
    let run = tokio::task::spawn_blocking(move || {
        let args = [
            "push",
            GENERIC,
            "--entry",
            "Account",
            "--record",
            ACCOUNT,
            "--base-url",
            &uri,
            "--format",
            "json",
        ]
        .map(String::from);
        // The definition's operations require OAuth2: a token goes with each request.
        let output = common::syncdef_command(&args, &[("SYNCDEF_ACCESS_TOKEN", "local-token")])
            .output()
            .expect("syncdef runs to completion");
        common::Run::from(output)
    })
    .await
    .unwrap();
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["outcome"]["status"], "created");
    assert_eq!(json["outcome"]["externalId"], "12");
    assert_eq!(json["outcome"]["externalIdNumber"], 12);
    assert_eq!(json["requests"].as_array().map(Vec::len), Some(3));
}

#[test]
fn a_template_reading_a_missing_related_id_stops_before_sending() {
    // The QuickBooks invoice reads `$.related.Account.IntegrationId` for `CustomerRef`: without
    // the id the body would reference no customer, so nothing may be sent.
    let run = dry_run(&[
        "catalog/quickbooks-online/definition.yaml",
        "--entry",
        "Invoice",
        "--record",
        "catalog/records/invoice-acme-eur.json",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let json = stable_json(&run.stdout);
    let sent = json["requests"].as_array().map_or(0, Vec::len);
    assert_eq!(sent, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("$.related.Account.IntegrationId")
            && run.stdout.contains("--related Account=ID"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_body_that_breaks_its_schema_is_shown_but_not_sent() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("account.json");
    let name = "A".repeat(602);
    std::fs::write(
        &record,
        serde_json::json!({"id": 42, "name": name, "corpEmail": "billing@acme.test"}).to_string(),
    )
    .unwrap();
    let run = dry_run(&[
        "catalog/quickbooks-online/definition.yaml",
        "--entry",
        "Account",
        "--record",
        &record.display().to_string(),
        "--var",
        "realmId=4620816365",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("the output is JSON");
    let error = &json["outcome"]["error"];
    assert_eq!(error["class"], "configuration", "{json:#}");
    let message = error["message"].as_str().expect("a message");
    for part in [
        "`/DisplayName`: maxLength 500, the value has 602 characters",
        "`createRequest` key `DisplayName`",
        "definition.yaml line ",
        "nothing was sent",
    ] {
        assert!(message.contains(part), "{part:?} not in {message}");
    }
    // The rendered body is in the audit trail; no request was made.
    assert_eq!(json["requests"], serde_json::json!([]), "{json:#}");
    assert_eq!(json["outcome"]["templates"][0]["name"], "createRequest");
    assert_eq!(
        json["outcome"]["templates"][0]["output"]["DisplayName"]
            .as_str()
            .map(|s| s.chars().count()),
        Some(602)
    );
}

#[test]
fn a_refused_definition_is_reported_as_json_on_stdout_with_format_json() {
    let run = dry_run(&[
        "validator/tests/fixtures/SD112.yaml",
        "--entry",
        "Customer",
        "--record",
        "catalog/records/account-acme-eur.json",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&run.stdout).expect("the refusal is one JSON document on stdout");
    assert_eq!(report["diagnostics"][0]["code"], "SD112", "{report:#}");
}

/// A record already wrapped in its module's root (a line of catalog/records/accounts.jsonl,
/// made for `syncdef transform`) would be wrapped again and read as nulls: refused, with the fix.
#[test]
fn a_record_wrapped_in_its_module_root_is_refused_with_the_fix() {
    let wrapped = std::fs::read_to_string(common::root().join("catalog/records/accounts.jsonl"))
        .expect("records");
    let first = wrapped.lines().next().expect("a record");
    let run = common::syncdef_with_stdin(
        &[
            "push",
            "--dry-run",
            "catalog/quickbooks-online/definition.yaml",
            "--entry",
            "Account",
            "--record",
            "-",
        ],
        first,
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains("<stdin>")
            && run.stderr.contains("`account`")
            && run.stderr.contains(r#"{"account": {...}}"#)
            && run.stderr.contains("catalog/records/*.json"),
        "{}",
        run.stderr
    );
}

const BC_CATALOG: &str = "catalog/business-central/definition.yaml";
const QB_CATALOG: &str = "catalog/quickbooks-online/definition.yaml";
const ACME_CUSTOMER: &str = "Account=5d115c9c-44e3-ea11-bb43-000d3a2feca1";

/// A Business Central sales order is created in one request with a line per order item, for the
/// customer its account was pushed as.
#[test]
fn business_central_order_with_its_lines_human() {
    let run = dry_run(&[
        BC_CATALOG,
        "--entry",
        "Order",
        "--record",
        "catalog/records/order-acme-eur.json",
        "--related",
        ACME_CUSTOMER,
        "--responses",
        "catalog/business-central/responses/Order-create.json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    for part in [
        "POST https://api.businesscentral.dynamics.com/v2.0/contoso.onmicrosoft.com/Sandbox/api/v2.0/companies(00000000-0000-0000-0000-000000000000)/salesOrders",
        r#""customerId": "5d115c9c-44e3-ea11-bb43-000d3a2feca1""#,
        r#""description": "Cloud Backup 100 GB""#,
        r#""description": "Microsoft 365 Business Premium""#,
        "created: external id b6f4017a-b749-ee11-ad0b-a1422c0f7f1f",
    ] {
        assert!(run.stdout.contains(part), "{part:?} not in\n{}", run.stdout);
    }
    insta::assert_snapshot!(run.stdout);
}

/// The order's lines come from its items: one line each, in order, with the item's figures.
#[test]
fn business_central_order_lines_follow_the_order_items_json() {
    let run = dry_run(&[
        BC_CATALOG,
        "--entry",
        "Order",
        "--record",
        "catalog/records/order-acme-eur.json",
        "--related",
        ACME_CUSTOMER,
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let json = stable_json(&run.stdout);
    let lines = &json["requests"][0]["body"]["salesOrderLines"];
    assert_eq!(
        lines,
        &serde_json::json!([
            {"lineType": "Account", "lineObjectNumber": "40100", "description": "Cloud Backup 100 GB", "quantity": 5, "unitPrice": 12.5},
            {"lineType": "Account", "lineObjectNumber": "40100", "description": "Microsoft 365 Business Premium", "quantity": 12, "unitPrice": 19.7}
        ]),
        "{json:#}"
    );
}

/// Payments reference the customer of their account: without its id nothing is sent, and the
/// message says how to give it.
#[test]
fn a_payment_without_its_account_stops_before_sending() {
    for definition in [QB_CATALOG, BC_CATALOG] {
        let run = dry_run(&[
            definition,
            "--entry",
            "Payment",
            "--record",
            "catalog/records/payment-acme-transfer.json",
            "--format",
            "json",
        ]);
        assert_eq!(run.code, 1, "{definition}: {}{}", run.stdout, run.stderr);
        let json = stable_json(&run.stdout);
        assert_eq!(json["requests"], serde_json::json!([]), "{json:#}");
        assert!(
            run.stdout.contains("--related Account=ID"),
            "{definition}: {}",
            run.stdout
        );
    }
}

/// A QuickBooks item update sends back the `SyncToken` the pre-action read, sparse.
#[test]
fn quickbooks_product_update_sends_the_item_sync_token_json() {
    let run = dry_run(&[
        QB_CATALOG,
        "--entry",
        "Product",
        "--record",
        "catalog/records/product-backup-service.json",
        "--external-id",
        "19",
        "--responses",
        "catalog/quickbooks-online/responses/Product-update.json",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let json = stable_json(&run.stdout);
    assert_eq!(json["requests"][0]["step"], "SyncToken");
    assert!(
        json["requests"][0]["url"]
            .as_str()
            .is_some_and(|u| u.ends_with("/item/19")),
        "{json:#}"
    );
    let body = &json["requests"][1]["body"];
    assert_eq!(body["Id"], "19", "{json:#}");
    assert_eq!(body["SyncToken"], "4", "{json:#}");
    assert_eq!(body["sparse"], true, "{json:#}");
    assert!(body.get("Type").is_none(), "the type stays: {json:#}");
    insta::assert_json_snapshot!(json);
}

/// A vendor's description with errors only in parts no entry uses (an operation and a callout
/// schema): they cannot change what a push sends, so the lint that guards a dry-run does not
/// refuse it; with `scope = "all"` in syncdef.toml it does, as every error did before.
#[test]
fn errors_in_parts_no_entry_uses_do_not_refuse_a_dry_run() {
    const VENDOR: &str = "validator/tests/fixtures/scope/vendor.yaml";
    let args = [
        "push",
        "--dry-run",
        VENDOR,
        "--entry",
        "Customer",
        "--record",
        ACCOUNT,
    ];
    let run = syncdef(&args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("POST https://quickbooks.api.intuit.com/v3/company/0/customer"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("created: external id"),
        "{}",
        run.stdout
    );

    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("syncdef.toml"), "scope = \"all\"\n").expect("syncdef.toml");
    let vendor = dir.path().join("vendor.yaml");
    std::fs::copy(common::root().join(VENDOR), &vendor).expect("the fixture");
    let vendor = vendor.to_string_lossy();
    let account = common::root().join(ACCOUNT);
    let account = account.to_string_lossy();
    let refused = dry_run(&[&vendor, "--entry", "Customer", "--record", &account]);
    assert_eq!(refused.code, 1, "{}{}", refused.stdout, refused.stderr);
    assert!(refused.stderr.contains("SD124"), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("2 lint errors"),
        "{}",
        refused.stderr
    );
}
