//! A 2xx answer that says the step failed: its `success: false` is a failed push whatever the
//! response template maps (spec 7.1), with the external system's reasons read from the body in
//! every shape the vendors write them.

use crate::common;

use serde_json::{Value as Json, json};
use syncdef_engine::{ErrorClass, PushOutcome, PushStatus, RecordState, RetryPolicy};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The generic fixture with the Account's response templates reading the id only.
fn id_only() -> String {
    let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("the fixture");
    let full = "          id: \"#valueof($.id)\"\n          success: \"#valueof($.success)\"\n          errors: \"#valueof($.errors)\"\n";
    let reduced = "          id: \"#valueof($.id)\"\n";
    assert!(text.contains(full));
    text.replace(full, reduced)
}

/// The Account of `definition` pushed (as a create, or an update of the record 7) against a
/// server answering every request 200 with `body`.
async fn pushed(definition: String, update: bool, body: Json) -> (PushOutcome, usize) {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(&server)
        .await;
    let engine = common::connect(common::load("generic.yaml", definition), &server.uri())
        .with_retry_policy(RetryPolicy::none());
    let mut state = RecordState::new();
    if update {
        state = state.with_external_id("7");
    }
    let outcome = engine.push("Account", &common::account(), &state).await;
    let sent = server.received_requests().await.map_or(0, |r| r.len());
    (outcome, sent)
}

fn assert_failed(outcome: &PushOutcome, reasons: &[&str]) {
    assert_eq!(outcome.status, PushStatus::Failed, "{outcome:#?}");
    assert_eq!(outcome.errors, reasons, "{outcome:#?}");
    let error = outcome.error.as_ref().expect("an error");
    assert_eq!(error.class, ErrorClass::ExternalValidation, "{error}");
    for reason in reasons {
        assert!(error.message.contains(reason), "{}", error.message);
    }
}

#[tokio::test]
async fn success_false_fails_a_create_whose_template_reads_only_the_id() {
    let (outcome, sent) = pushed(
        id_only(),
        false,
        json!({"id": 0, "success": false, "errors": ["Duplicate name"]}),
    )
    .await;
    assert_failed(&outcome, &["Duplicate name"]);
    assert_eq!(outcome.external_id, None);
    // No post-action runs after the failure.
    assert_eq!(sent, 1);
}

#[tokio::test]
async fn success_false_fails_an_update_whose_template_reads_only_the_id() {
    let (outcome, _) = pushed(
        id_only(),
        true,
        json!({"id": 7, "success": false, "errors": ["Locked"]}),
    )
    .await;
    assert_failed(&outcome, &["Locked"]);
}

#[tokio::test]
async fn success_false_fails_an_update_without_response_template() {
    let text = id_only();
    let without = text.replacen(
        "        updateResponse:\n          id: \"#valueof($.id)\"\n",
        "",
        1,
    );
    assert_ne!(without, text);
    let (outcome, _) = pushed(
        without,
        true,
        json!({"success": false, "errors": ["Locked"]}),
    )
    .await;
    assert_failed(&outcome, &["Locked"]);
}

#[tokio::test]
async fn errors_written_as_one_string_are_one_reason() {
    for definition in [id_only(), common_definition()] {
        let (outcome, _) = pushed(
            definition,
            false,
            json!({"id": null, "success": false, "errors": "Duplicate name"}),
        )
        .await;
        assert_failed(&outcome, &["Duplicate name"]);
    }
}

fn common_definition() -> String {
    std::fs::read_to_string(common::fixture("generic.yaml")).expect("the fixture")
}

#[tokio::test]
async fn the_reasons_are_read_in_each_vendor_shape() {
    let cases = [
        (
            json!({"success": false, "errors": [{"message": "Name taken", "code": 4}]}),
            "Name taken",
        ),
        (
            json!({"success": false, "reasons": [{"code": 53_100_020, "message": "Account number exists"}]}),
            "Account number exists (code 53100020)",
        ),
        (
            json!({"success": false, "error": {"message": "Customer blocked", "code": "BadRequest"}}),
            "Customer blocked (BadRequest)",
        ),
        (
            json!({"success": false, "Fault": {"Error": [{"Message": "Duplicate", "Detail": "The name exists", "code": "6240"}]}}),
            "Duplicate: The name exists (code 6240)",
        ),
    ];
    for (body, reason) in cases {
        let (outcome, _) = pushed(id_only(), false, body).await;
        assert_failed(&outcome, &[reason]);
    }
}

