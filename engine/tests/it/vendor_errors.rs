//! What a push reports of a failed answer: the vendor's own reason (QuickBooks' `Fault`, with
//! its error code shown; RFC 9457 problem details), and never more than a bounded prefix of a
//! huge answer, anywhere in the outcome or its renderings.

use crate::common;

use serde_json::json;
use syncdef_engine::render::{human_report, json_report};
use syncdef_engine::{RecordState, RetryPolicy};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn push_answered(answer: ResponseTemplate) -> syncdef_engine::PushOutcome {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(answer)
        .mount(&server)
        .await;
    common::connected("generic.yaml", &server.uri())
        .with_retry_policy(RetryPolicy::none())
        .push(
            "Account",
            &common::json(r#"{"name": "Acme"}"#),
            &RecordState::new(),
        )
        .await
}

#[tokio::test]
async fn a_quickbooks_fault_code_is_shown() {
    let fault = json!({"Fault": {"Error": [{
        "Message": "Invalid Reference Id",
        "Detail": "Invalid Reference Id : Accounts element id 7 not found",
        "code": "2500",
        "element": "Line.AccountRef"
    }], "type": "ValidationFault"}});
    let outcome = push_answered(ResponseTemplate::new(400).set_body_json(fault)).await;
    assert_eq!(
        outcome.errors,
        [
            "Invalid Reference Id: Invalid Reference Id : Accounts element id 7 not found (code 2500)"
        ]
    );
    let report = json_report(&outcome);
    assert_eq!(
        report["requests"][0]["response"]["body"]["Fault"]["Error"][0]["code"],
        json!("2500"),
        "{report:#}"
    );
    let error = outcome.error.expect("the push failed");
    assert!(error.message.contains("(code 2500)"), "{}", error.message);
}

#[tokio::test]
async fn problem_details_are_read() {
    let problem = json!({
        "type": "https://example.com/problems/duplicate",
        "title": "Duplicate account",
        "detail": "An account named Acme exists already.",
        "status": 422
    });
    let outcome = push_answered(
        ResponseTemplate::new(422).set_body_raw(problem.to_string(), "application/problem+json"),
    )
    .await;
    assert_eq!(
        outcome.errors,
        ["Duplicate account: An account named Acme exists already."]
    );
    let error = outcome.error.expect("the push failed");
    assert!(
        error
            .message
            .ends_with("HTTP 422: Duplicate account: An account named Acme exists already."),
        "{}",
        error.message
    );
}

/// Larger than every bound by far; the bounds are the same code whatever the size.
const HUGE: usize = 8 * 1024 * 1024;
/// What one bounded text may take, its note included.
const BOUNDED: usize = syncdef_secrets::MAX_SHOWN;

#[tokio::test]
async fn a_huge_error_answer_is_bounded_everywhere() {
    let message = "x".repeat(HUGE);
    let fault = json!({"Fault": {"Error": [{"Message": message, "code": "6000"}]}});
    let outcome = push_answered(ResponseTemplate::new(400).set_body_json(fault)).await;
    assert_eq!(outcome.errors.len(), 1);
    assert!(
        outcome.errors[0].len() <= BOUNDED,
        "{}",
        outcome.errors[0].len()
    );
    assert!(
        outcome.errors[0].ends_with(&format!(
            "bytes shown; {} bytes in all]",
            HUGE + " (code 6000)".len()
        )),
        "{}",
        &outcome.errors[0][outcome.errors[0].len() - 100..]
    );
    let error = outcome.error.clone().expect("the push failed");
    assert!(error.message.len() <= BOUNDED, "{}", error.message.len());
    // The push's message quotes the vendor's, which says how large it was.
    assert!(
        error.message.contains(&format!(
            "bytes shown; {} bytes in all]",
            HUGE + " (code 6000)".len()
        )),
        "{}",
        &error.message[..200]
    );
    // The outcome holds the message, the errors and the audit trail's body: each bounded.
    for (what, text) in [
        ("Debug", format!("{outcome:?}")),
        (
            "Serialize",
            serde_json::to_string(&outcome).expect("serializes"),
        ),
        ("json_report", json_report(&outcome).to_string()),
        ("human_report", human_report(&outcome)),
    ] {
        assert!(text.len() <= 5 * BOUNDED, "{what}: {} bytes", text.len());
    }
    let report = json_report(&outcome);
    let body = report["requests"][0]["response"]["body"]
        .as_str()
        .expect("a huge body is shown as text");
    assert!(
        body.ends_with("bytes in all]"),
        "{}",
        &body[body.len() - 80..]
    );
}

#[tokio::test]
async fn a_huge_text_answer_is_bounded() {
    let page = format!("<html>{}</html>", "y".repeat(HUGE));
    let outcome = push_answered(ResponseTemplate::new(502).set_body_raw(page, "text/html")).await;
    let text = serde_json::to_string(&outcome).expect("serializes");
    assert!(text.len() <= 2 * BOUNDED, "{} bytes", text.len());
    let report = json_report(&outcome);
    let body = report["requests"][0]["response"]["body"]
        .as_str()
        .expect("text");
    assert!(
        body.ends_with(" bytes shown; 8388621 bytes in all]") && body.len() <= 4096,
        "{}",
        &body[body.len() - 80..]
    );
}
