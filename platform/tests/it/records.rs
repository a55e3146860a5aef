//! Single records, child collections, sync options, the null/empty answers, JSON Patch.

use crate::common;

use common::*;
use serde_json::json;
use syncdef_platform::ids::{
    AccountId, InstallmentPlanId, InvoiceId, OrderId, OrderItemId, RecordId, SubscriptionId,
    SystemId,
};
use syncdef_platform::{Patch, PatchBuilder, PlatformError, collections};
use wiremock::matchers::{body_json, header, method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

const INVOICE: &str = "3f2b1c4d-0000-4e5f-8a9b-0123456789ab";
const ORDER: &str = "0a1b2c3d-1111-4e5f-8a9b-0123456789ab";

fn ok(body: serde_json::Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(body)
}

#[tokio::test]
async fn single_records_and_their_ids() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .and(path("/api/accounts/42"))
        .respond_with(ok(json!({"id": 42, "name": "Acme"})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/api/invoices/{INVOICE}")))
        .respond_with(ok(json!({"id": INVOICE, "account": {"id": 42}})))
        .mount(&server)
        .await;

    let account = client.account(AccountId(42)).await.expect("account");
    assert_eq!(AccountId::from_record(&account), Ok(AccountId(42)));
    let invoice_id: InvoiceId = INVOICE.parse().expect("guid");
    let invoice = client.invoice(&invoice_id).await.expect("invoice");
    assert_eq!(InvoiceId::from_record(&invoice), Ok(invoice_id));
}

#[tokio::test]
async fn any_main_collection_reads_one_record() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .and(path("/api/contacts/9"))
        .respond_with(ok(json!({"id": 9, "firstName": "Ann"})))
        .expect(1)
        .mount(&server)
        .await;

    let contact = client
        .record(&collections::CONTACTS, &AccountId(9))
        .await
        .expect("contact");
    assert_eq!(contact["firstName"], "Ann");
    let error = client
        .record(&collections::PRICELIST_ITEMS, &AccountId(1))
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("no single-record route"),
        "{error}"
    );
}

#[tokio::test]
async fn child_collections_in_either_shape() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .and(path(format!("/api/invoices/{INVOICE}/items")))
        .respond_with(ok(
            json!([{"id": 1, "orderItemId": 7}, {"id": 2, "orderItemId": 8}]),
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/api/orders/{ORDER}/items")))
        .respond_with(ok(
            json!({"data": [{"id": 7, "isBundle": false}], "links": {"next": null}}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/api/orders/{ORDER}/items/7")))
        .respond_with(ok(json!({"id": 7, "isBundle": true})))
        .mount(&server)
        .await;

    let invoice: InvoiceId = INVOICE.parse().expect("guid");
    let items = client.invoice_items(&invoice).await.expect("invoice items");
    assert_eq!(items.len(), 2);
    let order: OrderId = ORDER.parse().expect("guid");
    let items = client.order_items(&order).await.expect("order items");
    assert_eq!(items, vec![json!({"id": 7, "isBundle": false})]);
    let item = client
        .order_item(&order, &OrderItemId::from("7"))
        .await
        .expect("order item");
    assert_eq!(item["isBundle"], true);
}

#[tokio::test]
async fn sync_options_path_escapes_the_system_id() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .and(path("/api/accounts/5/syncoptions/QBO%2Fprod"))
        .respond_with(ok(json!({"integrationId": "67"})))
        .expect(1)
        .mount(&server)
        .await;

    let options = client
        .account_sync_options(AccountId(5), &SystemId::from("QBO/prod"))
        .await
        .expect("options");
    assert_eq!(options, Some(json!({"integrationId": "67"})));
}

#[tokio::test]
async fn null_and_empty_answers_are_values() {
    let (server, client) = server_and_client().await;
    let sub = "5a5a5a5a-0000-4e5f-8a9b-0123456789ab";
    Mock::given(method("GET"))
        .and(path(format!(
            "/api/subscriptions/{sub}/currentInstallmentplan"
        )))
        .respond_with(ok(serde_json::Value::Null))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/api/subscriptions/{sub}/installmentplans")))
        .respond_with(ok(json!([])))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/installmentplans/p1/installments"))
        .respond_with(ok(serde_json::Value::Null))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/accounts/5/orderingpricelist"))
        .and(query_param("productId", "p 1"))
        .respond_with(ResponseTemplate::new(200))
        .mount(&server)
        .await;

    let sub: SubscriptionId = sub.parse().expect("guid");
    assert_eq!(
        client.current_installment_plan(&sub).await.expect("plan"),
        None
    );
    assert!(
        client
            .installment_plans(&sub)
            .await
            .expect("plans")
            .is_empty()
    );
    assert!(
        client
            .installments(&InstallmentPlanId::from("p1"))
            .await
            .expect("installments")
            .is_empty()
    );
    assert_eq!(
        client
            .ordering_price_list(AccountId(5), &[("productId", "p 1")])
            .await
            .expect("price list"),
        None
    );
}

#[tokio::test]
async fn a_null_single_record_is_an_error() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .respond_with(ok(serde_json::Value::Null))
        .mount(&server)
        .await;
    let error = client.account(AccountId(1)).await.unwrap_err();
    assert!(error.to_string().contains("expected a record"), "{error}");
}

#[tokio::test]
async fn patch_sends_a_json_patch_document() {
    let (server, client) = server_and_client().await;
    let expected = json!([
        {"op": "replace", "path": "/name", "value": "Acme Ltd"},
        {"op": "add", "path": "/orderingEnabled", "value": true},
        {"op": "remove", "path": "/creditLimit"}
    ]);
    Mock::given(method("PATCH"))
        .and(path("/api/accounts/42"))
        .and(header("content-type", "application/json-patch+json"))
        .and(body_json(&expected))
        .respond_with(ok(json!({"id": 42, "name": "Acme Ltd", "creditLimit": 0})))
        .expect(1)
        .mount(&server)
        .await;

    let patch = PatchBuilder::new()
        .replace("name", json!("Acme Ltd"))
        .add("orderingEnabled", json!(true))
        .remove("creditLimit")
        .build();
    let answer = client
        .patch_account(AccountId(42), &patch)
        .await
        .expect("patched");
    assert_eq!(answer.map(|a| a["creditLimit"].clone()), Some(json!(0)));
}

#[tokio::test]
async fn patch_with_an_empty_answer_returns_none() {
    let (server, client) = server_and_client().await;
    Mock::given(method("PATCH"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let patch = PatchBuilder::new().replace("name", json!("x")).build();
    assert_eq!(
        client
            .patch_account(AccountId(1), &patch)
            .await
            .expect("patched"),
        None
    );
}

#[tokio::test]
async fn unsupported_patch_operations_are_refused_before_sending() {
    let (server, client) = server_and_client().await;
    let patch: Patch = serde_json::from_value(json!([
        {"op": "copy", "from": "/name", "path": "/tradingName"}
    ]))
    .expect("patch");

    let error = client
        .patch_account(AccountId(1), &patch)
        .await
        .unwrap_err();
    assert!(matches!(error, PlatformError::Patch(_)), "{error:?}");
    assert!(
        error.to_string().contains("only add, replace and remove"),
        "{error}"
    );
    assert!(
        server
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
}
