//! Tokens never leak: not in tracing output (captured at TRACE), audit trails, dry-run
//! renderings or error messages, whatever path a push takes (401 and refresh, retries,
//! failures).

use crate::common;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::json;
use syncdef_engine::auth::{AuthError, Secret};
use syncdef_engine::render::{human_report, json_report};
use syncdef_engine::{RecordState, RecordingTransport, RetryPolicy, TokenProvider};
use url::Url;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

const OLD: &str = "old-SECRET-token-value";
const NEW: &str = "new-SECRET-token-value";

struct Tokens;

impl TokenProvider for Tokens {
    fn token(&self) -> BoxFuture<'_, Result<Option<Secret>, AuthError>> {
        Box::pin(async { Ok(Some(Secret::new(OLD))) })
    }

    fn refresh<'a>(&'a self, _: &'a Secret) -> BoxFuture<'a, Result<Option<Secret>, AuthError>> {
        Box::pin(async { Ok(Some(Secret::new(NEW))) })
    }
}

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut b) = self.0.lock() {
            b.extend_from_slice(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        self.0
            .lock()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }
}

fn assert_clean(what: &str, text: &str) {
    for secret in [OLD, NEW, "SECRET"] {
        assert!(!text.contains(secret), "{what} holds `{secret}`:\n{text}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn tokens_stay_out_of_logs_audit_trails_renderings_and_errors() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let server = MockServer::start().await;
    // 401 (refresh), 503 (retry), then 400 with the token echoed back in the error body.
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(401))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(
            json!({"errors": ["bad request"], "access_token": NEW, "authorization": format!("Bearer {NEW}")}),
        ))
        .mount(&server)
        .await;
    let engine = common::connected("generic.yaml", &server.uri())
        .with_token_provider(Arc::new(Tokens))
        .with_retry_policy(RetryPolicy {
            initial_backoff: Duration::ZERO,
            ..RetryPolicy::default()
        })
        .with_base_url(Url::parse(&server.uri()).expect("url"));
    let record = common::json(r#"{"name": "Acme"}"#);
    let outcome = engine.push("Account", &record, &RecordState::new()).await;
    assert_eq!(outcome.exchanges.len(), 3, "{:#?}", outcome.exchanges);
    // The token did reach the server: the masking is in what is shown, not what is sent.
    let sent = server.received_requests().await.unwrap_or_default();
    assert!(sent.iter().any(|r| {
        r.headers
            .get("authorization")
            .is_some_and(|v| v.as_bytes().ends_with(NEW.as_bytes()))
    }));

    assert_clean("the tracing output", &captured.text());
    assert!(
        captured.text().contains("external request"),
        "tracing was captured"
    );
    assert_clean("the JSON report", &json_report(&outcome).to_string());
    assert_clean("the text report", &human_report(&outcome));
    assert_clean("the outcome's Debug", &format!("{outcome:?}"));
    if let Some(e) = &outcome.error {
        assert_clean("the error", &e.to_string());
    }

    // A dry-run shows the same masked headers.
    let dry = common::engine("generic.yaml")
        .with_transport(Arc::new(RecordingTransport::synthesizing()))
        .with_token_provider(Arc::new(Tokens));
    let outcome = dry.push("Account", &record, &RecordState::new()).await;
    assert_clean("the dry-run", &json_report(&outcome).to_string());
    assert_clean("the dry-run text", &human_report(&outcome));
}

const USER_PASSWORD: &str = "pw-SECRET-5e81d0";
const API_KEY: &str = "key-SECRET-0c77ab";

/// The credentials of the schemes other than OAuth2 (HTTP Basic, an API key in a header, the
/// query or a cookie) stay out of what is shown too, when the server echoes them back.
#[tokio::test(flavor = "current_thread")]
async fn basic_and_api_key_credentials_stay_out_of_everything_shown() {
    use syncdef_engine::auth::{Credential, Credentials};

    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("the fixture");
    let schemes = [
        "  securitySchemes:\n",
        "    basicAuth: {type: http, scheme: basic}\n",
        "    keyHeader: {type: apiKey, name: X-Token, in: header}\n",
        "    keyQuery: {type: apiKey, name: sig, in: query}\n",
        "    keyCookie: {type: apiKey, name: sid, in: cookie}\n",
    ]
    .concat();
    let text = text
        .replacen(
            "  - exampleOAuth: [write]\n",
            "  - basicAuth: []\n    keyHeader: []\n    keyQuery: []\n    keyCookie: []\n",
            1,
        )
        .replacen("  securitySchemes:\n", &schemes, 1);
    let credentials = Credentials::new()
        .with("basicAuth", Credential::basic("ann", USER_PASSWORD))
        .with("keyHeader", Credential::api_key(API_KEY))
        .with("keyQuery", Credential::api_key(API_KEY))
        .with("keyCookie", Credential::api_key(API_KEY));
    let basic = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        format!("ann:{USER_PASSWORD}"),
    );

    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(400)
                .insert_header("X-Echo", format!("{API_KEY} Basic {basic}"))
                .set_body_json(json!({"errors": [format!("refused {USER_PASSWORD} and {API_KEY}"), format!("Basic {basic}")]})),
        )
        .mount(&server)
        .await;
    let engine = common::connect(common::load("keys.yaml", text.clone()), &server.uri())
        .with_credentials(credentials)
        .with_retry_policy(RetryPolicy::none());
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    // They did reach the server.
    let sent = server.received_requests().await.unwrap_or_default();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].url.as_str().contains(API_KEY));

    let clean = |what: &str, shown: &str| {
        for secret in [USER_PASSWORD, API_KEY, basic.as_str()] {
            assert!(!shown.contains(secret), "{what} holds `{secret}`:\n{shown}");
        }
    };
    assert!(
        captured.text().contains("external request"),
        "tracing was captured"
    );
    clean("the tracing output", &captured.text());
    clean("the JSON report", &json_report(&outcome).to_string());
    clean("the text report", &human_report(&outcome));
    clean("the outcome's Debug", &format!("{outcome:?}"));
    let error = outcome.error.as_ref().expect("it failed");
    clean("the error", &error.to_string());
    assert!(error.message.contains("refused *** and ***"), "{error}");

    // A dry-run shows stand-ins where the credentials go, and none of them.
    let dry = common::load("keys.yaml", text)
        .with_transport(Arc::new(RecordingTransport::synthesizing()));
    let outcome = dry
        .push("Account", &common::account(), &RecordState::new())
        .await;
    let shown = json_report(&outcome).to_string();
    clean("the dry-run", &shown);
    assert!(shown.contains("Basic ***"), "{shown}");
}
