//! The engine's refusals of a definition and the lint rules that catch the definitions reaching
//! them: each case is a small definition the linter refuses with the rule named, and which the
//! engine, made to load it anyway (its rules silenced, as `syncdef.toml` can), refuses in turn
//! without sending what it refuses.

mod common;

use std::sync::Arc;

use syncdef_definitions::settings::PushConfig;
use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::{
    Engine, ErrorClass, PushOutcome, RecordState, RecordingTransport, RetryPolicy, StaticToken,
};
use syncdef_validator::{RuleSettings, Severity, lint_definition};

/// The generic fixture with `from` replaced by `to` (which must occur in it).
fn generic_with(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("the fixture");
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

/// The codes of the errors the linter reports on `text`.
fn lint_errors(text: &str) -> Vec<String> {
    let definition = Definition::load(SourceFile::new("case.yaml", text)).expect("it loads");
    let mut codes: Vec<String> = lint_definition(&definition, &RuleSettings::default(), true)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code().to_owned())
        .collect();
    codes.dedup();
    codes
}

/// The Account of `text` pushed (with the external id `external_id` when given) by an engine
/// that loaded it whatever its lint findings; the outcome and the requests that went out.
async fn pushed_anyway(
    text: &str,
    external_id: Option<&str>,
) -> (PushOutcome, Vec<syncdef_engine::HttpRequest>) {
    let definition = Definition::load(SourceFile::new("case.yaml", text)).expect("it loads");
    let limits = syncdef_transform::Limits::default();
    let loaded = Engine::load_linted(&definition, Vec::new(), &PushConfig::default(), &limits)
        .unwrap_or_else(|refused| panic!("{refused}"));
    let transport = Arc::new(RecordingTransport::synthesizing());
    let engine = loaded
        .engine
        .with_transport(transport.clone())
        .with_token_provider(Arc::new(StaticToken::new("stand-in")))
        .with_retry_policy(RetryPolicy::none());
    let mut state = RecordState::new().with_related("Account", "1");
    if let Some(id) = external_id {
        state = state.with_external_id(id);
    }
    let outcome = engine.push("Account", &common::account(), &state).await;
    (outcome, transport.requests())
}

fn assert_refused(outcome: &PushOutcome, says: &str) {
    let error = outcome.error.as_ref().expect("the push is refused");
    assert_eq!(error.class, ErrorClass::Configuration, "{error}");
    assert!(error.message.contains(says), "{error}");
}

#[tokio::test]
async fn a_misspelt_create_request_is_an_error_and_no_create_is_sent_without_its_body() {
    let text = generic_with("        createRequest:\n", "        createRequestX:\n");
    assert_eq!(lint_errors(&text), ["SD401"]);
    let (outcome, sent) = pushed_anyway(&text, None).await;
    assert_refused(&outcome, "requires a request body");
    assert!(sent.is_empty(), "{sent:#?}");
}

#[tokio::test]
async fn a_misspelt_update_request_is_an_error_and_no_update_is_sent_without_its_body() {
    let text = generic_with("        updateRequest:\n", "        updateRequst:\n");
    assert_eq!(lint_errors(&text), ["SD401"]);
    let (outcome, sent) = pushed_anyway(&text, Some("7")).await;
    assert_refused(&outcome, "requires a request body");
    assert!(sent.is_empty(), "{sent:#?}");
}

#[tokio::test]
async fn a_misspelt_create_response_is_an_error() {
    let text = generic_with("        createResponse:\n", "        createRespons:\n");
    assert_eq!(lint_errors(&text), ["SD401"]);
}

/// The generic fixture whose `notify` operation requires a JSON body.
fn notify_requiring_a_body() -> String {
    generic_with(
        "    post:\n      operationId: notifyAccount\n",
        "    post:\n      operationId: notifyAccount\n      requestBody:\n        required: true\n        content:\n          application/json:\n            schema: {type: object}\n",
    )
}

