//! End-to-end tests of `syncdef new`: a starting definition over a vendor's description that
//! lints without an error and whose dry-run sends the create request, for the catalog's systems
//! (their OpenAPI part as the vendor's file) and for excerpts in the shape of real vendors'
//! descriptions; it never overwrites a file, and refuses what is not an OpenAPI description at
//! its place.

use std::path::Path;

use serde_json::{Value as Json, json};

use crate::common;

use common::{Run, root, syncdef_in};

const ACCOUNT: &str = "catalog/records/account-acme-eur.json";

/// Writes the starting definition `account.json` into `dir`, asserting that it was written.
fn new_in(dir: &Path, vendor: &str, options: &[&str]) -> Run {
    let args = [
        &["new", "--from", vendor, "--entry", "Account"][..],
        options,
        &["-o", "account.json"],
    ]
    .concat();
    let run = syncdef_in(dir, &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(dir.join("account.json").is_file());
    run
}

/// Lints `account.json` in `dir`: no error. Its warnings, by code.
fn lints_clean(dir: &Path) -> Vec<String> {
    let lint = syncdef_in(dir, &["lint", "--format", "json", "account.json"]);
    assert_eq!(lint.code, 0, "{}{}", lint.stdout, lint.stderr);
    let report: Json = serde_json::from_str(&lint.stdout).expect("the lint's JSON");
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    let errors: Vec<&Json> = diagnostics
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    diagnostics
        .iter()
        .filter(|d| d["severity"] == "warning")
        .map(|d| d["code"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The requests a dry-run of the entry with the catalog's sample account sends.
fn dry_run(dir: &Path, options: &[&str]) -> Vec<Json> {
    let record = root().join(ACCOUNT);
    let record = record.to_str().expect("a UTF-8 path");
    let args = [
        &[
            "push",
            "--dry-run",
            "account.json",
            "--entry",
            "Account",
            "--record",
            record,
            "--format",
            "json",
        ][..],
        options,
    ]
    .concat();
    let run = syncdef_in(dir, &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report: Json = serde_json::from_str(&run.stdout).expect("the dry-run's JSON");
    report["requests"].as_array().cloned().expect("requests")
}

/// The OpenAPI part of a catalog definition, as its vendor would publish it: the text before
/// its `x-syncdef` extension (which the catalog's `synchronization` section follows).
fn vendor_part(system: &str) -> String {
    let path = root().join(format!("catalog/{system}/definition.yaml"));
    let text = std::fs::read_to_string(&path).expect("the catalog definition");
    let (openapi, _) = text
        .split_once("\nx-syncdef:")
        .expect("an x-syncdef section");
    assert!(!openapi.contains("\nsynchronization:"), "{system}");
    format!("{openapi}\n")
}

#[test]
fn each_catalog_system_gets_a_definition_that_lints_and_sends_the_create() {
    // Each update reads the record's concurrency token first, as the catalog's entries do.
    let systems = [
        (
            "quickbooks-online",
            "/customer/post",
            "/customer/post",
            "SyncToken",
        ),
        (
            "business-central",
            "/customers/post",
            "/customers({customerId})/patch",
            "ETag",
        ),
    ];
    for (system, create, update, token) in systems {
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::write(dir.path().join("vendor.yaml"), vendor_part(system)).expect("written");
        new_in(
            dir.path(),
            "vendor.yaml",
            &["--create", create, "--update", update],
        );
        let written: Json = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join("account.json")).expect("read"),
        )
        .expect("the definition is JSON");
        assert_eq!(written["overlay"], "1.0.0");
        assert_eq!(written["extends"], "./vendor.yaml");
        let warnings = lints_clean(dir.path());
        assert!(warnings.is_empty(), "{system}: {warnings:?}");
        let requests = dry_run(dir.path(), &[]);
        let create = &requests[0];
        assert_eq!(create["step"], "create", "{system}: {requests:?}");
        // The name from the account's, the city from its billing address (not the first).
        let (name, city) = if system == "quickbooks-online" {
            (
                &create["body"]["DisplayName"],
                &create["body"]["BillAddr"]["City"],
            )
        } else {
            (&create["body"]["displayName"], &create["body"]["city"])
        };
        assert_eq!(name, "Acme Trading Ltd", "{system}: {create}");
        assert_eq!(city, "Athens", "{system}: {create}");
        let updated = dry_run(dir.path(), &["--external-id", "58"]);
        let steps: Vec<&Json> = updated.iter().map(|r| &r["step"]).collect();
        assert_eq!(steps, [token, "update"], "{system}");
    }
}

#[test]
fn a_wrapped_list_and_a_tenant_header_as_xero_describes_them() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let vendor = root().join("tests/fixtures/new/xero-contacts.json");
    std::fs::copy(&vendor, dir.path().join("xero.json")).expect("copied");
    let run = new_in(
        dir.path(),
        "xero.json",
        &[
            "--create",
            "/Contacts/put",
            "--update",
            "/Contacts/{ContactID}/post",
        ],
    );
    // The tenant is each company's: its value is left to set, and said so.
    assert!(
        run.stderr
            .contains("/servers/0/variables/xeroTenantId/default"),
        "{}",
        run.stderr
    );
    lints_clean(dir.path());
    let requests = dry_run(dir.path(), &["--var", "xeroTenantId=b1c2"]);
    assert_eq!(requests[0]["headers"]["xero-tenant-id"], "b1c2");
    assert_eq!(
        requests[0]["body"],
        json!({"Contacts": [{
            "Name": "Acme Trading Ltd",
            "EmailAddress": "accounts@acme-trading.example",
        }]})
    );
    let update = dry_run(
        dir.path(),
        &["--var", "xeroTenantId=b1c2", "--external-id", "7a1"],
    );
    assert!(
        update[0]["url"]
            .as_str()
            .is_some_and(|u| u.ends_with("/Contacts/7a1")),
        "{update:?}"
    );
}

#[test]
fn a_form_body_as_stripe_describes_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let vendor = root().join("tests/fixtures/new/stripe-customers.yaml");
    std::fs::copy(&vendor, dir.path().join("stripe.yaml")).expect("copied");
    new_in(
        dir.path(),
        "stripe.yaml",
        &["--create", "/v1/customers/post"],
    );
    lints_clean(dir.path());
    let requests = dry_run(dir.path(), &[]);
    let body = requests[0]["body"].to_string();
    assert!(body.contains("Acme Trading Ltd"), "{}", requests[0]);
    assert!(
        body.contains("accounts@acme-trading.example"),
        "{}",
        requests[0]
    );
}

#[test]
fn required_fields_without_a_record_field_are_constants_listed_with_their_place() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let vendor = root().join("tests/fixtures/new/zuora-accounts.yaml");
    std::fs::copy(&vendor, dir.path().join("zuora.yaml")).expect("copied");
    let run = new_in(dir.path(), "zuora.yaml", &["--create", "/v1/accounts/post"]);
    let request = "/synchronization/Account/push/schemasTransformer/createRequest";
    for place in ["billToContact/firstName", "billCycleDay"] {
        assert!(
            run.stderr.contains(&format!("{request}/{place} = ")),
            "{place}: {}",
            run.stderr
        );
    }
    for read in ["name", "currency"] {
        assert!(
            !run.stderr.contains(&format!("{request}/{read} ")),
            "{read}: {}",
            run.stderr
        );
    }
    lints_clean(dir.path());
    let requests = dry_run(dir.path(), &[]);
    let body = &requests[0]["body"];
    assert_eq!(body["name"], "Acme Trading Ltd");
    assert_eq!(body["billCycleDay"], 1);
    assert_eq!(body["currency"], "EUR");
    let written: Json = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("account.json")).expect("read"),
    )
    .expect("JSON");
    let answer = &written["actions"][0]["update"]["synchronization"]["Account"]["push"]["schemasTransformer"]
        ["createResponse"];
    assert_eq!(
        answer,
        &json!({"id": "#valueof($.accountId)", "success": "#valueof($.success)"})
    );
}

