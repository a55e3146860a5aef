//! Every API call carries the bearer token, `Accept: application/json` and `X-Api-Version`.

use crate::common;

use common::*;
use serde_json::json;
use syncdef_platform::collections;
use syncdef_platform::ids::{AccountId, InvoiceId, SystemId};
use syncdef_platform::query::Query;
use syncdef_platform::{ApiVersion, PatchBuilder};
use wiremock::matchers::method;
use wiremock::{Mock, ResponseTemplate};

#[tokio::test]
async fn every_call_sends_the_three_headers() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"id": 1}])))
        .mount(&server)
        .await;
    Mock::given(method("PATCH"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let invoice: InvoiceId = "3f2b1c4d-0000-4e5f-8a9b-0123456789ab"
        .parse()
        .expect("guid");

    client.account(AccountId(1)).await.expect("record");
    client.invoice_items(&invoice).await.expect("items");
    client
        .account_sync_options(AccountId(1), &SystemId::from("QBO"))
        .await
        .expect("sync options");
    client
        .list_all(&Query::new(&collections::ACCOUNTS))
        .await
        .expect("list");
    client
        .patch_account(
            AccountId(1),
            &PatchBuilder::new().remove("creditLimit").build(),
        )
        .await
        .expect("patch");

    let requests = api_requests(&server).await;
    assert_eq!(requests.len(), 5);
    for request in requests {
        let header = |name: &str| {
            request
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let what = format!("{} {}", request.method, request.url);
        assert_eq!(
            header("authorization").as_deref(),
            Some("Bearer token-1"),
            "{what}"
        );
        assert_eq!(
            header("accept").as_deref(),
            Some("application/json"),
            "{what}"
        );
        assert_eq!(header("x-api-version").as_deref(), Some("3.0"), "{what}");
    }
}

#[tokio::test]
async fn the_version_is_configurable() {
    let server = wiremock::MockServer::start().await;
    mount_token(&server, "token-1").await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 1})))
        .mount(&server)
        .await;
    let client = builder(&server)
        .api_version(ApiVersion::parse("2.2").expect("version"))
        .build()
        .expect("client");

    client.account(AccountId(1)).await.expect("record");
    let requests = api_requests(&server).await;
    assert_eq!(
        requests[0]
            .headers
            .get("x-api-version")
            .and_then(|v| v.to_str().ok()),
        Some("2.2")
    );
}
