//! Pushes against a real HTTP server on loopback (wiremock): create, update with body and
//! header pre-actions, post-action order, `success: false`, related-entry placeholders.

use crate::common;

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::json;
use syncdef_engine::{EngineError, ErrorClass, PushStatus, RecordState, SyncRequest, Synchronizer};
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test]
async fn quickbooks_create_extracts_the_id() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v3/company/4620816365/customer"))
        .and(header("authorization", "Bearer access-1"))
        .and(header("content-type", "application/json"))
        .and(header("accept", "application/json"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"Customer": {"Id": "67", "SyncToken": "0", "DisplayName": "Acme Ltd"}, "time": "2024-03-01T10:00:00-07:00"}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    let engine = common::connected("quickbooks-online.yaml", &server.uri());
    let state = RecordState::new().with_server_variable("realmId", "4620816365");
    let outcome = engine.push("Account", &common::account(), &state).await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id(), Some("67"));
    assert_eq!(outcome.external_id_number, Some(67));
    let sent = &server.received_requests().await.unwrap()[0];
    let body: serde_json::Value = serde_json::from_slice(&sent.body).unwrap();
    assert_eq!(body["DisplayName"], "Acme Ltd");
    assert_eq!(body["BillAddr"]["City"], "Springfield");
    assert_eq!(body["CurrencyRef"]["value"], "USD");
    // The audit trail has the exchange with the token masked.
    assert_eq!(outcome.exchanges.len(), 1);
    let recorded = &outcome.exchanges[0].request;
    assert!(
        recorded
            .headers
            .contains(&("authorization".into(), "Bearer ***".into()))
    );
    assert!(
        !serde_json::to_string(&outcome)
            .unwrap()
            .contains("access-1")
    );
}

#[tokio::test]
async fn quickbooks_update_sends_the_sync_token_read_by_the_pre_action() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v3/company/1234567890/customer/67"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"Customer": {"Id": "67", "SyncToken": "3"}})),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v3/company/1234567890/customer"))
        .and(body_json(json!({
            "Id": "67", "SyncToken": "3", "sparse": true,
            "DisplayName": "Acme Ltd", "CompanyName": "Acme Ltd",
            "PrimaryPhone": {"FreeFormNumber": "+1 555 0100"},
            "PrimaryEmailAddr": {"Address": "billing@acme.test"},
            "WebAddr": {"URI": "https://acme.test"}, "Taxable": true
        })))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"Customer": {"Id": "67", "SyncToken": "4"}})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let engine = common::connected("quickbooks-online.yaml", &server.uri());
    let state = RecordState::new().with_external_id("67");
    let outcome = engine.push("Account", &common::account(), &state).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id(), Some("67"));
    let steps: Vec<&str> = outcome.exchanges.iter().map(|e| &*e.step).collect();
    assert_eq!(steps, ["SyncToken", "update"]);
}

#[tokio::test]
async fn business_central_update_sends_the_etag_in_body_and_if_match() {
    let server = MockServer::start().await;
    let etag = "W/\"JzQ0O0VnQUFBQUo3QlRFQU1BQXdBREFBTVFBQUFBQUE5OzE3MjU2NDE1OTA7Jw==\"";
    let invoice_path = "/v2.0/common/production/ODataV4/Company('CRONUS%20USA%2C%20Inc.')/SalesInvoice(No='103001',Document_Type='Invoice')";
    Mock::given(method("GET"))
        .and(path(invoice_path))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("ETag", etag)
                .set_body_json(json!({"@odata.etag": etag, "No": "103001"})),
        )
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path(invoice_path))
        .and(header("if-match", etag))
        .and(body_json(json!({"ETag": etag, "No": "103001", "Document_Type": "Invoice", "Due_Date": "2024-03-31"})))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"No": "103001"})))
        .expect(1)
        .mount(&server)
        .await;
    for action in ["Microsoft.NAV.Release", "Microsoft.NAV.Post"] {
        Mock::given(method("POST"))
            .and(path(format!("{invoice_path}/{action}")))
            .respond_with(ResponseTemplate::new(204))
            .expect(1)
            .mount(&server)
            .await;
    }
    // The server URL is replaced by the mock's, keeping the definition's path part.
    let base = format!(
        "{}/v2.0/common/production/ODataV4/Company('CRONUS%20USA%2C%20Inc.')",
        server.uri()
    );
    let engine = common::connected("business-central.yaml", &base);
    let state = RecordState::new().with_external_id("103001");
    let outcome = engine.push("Invoice", &common::invoice(), &state).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    let steps: Vec<&str> = outcome.exchanges.iter().map(|e| &*e.step).collect();
    assert_eq!(steps, ["ETag", "HeaderETag", "update", "Release", "Post"]);
}

