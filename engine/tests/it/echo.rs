//! A hostile external system that echoes the credentials it was sent (or others the process
//! holds) anywhere in its answer: no output of a push shows them. The outcome's `Debug`, its
//! JSON, both renderings, the error's `Display` and every tracing event (captured at TRACE)
//! are searched for each secret value and for the client's HTTP Basic encodings.

use crate::common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use proptest::prelude::*;
use serde_json::{Value as Json, json};
use syncdef_engine::auth::{
    ClientCredentials, MemoryTokenStore, OAuth2Provider, OAuthSettings, Secret, StoredTokens,
};
use syncdef_engine::render::{human_report, json_report};
use syncdef_engine::{RecordState, RetryPolicy};
use url::Url;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const CLIENT_ID: &str = "client id+1";

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

/// Where the answer carries the echoed value.
#[derive(Clone, Copy, Debug)]
enum Place {
    Header,
    WwwAuthenticate,
    TextBody,
    JsonField,
    Nested,
    ErrorArray,
    Fault,
    Problem,
    Id,
}

/// The answer's status; a 401 makes the engine refresh, at a token endpoint that echoes the
/// `Authorization` header (the client's Basic credentials) and the refresh token.
const STATUSES: [u16; 5] = [200, 400, 401, 422, 500];

/// Which credential the server echoes.
#[derive(Clone, Copy, Debug)]
enum Which {
    Access,
    Refresh,
    ClientSecret,
    Basic,
}

/// The secret's value: printable ASCII, at least 8 long. At least six letters or digits, so
/// that the value cannot occur in the output by chance (eight spaces are an indentation).
fn secret() -> impl Strategy<Value = String> {
    "[ -~]{8,24}".prop_filter("enough letters and digits", |s| {
        s.chars().filter(char::is_ascii_alphanumeric).count() >= 6
            && s.trim() == s
            && !s.contains("  ")
    })
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        Just(Place::Header),
        Just(Place::WwwAuthenticate),
        Just(Place::TextBody),
        Just(Place::JsonField),
        Just(Place::Nested),
        Just(Place::ErrorArray),
        Just(Place::Fault),
        Just(Place::Problem),
        Just(Place::Id),
    ]
}

fn which() -> impl Strategy<Value = Which> {
    prop_oneof![
        Just(Which::Access),
        Just(Which::Refresh),
        Just(Which::ClientSecret),
        Just(Which::Basic),
    ]
}

fn answer(status: u16, place: Place, value: &str) -> ResponseTemplate {
    let r = ResponseTemplate::new(status);
    let json_body = |body: Json| r.clone().set_body_json(body);
    match place {
        Place::Header => r.insert_header("X-Echo", value),
        Place::WwwAuthenticate => r.insert_header(
            "WWW-Authenticate",
            format!("Bearer realm=\"api\", error=\"invalid_token\", error_description=\"{value}\""),
        ),
        Place::TextBody => r.set_body_raw(format!("bad token: {value}\n"), "text/plain"),
        Place::JsonField => json_body(json!({"success": false, "detail": value})),
        Place::Nested => json_body(json!({"outer": {"list": [{"note": value}]}, "success": false})),
        Place::ErrorArray => json_body(json!({
            "success": false,
            "errors": [value, {"message": format!("echo {value}")}],
        })),
        Place::Fault => json_body(json!({"Fault": {"Error": [
            {"Message": value, "Detail": format!("d {value}"), "code": value}
        ], "type": "ValidationFault"}})),
        Place::Problem => r.set_body_raw(
            json!({"title": value, "detail": format!("because {value}"), "status": status})
                .to_string(),
            "application/problem+json",
        ),
        Place::Id => json_body(json!({"id": value, "success": true})),
    }
}

/// A token endpoint that refuses, echoing what it got: the `Authorization` header and the
/// form (with the refresh token).
struct EchoingTokenEndpoint;

