//! Pulls against a real HTTP server on loopback (wiremock): `batchRead` page by page with each
//! paging style, `read` of one record, and what a hostile or broken answer does.

use crate::common;

use serde_json::json;
use syncdef_engine::{ErrorClass, PagePosition, PageRequest, PullPage};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn customer(id: u32) -> serde_json::Value {
    json!({"Id": id.to_string(), "DisplayName": format!("Customer {id}"), "PrimaryPhone": {"FreeFormNumber": "+1 555 0100"}})
}

fn names(page: &PullPage) -> Vec<(String, String)> {
    page.records
        .iter()
        .map(|r| {
            let account = r.record.get("account").expect("rooted");
            let name = account
                .get("name")
                .and_then(|n| n.as_str())
                .unwrap_or_default();
            (r.external_id.clone(), name.to_owned())
        })
        .collect()
}

/// Mounts the query page starting at `position` with `ids`.
async fn page_at(server: &MockServer, position: u32, ids: &[u32]) {
    let query = format!(
        "select * from Customer where Metadata.LastUpdatedTime >= '2026-01-01T00:00:00Z' startposition {position} maxresults 2"
    );
    let mut response =
        json!({"QueryResponse": {"startPosition": position, "maxResults": ids.len()}});
    if !ids.is_empty() {
        response["QueryResponse"]["Customer"] = ids.iter().map(|&i| customer(i)).collect();
    }
    Mock::given(method("GET"))
        .and(path("/v3/company/777/query"))
        .and(query_param("query", query.as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(response))
        .expect(1)
        .mount(server)
        .await;
}

fn request(position: PagePosition) -> PageRequest {
    PageRequest {
        position,
        since: Some("2026-01-01T00:00:00Z".into()),
        server_variables: [("realmId".to_owned(), "777".to_owned())].into(),
    }
}

#[tokio::test]
async fn batch_read_pages_by_offset_until_a_short_page() {
    let server = MockServer::start().await;
    page_at(&server, 1, &[1, 2]).await;
    page_at(&server, 3, &[3, 4]).await;
    page_at(&server, 5, &[5]).await;
    let engine = common::connected("pull.yaml", &server.uri());
    let mut position = PagePosition::First;
    let mut read = Vec::new();
    for _ in 0..10 {
        let page = engine
            .pull_page("Customer", &request(position.clone()))
            .await;
        assert!(page.error.is_none(), "{:?}", page.error);
        assert!(page.rejected.is_empty(), "{:?}", page.rejected);
        read.extend(names(&page));
        match page.next {
            Some(next) => position = next,
            None => break,
        }
    }
    assert_eq!(
        read,
        (1..=5)
            .map(|i| (i.to_string(), format!("Customer {i}")))
            .collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn an_empty_answer_is_the_last_page_without_records() {
    let server = MockServer::start().await;
    page_at(&server, 1, &[1, 2]).await;
    page_at(&server, 3, &[]).await;
    let engine = common::connected("pull.yaml", &server.uri());
    let first = engine
        .pull_page("Customer", &request(PagePosition::First))
        .await;
    assert_eq!(first.next, Some(PagePosition::Offset(2)));
    let second = engine
        .pull_page("Customer", &request(PagePosition::Offset(2)))
        .await;
    assert!(second.error.is_none(), "{:?}", second.error);
    assert!(second.records.is_empty());
    assert_eq!(second.next, None);
}

#[tokio::test]
async fn a_record_the_template_cannot_identify_is_set_apart_not_lost_silently() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v3/company/777/query"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "QueryResponse": {"Customer": [customer(1), {"DisplayName": "no id"}]}
        })))
        .mount(&server)
        .await;
    let engine = common::connected("pull.yaml", &server.uri());
    let page = engine
        .pull_page("Customer", &request(PagePosition::First))
        .await;
    assert_eq!(names(&page), [("1".to_owned(), "Customer 1".to_owned())]);
    assert_eq!(page.rejected.len(), 1);
    assert_eq!(page.rejected[0].index, 1);
    assert!(
        page.rejected[0].reason.contains("integrationId"),
        "{}",
        page.rejected[0].reason
    );
    // Two records came, the page size: the next page is asked for.
    assert_eq!(page.next, Some(PagePosition::Offset(2)));
}

