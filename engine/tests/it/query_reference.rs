//! A reference that fixes a query parameter (QuickBooks deletes with
//! `/customer?operation=delete/post`) is accepted by the linter, planned on the path it names,
//! and sent with its query as a query.

use crate::common;

use std::path::PathBuf;

use serde_json::json;
use syncdef_engine::{Intent, PushStatus, RecordState};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test]
async fn a_quickbooks_delete_goes_to_the_path_with_its_query() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v3/company/123/customer/67"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"Customer": {"Id": "67", "SyncToken": "5"}})),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v3/company/123/customer"))
        .and(query_param("operation", "delete"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"Customer": {"Id": "67", "status": "Deleted"}})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../validator/tests/fixtures/valid_query_delete.yaml");
    let engine = common::connect(common::load_file(&file), &server.uri());
    let state = RecordState::new()
        .with_server_variable("realmId", "123")
        .with_external_id("67")
        .with_intent(Intent::Delete);
    let outcome = engine.push("Customer", &common::account(), &state).await;
    assert_eq!(outcome.status, PushStatus::Deleted, "{:#?}", outcome.error);
    let sent = server.received_requests().await.expect("recorded");
    let delete = sent.last().expect("the delete is sent");
    assert_eq!(delete.url.path(), "/v3/company/123/customer");
    assert_eq!(delete.url.query(), Some("operation=delete"));
    let body: serde_json::Value = serde_json::from_slice(&delete.body).expect("a JSON body");
    assert_eq!(body, json!({"Id": "67", "SyncToken": "5"}));
}
