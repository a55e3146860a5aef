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
            "Account number exists",
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