#[tokio::test]
async fn read_gets_one_record_by_its_external_id() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v3/company/777/customer/58"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"Customer": customer(58)})))
        .expect(1)
        .mount(&server)
        .await;
    let engine = common::connected("pull.yaml", &server.uri());
    let variables = [("realmId".to_owned(), "777".to_owned())].into();
    let page = engine.read("Customer", "58", &variables).await;
    assert!(page.error.is_none(), "{:?}", page.error);
    assert_eq!(names(&page), [("58".to_owned(), "Customer 58".to_owned())]);
    assert_eq!(page.next, None);
    assert_eq!(page.exchanges.len(), 1);
    assert!(
        page.exchanges[0]
            .request
            .headers
            .contains(&("authorization".into(), "Bearer ***".into()))
    );
}

#[tokio::test]
async fn a_read_answered_with_another_record_is_not_taken_for_it() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v3/company/777/customer/58"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"Customer": customer(59)})))
        .mount(&server)
        .await;
    let engine = common::connected("pull.yaml", &server.uri());
    let variables = [("realmId".to_owned(), "777".to_owned())].into();
    let page = engine.read("Customer", "58", &variables).await;
    assert!(page.records.is_empty());
    assert!(
        page.rejected[0].reason.contains("but 58 was asked for"),
        "{}",
        page.rejected[0].reason
    );
}

#[tokio::test]
async fn failures_are_classified_and_secrets_stay_out() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v3/company/777/query"))
        .respond_with(ResponseTemplate::new(401).set_body_string("token access-1 rejected"))
        .mount(&server)
        .await;
    let engine = common::connected("pull.yaml", &server.uri());
    let page = engine
        .pull_page("Customer", &request(PagePosition::First))
        .await;
    let error = page.error.expect("a 401 fails the page");
    assert_eq!(error.class, ErrorClass::Authentication);
    assert!(page.records.is_empty() && page.next.is_none());
    let trail = format!("{:?} {:?}", page.exchanges, error);
    assert!(!trail.contains("access-1"), "{trail}");
}

#[tokio::test]
async fn a_page_that_is_not_json_fails_it() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v3/company/777/query"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>maintenance</html>"))
        .mount(&server)
        .await;
    let engine = common::connected("pull.yaml", &server.uri());
    let page = engine
        .pull_page("Customer", &request(PagePosition::First))
        .await;
    let error = page.error.expect("an unreadable page fails");
    assert!(
        error.message.contains("cannot be read"),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn a_kept_link_to_another_origin_is_not_followed() {
    let server = MockServer::start().await;
    let engine = common::connected("pull.yaml", &server.uri());
    let page = engine
        .pull_page(
            "Customer",
            &request(PagePosition::Link("https://attacker.example.net/x".into())),
        )
        .await;
    let error = page.error.expect("refused");
    assert!(error.message.contains("not followed"), "{}", error.message);
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn an_entry_without_a_pull_says_so() {
    let server = MockServer::start().await;
    let engine = common::connected("quickbooks-online.yaml", &server.uri());
    let page = engine
        .pull_page("Account", &request(PagePosition::First))
        .await;
    let error = page.error.expect("no batchRead");
    assert!(
        error.message.contains("has no `pull.batchRead`"),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn business_central_pages_by_its_next_link_and_filters_by_change_time() {
    let server = MockServer::start().await;
    let customer = |id: &str, name: &str| json!({"@odata.etag": "W/\"1\"", "id": id, "number": "C1", "displayName": name});
    let next = format!("{}/customers?$filter=x&$skiptoken=2", server.uri());
    Mock::given(method("GET"))
        .and(path("/customers"))
        .and(query_param(
            "$filter",
            "lastModifiedDateTime gt 2026-01-01T00:00:00Z",
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "value": [customer("a1", "Acme"), customer("b2", "Beta")],
            "@odata.nextLink": next,
        })))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/customers"))
        .and(query_param("$skiptoken", "2"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"value": [customer("c3", "Gamma")]})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let definition = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../catalog/business-central/definition.yaml");
    let engine = common::connect(common::load_file(&definition), &server.uri());
    let mut request = PageRequest {
        since: Some("2026-01-01T00:00:00Z".into()),
        ..PageRequest::default()
    };
    let mut read = Vec::new();
    loop {
        let page = engine.pull_page("Account", &request).await;
        assert!(page.error.is_none(), "{:?}", page.error);
        read.extend(names(&page));
        match page.next {
            Some(next) => request.position = next,
            None => break,
        }
    }
    let ids: Vec<&str> = read.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["a1", "b2", "c3"]);
}
