//! Collections: the paging envelope followed to the end, plain arrays, and the guards.

use crate::common;

use common::*;
use futures::TryStreamExt;
use serde_json::{Value, json};
use syncdef_platform::collections;
use syncdef_platform::query::{Direction, Filter, Query};
use syncdef_platform::{ApiVersion, PlatformError};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn envelope(
    server: &MockServer,
    ids: &[i64],
    page: u64,
    page_count: u64,
    next: Option<u64>,
) -> Value {
    let link = |page: u64| {
        json!({
            "uri": format!("{}/api/accounts?page={page}&size=2", server.uri()),
            "method": "GET",
            "headers": {"x-Api-Version": "3.0"}
        })
    };
    json!({
        "data": ids.iter().map(|id| json!({"id": id})).collect::<Vec<_>>(),
        "paging": {"page": page, "size": 2, "offset": (page - 1) * 2, "totalCount": 5, "pageCount": page_count},
        "links": {
            "self": link(page),
            "first": link(1),
            "next": next.map_or(Value::Null, link),
            "previous": Value::Null,
        }
    })
}

async fn mount_page(server: &MockServer, page: u64, body: Value) {
    Mock::given(method("GET"))
        .and(path("/api/accounts"))
        .and(query_param("page", page.to_string().as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .expect(1)
        .mount(server)
        .await;
}

fn ids(records: &[Value]) -> Vec<i64> {
    records.iter().filter_map(|r| r["id"].as_i64()).collect()
}

#[tokio::test]
async fn envelope_pages_are_followed_to_the_end() {
    let (server, client) = server_and_client().await;
    mount_page(&server, 1, envelope(&server, &[1, 2], 1, 3, Some(2))).await;
    mount_page(&server, 2, envelope(&server, &[3, 4], 2, 3, Some(3))).await;
    mount_page(&server, 3, envelope(&server, &[5], 3, 3, None)).await;

    let query = Query::new(&collections::ACCOUNTS).page_size(2);
    let records: Vec<Value> = client
        .list(&query)
        .expect("query")
        .try_collect()
        .await
        .expect("records");
    assert_eq!(ids(&records), vec![1, 2, 3, 4, 5]);

    let first = &api_requests(&server).await[0];
    assert_eq!(first.url.query(), Some("page=1&size=2"));
}

#[tokio::test]
async fn pages_report_their_numbers() {
    let (server, client) = server_and_client().await;
    mount_page(&server, 1, envelope(&server, &[1, 2], 1, 2, Some(2))).await;
    mount_page(&server, 2, envelope(&server, &[3], 2, 2, None)).await;

    let pages: Vec<_> = client
        .pages(&Query::new(&collections::ACCOUNTS).page_size(2))
        .expect("query")
        .try_collect()
        .await
        .expect("pages");
    assert_eq!(pages.len(), 2);
    let info = pages[1].info.expect("envelope numbers");
    assert_eq!(
        (info.page, info.page_count, info.total_count),
        (Some(2), Some(2), Some(5))
    );
}

#[tokio::test]
async fn a_plain_array_is_the_whole_result() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .and(path("/api/accounts"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!([{"id": 1}, {"id": 2}, {"id": 3}])),
        )
        .expect(1)
        .mount(&server)
        .await;

    let records = client
        .list_all(&Query::new(&collections::ACCOUNTS))
        .await
        .expect("records");
    assert_eq!(ids(&records), vec![1, 2, 3]);
}

#[tokio::test]
async fn without_links_the_page_count_drives_paging() {
    let (server, client) = server_and_client().await;
    let page = |ids: &[i64], page: u64| {
        json!({
            "data": ids.iter().map(|id| json!({"id": id})).collect::<Vec<_>>(),
            "paging": {"page": page, "size": 2, "pageCount": 2}
        })
    };
    mount_page(&server, 1, page(&[1, 2], 1)).await;
    mount_page(&server, 2, page(&[3], 2)).await;

    let records = client
        .list_all(&Query::new(&collections::ACCOUNTS).page_size(2))
        .await
        .expect("records");
    assert_eq!(ids(&records), vec![1, 2, 3]);
}

#[tokio::test]
async fn a_repeated_next_link_stops_with_an_error_after_the_records_read() {
    let (server, client) = server_and_client().await;
    mount_page(&server, 1, envelope(&server, &[1, 2], 1, 3, Some(2))).await;
    // Page 2 links back to page 1.
    mount_page(&server, 2, envelope(&server, &[3, 4], 2, 3, Some(1))).await;

    let mut stream = client
        .list(&Query::new(&collections::ACCOUNTS).page_size(2))
        .expect("query");
    let mut seen = Vec::new();
    let error = loop {
        match stream.try_next().await {
            Ok(Some(record)) => seen.push(record),
            Ok(None) => panic!("expected a paging error"),
            Err(error) => break error,
        }
    };
    assert_eq!(ids(&seen), vec![1, 2, 3, 4]);
    assert!(matches!(error, PlatformError::Paging { .. }), "{error:?}");
    assert!(error.to_string().contains("already read"), "{error}");
    assert!(stream.try_next().await.expect("ended").is_none());
}

#[tokio::test]
async fn the_page_cap_stops_endless_collections() {
    let server = MockServer::start().await;
    mount_token(&server, "token-1").await;
    mount_page(&server, 1, envelope(&server, &[1, 2], 1, 3, Some(2))).await;
    mount_page(&server, 2, envelope(&server, &[3, 4], 2, 3, Some(3))).await;
    let client = builder(&server).max_pages(2).build().expect("client");

    let error = client
        .list_all(&Query::new(&collections::ACCOUNTS).page_size(2))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("raise max_pages"), "{error}");
}