#[tokio::test]
async fn success_given_as_the_string_false_fails_too() {
    let (outcome, _) = pushed(
        id_only(),
        false,
        json!({"id": 3, "success": "false", "errors": ["No"]}),
    )
    .await;
    assert_failed(&outcome, &["No"]);
}

#[tokio::test]
async fn success_true_with_an_id_is_a_create() {
    let (outcome, _) = pushed(
        id_only(),
        false,
        json!({"id": 12, "success": true, "errors": []}),
    )
    .await;
    assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    assert_eq!(outcome.external_id(), Some("12"));
}

/// Zuora answers a failed create with HTTP 200, `success: false` and its `reasons`; its
/// media types carry parameters. A `createResponse` that maps only the id does not make it an
/// unknown outcome: it is a failed create, with Zuora's reasons, codes included, in the
/// outcome, its message and both renderings.
#[tokio::test]
async fn a_zuora_create_answered_200_with_success_false_is_a_failed_create() {
    use syncdef_engine::auth::{Credential, Credentials};
    use syncdef_engine::render::{human_report, json_report};

    let server = MockServer::start().await;
    let answer = json!({"success": false, "processId": "6D4A4B2C", "reasons": [
        {"code": 53_100_020, "message": "The account number A-1 is invalid."},
        {"code": 53_100_320, "message": "Currency XYZ is not supported."}
    ]});
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(answer.to_string(), "application/json; charset=utf-8"),
        )
        .mount(&server)
        .await;
    let engine = common::connect(common::engine("zuora-like.yaml"), &server.uri())
        .with_retry_policy(RetryPolicy::none())
        .with_credentials(
            Credentials::new()
                .with("apiAccessKeyId", Credential::api_key("zuora-key-id-5c1e"))
                .with(
                    "apiSecretAccessKey",
                    Credential::api_key("zuora-secret-8d2f"),
                ),
        );
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    let reasons = [
        "The account number A-1 is invalid. (code 53100020)",
        "Currency XYZ is not supported. (code 53100320)",
    ];
    assert_failed(&outcome, &reasons);
    assert_eq!(outcome.external_id, None);
    let rendered = [json_report(&outcome).to_string(), human_report(&outcome)];
    for text in &rendered {
        assert!(text.contains("(code 53100020)"), "{text}");
        assert!(!text.contains("zuora-secret-8d2f"), "{text}");
    }
    // Both keys of the one requirement went with the request.
    let sent = server.received_requests().await.unwrap_or_default();
    assert_eq!(sent.len(), 1);
    for (name, key) in [
        ("apiAccessKeyId", "zuora-key-id-5c1e"),
        ("apiSecretAccessKey", "zuora-secret-8d2f"),
    ] {
        assert_eq!(
            sent[0].headers.get(name).and_then(|v| v.to_str().ok()),
            Some(key)
        );
    }
}

/// The reasons of an error status are read through the same table of shapes: a Xero
/// validation error (400), and a problem document whose media type has parameters.
#[tokio::test]
async fn an_error_status_is_read_through_the_same_shapes() {
    let cases = [
        (
            ResponseTemplate::new(400).set_body_json(json!({"ErrorNumber": 10, "Type": "ValidationException", "Message": "A validation exception occurred", "Elements": [{"ValidationErrors": [{"Message": "The contact name Acme is already assigned to another contact."}]}]})),
            "The contact name Acme is already assigned to another contact.",
        ),
        (
            ResponseTemplate::new(422).set_body_raw(
                json!({"title": "Invalid account", "detail": "The name is taken", "errors": [{"detail": "must be unique", "pointer": "#/name"}]}).to_string(),
                "application/problem+json; charset=utf-8",
            ),
            "must be unique (at #/name)",
        ),
        (
            ResponseTemplate::new(400).set_body_raw("Invalid API key\n", "text/plain; charset=utf-8"),
            "Invalid API key",
        ),
    ];
    for (response, reason) in cases {
        let server = MockServer::start().await;
        Mock::given(any())
            .respond_with(response)
            .mount(&server)
            .await;
        let engine = common::connect(common::engine("generic.yaml"), &server.uri())
            .with_retry_policy(RetryPolicy::none());
        let outcome = engine
            .push("Account", &common::account(), &RecordState::new())
            .await;
        assert_eq!(outcome.status, PushStatus::Failed, "{outcome:#?}");
        assert!(
            outcome.errors.iter().any(|e| e == reason),
            "{:?}",
            outcome.errors
        );
        let error = outcome.error.as_ref().expect("an error");
        assert!(error.message.contains(reason), "{error}");
    }
}