#[tokio::test]
async fn business_central_server_variables_are_encoded_in_the_path() {
    let engine = common::engine("business-central.yaml");
    let transport = Arc::new(syncdef_engine::RecordingTransport::synthesizing());
    let engine = engine.with_transport(transport.clone());
    let state = RecordState::new().with_external_id("10/3'1");
    let outcome = engine.push("Invoice", &common::invoice(), &state).await;
    assert!(outcome.is_success(), "{:#?}", outcome.error);
    let urls: Vec<String> = transport
        .requests()
        .iter()
        .map(|r| r.url.to_string())
        .collect();
    assert_eq!(
        urls[0],
        "https://api.businesscentral.dynamics.com/v2.0/common/production/ODataV4/Company('CRONUS%20USA%2C%20Inc.')/SalesInvoice(No='10%2F3%27%271',Document_Type='Invoice')"
    );
}

#[tokio::test]
async fn post_actions_run_in_order_after_a_create_with_the_new_id() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"id": 501, "errors": [], "success": true})),
        )
        .mount(&server)
        .await;
    for step in ["notify", "audit"] {
        Mock::given(method("POST"))
            .and(path(format!("/accounts/501/{step}")))
            .respond_with(ResponseTemplate::new(204))
            .expect(1)
            .mount(&server)
            .await;
    }
    let engine = common::connected("generic.yaml", &server.uri());
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id(), Some("501"));
    let paths: Vec<String> = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect();
    assert_eq!(
        paths,
        ["/accounts", "/accounts/501/notify", "/accounts/501/audit"]
    );
}

#[tokio::test]
async fn a_failing_post_action_keeps_the_created_id() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 8, "success": true})))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/accounts/8/notify"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    let engine = common::connected("generic.yaml", &server.uri()).with_retry_policy(
        syncdef_engine::RetryPolicy {
            initial_backoff: std::time::Duration::ZERO,
            ..syncdef_engine::RetryPolicy::default()
        },
    );
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created);
    assert_eq!(outcome.external_id(), Some("8"));
    let error = outcome.post_action_error.expect("the post-action failed");
    assert_eq!(
        (error.class, error.step.as_deref()),
        (ErrorClass::Transient, Some("Notify"))
    );
    // The 503 was retried (4 attempts in all), then the second post-action did not run.
    assert_eq!(server.received_requests().await.unwrap().len(), 1 + 4);
}

#[tokio::test]
async fn success_false_is_a_failed_push_with_the_external_errors() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"id": null, "success": false, "errors": ["Name already exists", "Email is invalid"]}),
        ))
        .mount(&server)
        .await;
    let engine = common::connected("generic.yaml", &server.uri());
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Failed);
    assert_eq!(outcome.errors, ["Name already exists", "Email is invalid"]);
    let error = outcome.error.expect("an error");
    assert_eq!(error.class, ErrorClass::ExternalValidation);
    assert!(
        error.message.contains("Name already exists"),
        "{}",
        error.message
    );
    // No post-action runs after a failure.
    assert_eq!(server.received_requests().await.unwrap().len(), 1);
}

#[tokio::test]
async fn an_http_error_carries_the_quickbooks_fault() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({"Fault": {"Error": [
            {"Message": "Duplicate Name Exists Error", "Detail": "The name supplied already exists.", "code": "6240"}
        ], "type": "ValidationFault"}})))
        .mount(&server)
        .await;
    let engine = common::connected("quickbooks-online.yaml", &server.uri());
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Failed);
    assert_eq!(
        outcome.errors,
        ["Duplicate Name Exists Error: The name supplied already exists. (code 6240)"]
    );
    assert_eq!(outcome.error.unwrap().class, ErrorClass::ExternalValidation);
}

#[tokio::test]
async fn the_related_entry_placeholder_takes_the_related_id_encoded() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/acme/accounts/C%2F12/invoices"))
        .and(body_json(
            json!({"number": "INV-0007", "dueDate": "2024-03-31"}),
        ))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"id": "900", "success": true})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let engine = common::connected("generic.yaml", &format!("{}/acme", server.uri()));
    let state = RecordState::new().with_related("Account", "C/12");
    let outcome = engine.push("Invoice", &common::invoice(), &state).await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id_number, Some(900));

    // Without the related id the push fails before sending anything, saying what to pass.
    let outcome = engine
        .push("Invoice", &common::invoice(), &RecordState::new())
        .await;
    let error = outcome.error.expect("a configuration error");
    assert_eq!(error.class, ErrorClass::Configuration);
    assert!(
        error.message.contains("--related Account=ID"),
        "{}",
        error.message
    );
}

struct AccountFirst(Mutex<Vec<String>>);

impl Synchronizer for AccountFirst {
    fn synchronize<'a>(
        &'a self,
        request: SyncRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<String>, EngineError>> {
        self.0
            .lock()
            .unwrap()
            .push(format!("{}<-{}", request.target, request.entry));
        Box::pin(async { Ok(Some("77".to_owned())) })
    }
}