#[tokio::test]
async fn an_action_whose_operation_requires_a_body_needs_its_request_template() {
    let text = notify_requiring_a_body();
    assert_eq!(lint_errors(&text), ["SD401"]);
    let (outcome, sent) = pushed_anyway(&text, None).await;
    // The create went out; the post-action is refused before it is sent.
    let error = outcome
        .post_action_error
        .as_ref()
        .expect("the post-action fails");
    assert_eq!(error.class, ErrorClass::Configuration, "{error}");
    assert!(error.message.contains("requires a request body"), "{error}");
    assert_eq!(sent.len(), 1, "{sent:#?}");
    // With the template, it lints clean (the template is not unused) and the body is sent.
    let with = text.replacen(
        "        createRequest:\n",
        "        NotifyRequest: {note: created}\n        createRequest:\n",
        1,
    );
    assert_eq!(lint_errors(&with), Vec::<String>::new());
    let (outcome, sent) = pushed_anyway(&with, None).await;
    assert!(outcome.post_action_error.is_none(), "{outcome:#?}");
    assert_eq!(sent.len(), 3, "{sent:#?}");
}

#[tokio::test]
async fn a_request_template_writing_null_is_an_error() {
    let text = generic_with(
        "        createRequest:\n          name: \"#valueof($.account.name)\"\n          email: \"#valueof($.account.corpEmail)\"\n",
        "        createRequest: \"null\"\n",
    );
    let errors = lint_errors(&text);
    assert_eq!(errors, ["SD802"]);
    let (outcome, sent) = pushed_anyway(&text, None).await;
    assert_refused(&outcome, "");
    assert!(sent.is_empty(), "{sent:#?}");
}

/// Why the engine, made to load `text` whatever its lint findings, refuses it.
fn load_refused(text: &str) -> Option<String> {
    let definition = Definition::load(SourceFile::new("case.yaml", text)).expect("it loads");
    let limits = syncdef_transform::Limits::default();
    Engine::load_linted(&definition, Vec::new(), &PushConfig::default(), &limits)
        .err()
        .map(|refused| format!("{refused}: {:?}", refused.problems))
}

const CREATE_RESPONSE: &str = "        createResponse:\n          id: \"#valueof($.id)\"\n          success: \"#valueof($.success)\"\n          errors: \"#valueof($.errors)\"\n";

#[test]
fn a_create_response_that_makes_no_object_with_an_id_is_an_error_and_refused() {
    for written in [
        "        createResponse:\n          - id: \"#valueof($.id)\"\n",
        "        createResponse: '[{\"id\": \"#valueof($.id)\"}]'\n",
        "        createResponse: '\"#valueof($.id)\"'\n",
        "        createResponse: '7'\n",
        "        createResponse: {\"#loop($.errors)\": {id: \"#valueof($.id)\"}}\n",
    ] {
        let text = generic_with(CREATE_RESPONSE, written);
        assert_eq!(lint_errors(&text), ["SD812"], "{written}");
        let refused = load_refused(&text).unwrap_or_else(|| panic!("loaded: {written}"));
        assert!(refused.contains("createResponse"), "{refused}");
    }
}

#[test]
fn an_update_response_that_makes_no_object_is_an_error_and_refused() {
    let text = generic_with(
        "        updateResponse:\n          id: \"#valueof($.id)\"\n          success: \"#valueof($.success)\"\n          errors: \"#valueof($.errors)\"\n",
        "        updateResponse: '[]'\n",
    );
    assert_eq!(lint_errors(&text), ["SD812"]);
    assert!(load_refused(&text).is_some_and(|r| r.contains("updateResponse")));
}

#[test]
fn a_create_response_without_an_id_is_an_error_and_refused() {
    let text = generic_with(
        CREATE_RESPONSE,
        "        createResponse:\n          success: \"#valueof($.success)\"\n",
    );
    assert_eq!(lint_errors(&text), ["SD804"]);
    assert!(load_refused(&text).is_some_and(|r| r.contains("SD804")));
}