impl Respond for EchoingTokenEndpoint {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let authorization = request
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let form = String::from_utf8_lossy(&request.body).into_owned();
        ResponseTemplate::new(400)
            .insert_header("X-Echo", authorization.as_str())
            .set_body_json(json!({
                "error": "invalid_client",
                "error_description": format!("got {authorization} and {form}"),
            }))
    }
}

struct Case {
    access: String,
    refresh: String,
    client_secret: String,
    which: Which,
    place: Place,
    status: u16,
}

fn basic_encodings(secret: &str) -> [String; 2] {
    let enc = |s: &str| -> String { url::form_urlencoded::byte_serialize(s.as_bytes()).collect() };
    [
        STANDARD.encode(format!("{CLIENT_ID}:{secret}")),
        STANDARD.encode(format!("{}:{}", enc(CLIENT_ID), enc(secret))),
    ]
}

async fn push(case: &Case) -> Vec<(&'static str, String)> {
    let server = MockServer::start().await;
    Mock::given(path("/token"))
        .respond_with(EchoingTokenEndpoint)
        .mount(&server)
        .await;
    let echoed = match case.which {
        Which::Access => case.access.clone(),
        Which::Refresh => case.refresh.clone(),
        Which::ClientSecret => case.client_secret.clone(),
        Which::Basic => basic_encodings(&case.client_secret)[1].clone(),
    };
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .respond_with(answer(case.status, case.place, &echoed))
        .mount(&server)
        .await;
    let settings = OAuthSettings {
        scheme: "exampleOAuth".to_owned(),
        authorization_url: format!("{}/authorize", server.uri()),
        token_url: format!("{}/token", server.uri()),
        refresh_url: None,
        scopes: Vec::new(),
    };
    let store = MemoryTokenStore::new(Some(StoredTokens {
        access_token: Secret::new(case.access.clone()),
        refresh_token: Some(Secret::new(case.refresh.clone())),
        expires_at: None,
    }));
    let credentials = ClientCredentials {
        id: CLIENT_ID.to_owned(),
        secret: Some(Secret::new(case.client_secret.clone())),
    };
    let provider =
        OAuth2Provider::new(settings, credentials, Arc::new(store)).expect("the provider builds");
    let engine = common::engine("generic.yaml")
        .with_transport(Arc::new(
            syncdef_engine::ReqwestTransport::new().expect("the client builds"),
        ))
        .with_token_provider(Arc::new(provider))
        .with_retry_policy(RetryPolicy::none())
        .with_base_url(Url::parse(&server.uri()).expect("url"));
    let outcome = engine
        .push(
            "Account",
            &common::json(r#"{"name": "Acme"}"#),
            &RecordState::new(),
        )
        .await;
    let mut outputs = vec![
        ("Debug", format!("{outcome:?}")),
        (
            "Serialize",
            serde_json::to_string(&outcome).expect("the outcome serializes"),
        ),
        ("json_report", json_report(&outcome).to_string()),
        ("human_report", human_report(&outcome)),
    ];
    if let Some(e) = &outcome.error {
        outputs.push(("error Display", e.to_string()));
    }
    outputs
}

fn run(case: &Case) -> Vec<(&'static str, String)> {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .finish();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut outputs =
        tracing::subscriber::with_default(subscriber, || runtime.block_on(push(case)));
    let logs = captured
        .0
        .lock()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    outputs.push(("tracing", logs));
    outputs
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_output_shows_an_echoed_secret(
        access in secret(),
        refresh in secret(),
        client_secret in secret(),
        which in which(),
        place in place(),
        status in prop::sample::select(STATUSES.as_slice()),
    ) {
        let case = Case { access, refresh, client_secret, which, place, status };
        let outputs = run(&case);
        let mut forbidden = vec![case.access.clone(), case.refresh.clone(), case.client_secret.clone()];
        forbidden.extend(basic_encodings(&case.client_secret));
        for (what, text) in &outputs {
            for secret in &forbidden {
                prop_assert!(
                    !text.contains(secret.as_str()),
                    "{what} shows `{secret}` ({:?} at {:?}, HTTP {}):\n{text}",
                    case.which, case.place, case.status
                );
            }
        }
    }
}
