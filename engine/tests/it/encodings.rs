//! Request bodies written in the media type the operation declares: a Stripe-like form create
//! received byte for byte, a multipart upload, JSON with a charset parameter, and the choice
//! among several declared media types (JSON unless `x-syncdef.requestMediaType` says
//! otherwise). A body the media type cannot hold is refused before it is sent:
//! `refusals.rs` (SD815).

use crate::common;

use serde_json::json;
use syncdef_engine::{PushStatus, RecordState};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

/// A server answering every POST with a customer, and the engine of the fixture sending there.
async fn stripe_like() -> (MockServer, syncdef_engine::Engine) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "901"})))
        .mount(&server)
        .await;
    let engine = common::connected("stripe-like.yaml", &server.uri());
    (server, engine)
}

/// The one request the server received at `at`.
async fn received(server: &MockServer, at: &str) -> Request {
    let all = server.received_requests().await.expect("recorded");
    let mut matching: Vec<Request> = all.into_iter().filter(|r| r.url.path() == at).collect();
    assert_eq!(matching.len(), 1, "one request to {at}");
    matching.remove(0)
}

fn content_type(request: &Request) -> &str {
    request
        .headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .expect("a content type")
}

#[tokio::test]
async fn a_form_create_is_written_with_brackets_byte_for_byte() {
    let (server, engine) = stripe_like().await;
    let outcome = engine
        .push("Customer", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    let create = received(&server, "/v1/customers").await;
    assert_eq!(content_type(&create), "application/x-www-form-urlencoded");
    // `fax` is null: nothing is written for it. Brackets are percent-encoded, as every form
    // serializer writes them; a space is `+`.
    assert_eq!(
        std::str::from_utf8(&create.body).expect("text"),
        "email=billing%40acme.test&name=Acme+Ltd&tax_exempt=true\
         &metadata%5Bplatform%5D=Acme+Ltd\
         &preferred_locales%5B0%5D=en&preferred_locales%5B1%5D=fr\
         &tax_id_data%5B0%5D%5Btype%5D=eu_vat&tax_id_data%5B0%5D%5Bvalue%5D=%2B1+555+0100"
    );
    // The audit trail shows the value the form was written from, as JSON.
    let shown = outcome.exchanges[0].request.body.json();
    assert_eq!(
        shown["metadata"],
        json!({"platform": "Acme Ltd", "fax": null})
    );
}

#[tokio::test]
async fn json_is_chosen_where_several_media_types_are_declared() {
    let (server, engine) = stripe_like().await;
    let state = RecordState::new().with_external_id("cus_1");
    let outcome = engine.push("Customer", &common::account(), &state).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    let update = received(&server, "/v1/customers/cus_1").await;
    assert_eq!(content_type(&update), "application/json");
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&update.body).expect("JSON"),
        json!({"name": "Acme Ltd", "tax_exempt": true})
    );
}

#[tokio::test]
async fn the_definition_chooses_the_form_among_them() {
    let (server, engine) = stripe_like().await;
    let state = RecordState::new().with_external_id("cus_1");
    let outcome = engine
        .push("FormCustomer", &common::account(), &state)
        .await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    let update = received(&server, "/v1/customers/cus_1").await;
    assert_eq!(content_type(&update), "application/x-www-form-urlencoded");
    assert_eq!(&update.body[..], b"name=Acme+Ltd&tax_exempt=true");
}

#[tokio::test]
async fn a_multipart_upload_has_a_part_per_member() {
    let (server, engine) = stripe_like().await;
    let outcome = engine
        .push("File", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    let upload = received(&server, "/v1/files").await;
    let content_type = content_type(&upload);
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .expect("a multipart content type with its boundary");
    let part = |name: &str, head: &str, value: &str| {
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n{head}\r\n{value}\r\n"
        )
    };
    let expected = [
        part("purpose", "", "account_requirement"),
        part("title", "", "Acme Ltd"),
        part("tags", "", "billing"),
        part("tags", "", "billing@acme.test"),
        part(
            "link_data",
            "Content-Type: application/json\r\n",
            r#"{"create":true}"#,
        ),
        format!("--{boundary}--\r\n"),
    ]
    .concat();
    assert_eq!(std::str::from_utf8(&upload.body).expect("text"), expected);
    // The same record gives the same bytes: the boundary comes from the parts.
    let again = engine
        .push("File", &common::account(), &RecordState::new())
        .await;
    assert_eq!(again.status, PushStatus::Created);
    let all = server.received_requests().await.expect("recorded");
    assert_eq!(all.last().expect("the second upload").body, upload.body);
}

#[tokio::test]
async fn json_with_a_charset_parameter_is_json() {
    let (server, engine) = stripe_like().await;
    let outcome = engine
        .push("Note", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    let note = received(&server, "/v1/notes").await;
    assert_eq!(content_type(&note), "application/json; charset=utf-8");
    assert_eq!(&note.body[..], br#"{"text":"Acme Ltd"}"#);
}