#[test]
fn an_existing_file_is_never_overwritten() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let vendor = root().join("tests/fixtures/new/stripe-customers.yaml");
    std::fs::copy(&vendor, dir.path().join("stripe.yaml")).expect("copied");
    std::fs::write(dir.path().join("account.json"), "mine").expect("written");
    let run = syncdef_in(
        dir.path(),
        &[
            "new",
            "--from",
            "stripe.yaml",
            "--entry",
            "Account",
            "--create",
            "/v1/customers/post",
            "-o",
            "account.json",
        ],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("account.json already exists"),
        "{}",
        run.stderr
    );
    let kept = std::fs::read_to_string(dir.path().join("account.json")).expect("read");
    assert_eq!(kept, "mine");
}

#[test]
fn without_output_the_definition_goes_to_standard_output() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir(dir.path().join("vendors")).expect("a directory");
    let vendor = root().join("tests/fixtures/new/stripe-customers.yaml");
    std::fs::copy(&vendor, dir.path().join("vendors/stripe.yaml")).expect("copied");
    let args = [
        "new",
        "--from",
        "vendors/stripe.yaml",
        "--entry",
        "Account",
        "--create",
        "/v1/customers/post",
    ];
    let run = syncdef_in(dir.path(), &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written: Json = serde_json::from_str(&run.stdout).expect("the definition on stdout");
    assert_eq!(written["extends"], "./vendors/stripe.yaml");
    assert!(
        run.stderr.contains("Next: `syncdef lint FILE`"),
        "{}",
        run.stderr
    );
    // `-q` leaves the hint out.
    let quiet = syncdef_in(dir.path(), &[&args[..], &["-q"]].concat());
    assert_eq!(quiet.code, 0, "{}", quiet.stderr);
    assert_eq!(quiet.stdout, run.stdout);
    assert!(!quiet.stderr.contains("Next:"), "{}", quiet.stderr);
    // Written beside another directory, `extends` leads from there.
    std::fs::create_dir(dir.path().join("definitions")).expect("a directory");
    let into = [&args[..], &["-o", "definitions/stripe.json"]].concat();
    let run = syncdef_in(dir.path(), &into);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(dir.path().join("definitions/stripe.json")).expect("read");
    let written: Json = serde_json::from_str(&text).expect("JSON");
    assert_eq!(written["extends"], "../vendors/stripe.yaml");
}

#[test]
fn what_is_not_an_openapi_description_is_refused_at_its_place() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(
        dir.path().join("broken.json"),
        "{\"openapi\": \"3.0.0\",\n  \"paths\": [}\n",
    )
    .expect("written");
    std::fs::write(
        dir.path().join("swagger.yaml"),
        "swagger: '2.0'\npaths: {}\n",
    )
    .expect("written");
    let refuse = |file: &str| {
        let run = syncdef_in(
            dir.path(),
            &[
                "new", "--from", file, "--entry", "Account", "--create", "/a/post",
            ],
        );
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        assert!(run.stdout.is_empty(), "{}", run.stdout);
        run.stderr
    };
    let broken = refuse("broken.json");
    assert!(broken.contains("broken.json:2:"), "{broken}");
    assert!(broken.contains("JSON or YAML"), "{broken}");
    let swagger = refuse("swagger.yaml");
    assert!(swagger.contains("swagger.yaml:1:1"), "{swagger}");
    assert!(swagger.contains("Swagger 2.0"), "{swagger}");
    let missing = refuse("absent.yaml");
    assert!(missing.contains("absent.yaml"), "{missing}");
}