#[tokio::test]
async fn api_synchronization_pushes_the_account_first_through_the_callback() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/accounts/77/invoices"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 5, "success": true})))
        .expect(1)
        .mount(&server)
        .await;
    let calls = Arc::new(AccountFirst(Mutex::new(Vec::new())));
    let engine = common::connected("generic.yaml", &server.uri()).with_synchronizer(calls.clone());
    let outcome = engine
        .push("Invoice", &common::invoice(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(*calls.0.lock().unwrap(), ["Account<-Invoice"]);
}

#[tokio::test]
async fn a_cross_host_redirect_is_not_followed() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(307).insert_header("location", "https://evil.example/steal"),
        )
        .mount(&server)
        .await;
    let engine = common::connected("generic.yaml", &server.uri());
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    let error = outcome.error.expect("refused");
    assert_eq!(error.class, ErrorClass::Configuration);
    assert!(
        error.message.contains("https://evil.example/steal"),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn delete_runs_on_request_and_keeps_the_external_id() {
    let server = MockServer::start().await;
    Mock::given(method("DELETE"))
        .and(path("/accounts/501"))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let engine = common::connected("generic.yaml", &server.uri());
    let state = RecordState::new()
        .with_external_id("501")
        .with_intent(syncdef_engine::Intent::Delete);
    let outcome = engine.push("Account", &common::account(), &state).await;
    assert_eq!(outcome.status, PushStatus::Deleted, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id(), Some("501"));
    // A delete without an external id is refused before anything is sent.
    let state = RecordState::new().with_intent(syncdef_engine::Intent::Delete);
    let outcome = engine.push("Account", &common::account(), &state).await;
    assert_eq!(
        outcome.error.map(|e| e.class),
        Some(ErrorClass::Configuration)
    );
    assert!(outcome.exchanges.is_empty());
}

/// A create's URL is built once per server: copies of one engine sent to other servers, and
/// pushes with their own server variables, must each still reach their own URL.
#[tokio::test]
async fn each_engine_copy_and_server_variable_reaches_its_own_url() {
    let answer = ResponseTemplate::new(200).set_body_json(json!({"Customer": {"Id": "67"}}));
    let (first, second) = (MockServer::start().await, MockServer::start().await);
    for (server, realm, times) in [
        (&first, "1234567890", 2),
        (&first, "555", 1),
        (&second, "1234567890", 2),
    ] {
        Mock::given(method("POST"))
            .and(path(format!("/v3/company/{realm}/customer")))
            .respond_with(answer.clone())
            .expect(times)
            .mount(server)
            .await;
    }
    let engine = common::connected("quickbooks-online.yaml", &first.uri());
    let copy = engine.with_base_url(url::Url::parse(&second.uri()).unwrap());
    let default = RecordState::new();
    let other_realm = RecordState::new().with_server_variable("realmId", "555");
    for (engine, state) in [
        (&engine, &default),
        (&copy, &default),
        (&engine, &other_realm),
        (&engine, &default),
        (&copy, &default),
    ] {
        let outcome = engine.push("Account", &common::account(), state).await;
        assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    }
    // Each mock's `expect` is checked when its server drops.
}

/// The QuickBooks definition written as OpenAPI 3.1: `type` lists instead of `nullable`,
/// `examples` arrays.
fn quickbooks_31() -> String {
    let text = std::fs::read_to_string(common::fixture("quickbooks-online.yaml"))
        .expect("the fixture reads");
    let text = text
        .replacen("openapi: 3.0.3", "openapi: 3.1.0", 1)
        .replace(
            "{type: string, maxLength: 500, nullable: true}",
            "{type: [string, 'null'], maxLength: 500}",
        )
        .replacen(
            "        DisplayName:\n          type: string\n          maxLength: 500\n",
            "        DisplayName:\n          type: [string, 'null']\n          maxLength: 20\n          examples: [Acme]\n",
            1,
        );
    assert!(
        text.contains("maxLength: 20\n          examples"),
        "the fixture changed"
    );
    text
}

#[tokio::test]
async fn an_openapi_31_definition_pushes_and_checks_its_bodies() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v3/company/4620816365/customer"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"Customer": {"Id": "68", "SyncToken": "0"}})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let engine = common::connect(common::load("qbo-31.yaml", quickbooks_31()), &server.uri());
    let state = RecordState::new().with_server_variable("realmId", "4620816365");
    let outcome = engine.push("Account", &common::account(), &state).await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id(), Some("68"));

    // A name longer than the 3.1 schema's `maxLength` is refused before anything is sent.
    let long = common::account()
        .to_json_compact()
        .replace("Acme Ltd", "A name longer than twenty characters");
    let long = common::json(&long);
    let outcome = engine.push("Account", &long, &state).await;
    assert_eq!(outcome.status, PushStatus::Failed, "{outcome:#?}");
    let error = outcome.error.as_ref().expect("an error");
    assert!(error.message.contains("DisplayName"), "{}", error.message);
    assert_eq!(server.received_requests().await.map_or(0, |r| r.len()), 1);
}