#[tokio::test]
async fn a_next_link_to_another_host_is_refused() {
    let (server, client) = server_and_client().await;
    mount_page(
        &server,
        1,
        json!({
            "data": [{"id": 1}],
            "links": {"next": {"uri": "https://elsewhere.example/api/accounts?page=2"}}
        }),
    )
    .await;

    let error = client
        .list_all(&Query::new(&collections::ACCOUNTS).page_size(1))
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("refusing to send the access token there"),
        "{error}"
    );
}

#[tokio::test]
async fn version_1_asks_for_everything_at_once() {
    let server = MockServer::start().await;
    mount_token(&server, "token-1").await;
    Mock::given(method("GET"))
        .and(path("/api/accounts"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"id": 1}])))
        .expect(1)
        .mount(&server)
        .await;
    let client = builder(&server)
        .api_version(ApiVersion::parse("1").expect("version"))
        .build()
        .expect("client");

    let records = client
        .list_all(&Query::new(&collections::ACCOUNTS).page_size(50))
        .await
        .expect("records");
    assert_eq!(ids(&records), vec![1]);
    let request = &api_requests(&server).await[0];
    assert_eq!(
        request.url.query(),
        None,
        "no page/size without an envelope"
    );
}

#[tokio::test]
async fn filter_and_order_reach_the_platform_escaped() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .and(path("/api/accounts"))
        .and(query_param(
            "$filter",
            "name eq 'R&D + Co' and creditLimit gt 10.5",
        ))
        .and(query_param("$orderby", "updatedAt asc,name desc"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&server)
        .await;

    let query = Query::new(&collections::ACCOUNTS)
        .filter(Filter::eq("name", "R&D + Co"))
        .filter(Filter::gt("creditLimit", 10.5))
        .order_by("updatedAt", Direction::Asc)
        .order_by("name", Direction::Desc);
    let records = client.list_all(&query).await.expect("records");
    assert!(records.is_empty());
    let raw = api_requests(&server).await[0]
        .url
        .query()
        .map(str::to_owned);
    assert_eq!(
        raw.as_deref(),
        Some(
            "$filter=name%20eq%20%27R%26D%20%2B%20Co%27%20and%20creditLimit%20gt%2010.5&$orderby=updatedAt%20asc%2Cname%20desc"
        )
    );
}

#[tokio::test]
async fn an_invalid_query_sends_nothing() {
    let (server, client) = server_and_client().await;
    let query = Query::new(&collections::ACCOUNTS).filter(Filter::eq("nmae", "Acme"));
    let error = client.list(&query).err().expect("refused");
    assert!(
        error.to_string().contains("did you mean `name`?"),
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

#[tokio::test]
async fn an_object_that_is_not_an_envelope_is_a_decode_error() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"items": []})))
        .mount(&server)
        .await;
    let error = client
        .list_all(&Query::new(&collections::ACCOUNTS))
        .await
        .unwrap_err();
    assert!(matches!(error, PlatformError::Decode { .. }), "{error:?}");
    assert!(error.to_string().contains("`items`"), "{error}");
}
