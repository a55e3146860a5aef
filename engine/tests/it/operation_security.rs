//! Each request carries the credentials of the scheme its operation's security requirement
//! names: the operation's own `security`, else the document's (OpenAPI 3.0). OAuth2 and
//! bearer tokens, HTTP Basic, API keys in a header, the query or a cookie; all schemes of one
//! requirement, the first alternative the engine has credentials for, none for `security: []`,
//! and a clear error when a credential is missing.

use crate::common;

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use syncdef_engine::auth::{Credential, Credentials};
use syncdef_engine::render::{human_report, json_report};
use syncdef_engine::{
    Engine, ErrorClass, PushOutcome, PushStatus, RecordState, RecordingTransport, RetryPolicy,
    StaticToken,
};
use url::Url;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const PASSWORD: &str = "basic-pw-0d41c9";
const QUERY_KEY: &str = "query-key-7e2a55";
const COOKIE_KEY: &str = "cookie-key-3b9f10";
const HEADER_KEY: &str = "header-key-c8d237";

/// The generic fixture secured as a vendor that declares `security` on each operation and none
/// at the top: the create with HTTP Basic, the update with an API key header or OAuth2, the
/// delete with OAuth2, the notification with none, the audit with two API keys at once (the
/// query and a cookie), the invoice's create with a bearer token.
fn per_operation() -> String {
    let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("the fixture");
    let edits = [
        ("security:\n  - exampleOAuth: [write]\n", String::new()),
        (
            "  securitySchemes:\n",
            [
                "  securitySchemes:\n",
                "    basicAuth: {type: http, scheme: basic}\n",
                "    bearerAuth: {type: http, scheme: bearer}\n",
                "    keyHeader: {type: apiKey, name: X-Api-Key, in: header}\n",
                "    keyQuery: {type: apiKey, name: api_key, in: query}\n",
                "    keyCookie: {type: apiKey, name: session, in: cookie}\n",
            ]
            .concat(),
        ),
        (
            "operationId: createAccount\n",
            own("createAccount", "[{basicAuth: []}]"),
        ),
        (
            "operationId: updateAccount\n",
            own(
                "updateAccount",
                "[{keyHeader: []}, {exampleOAuth: [write]}]",
            ),
        ),
        (
            "operationId: deleteAccount\n",
            own("deleteAccount", "[{exampleOAuth: [write]}]"),
        ),
        ("operationId: notifyAccount\n", own("notifyAccount", "[]")),
        (
            "operationId: auditAccount\n",
            own("auditAccount", "[{keyQuery: [], keyCookie: []}]"),
        ),
        (
            "operationId: createInvoice\n",
            own("createInvoice", "[{bearerAuth: []}]"),
        ),
    ];
    let mut text = text;
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replacen(from, &to, 1);
    }
    text
}

fn own(operation: &str, security: &str) -> String {
    format!("operationId: {operation}\n      security: {security}\n")
}

fn engine() -> Engine {
    common::load("per-operation.yaml", per_operation())
}

/// Every credential but the update's API key, and the token `access-1` from the provider.
fn credentials() -> Credentials {
    Credentials::new()
        .with("basicAuth", Credential::basic("ann", PASSWORD))
        .with("keyQuery", Credential::api_key(QUERY_KEY))
        .with("keyCookie", Credential::api_key(COOKIE_KEY))
}

async fn server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"id": 7, "success": true, "errors": []})),
        )
        .mount(&server)
        .await;
    server
}

fn connect(engine: &Engine, server: &MockServer) -> Engine {
    common::connect(engine.clone(), &server.uri()).with_retry_policy(RetryPolicy::none())
}

async fn received(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.unwrap_or_default()
}

fn header<'r>(request: &'r Request, name: &str) -> Option<&'r str> {
    request.headers.get(name).and_then(|v| v.to_str().ok())
}

#[tokio::test]
async fn each_request_carries_the_scheme_its_operation_names() {
    let server = server().await;
    let engine = connect(&engine(), &server).with_credentials(credentials());
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    let sent = received(&server).await;
    let [create, notify, audit] = sent.as_slice() else {
        panic!("create, notify, audit: {sent:#?}");
    };
    // The create: HTTP Basic, and no bearer token although the provider has one.
    let basic = format!("Basic {}", STANDARD.encode(format!("ann:{PASSWORD}")));
    assert_eq!(header(create, "authorization"), Some(basic.as_str()));
    // `security: []`: nothing.
    assert_eq!(header(notify, "authorization"), None, "{notify:?}");
    assert_eq!(header(notify, "cookie"), None);
    // Both schemes of one requirement: the query's key and the cookie's.
    assert_eq!(header(audit, "authorization"), None);
    let query: Vec<(String, String)> = audit.url.query_pairs().into_owned().collect();
    assert_eq!(query, [("api_key".to_owned(), QUERY_KEY.to_owned())]);
    assert_eq!(
        header(audit, "cookie"),
        Some(format!("session={COOKIE_KEY}").as_str())
    );
    assert_masked(&outcome);
}

#[tokio::test]
async fn among_alternatives_the_first_with_credentials_is_sent() {
    // Without the API key the update's second alternative, OAuth2, is sent.
    let server = server().await;
    let engine = connect(&engine(), &server).with_credentials(credentials());
    let update = RecordState::new().with_external_id("7");
    let outcome = engine.push("Account", &common::account(), &update).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{outcome:#?}");
    let sent = received(&server).await;
    assert_eq!(header(&sent[0], "authorization"), Some("Bearer access-1"));
    assert_eq!(header(&sent[0], "x-api-key"), None);

    // With it, the first: the key, and no token.
    let server = self::server().await;
    let engine = connect(&self::engine(), &server)
        .with_credentials(credentials().with("keyHeader", Credential::api_key(HEADER_KEY)));
    let outcome = engine.push("Account", &common::account(), &update).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{outcome:#?}");
    let sent = received(&server).await;
    assert_eq!(header(&sent[0], "x-api-key"), Some(HEADER_KEY));
    assert_eq!(header(&sent[0], "authorization"), None);
    assert_masked(&outcome);
}

#[tokio::test]
async fn a_fixed_bearer_token_is_sent_for_a_bearer_scheme() {
    let server = server().await;
    let engine = connect(&engine(), &server).with_credentials(
        credentials().with("bearerAuth", Credential::bearer("fixed-bearer-91aa")),
    );
    let record = common::json(r#"{"code": "INV-1", "dueDate": "2024-01-31"}"#);
    let state = RecordState::new().with_related("Account", "7");
    let outcome = engine.push("Invoice", &record, &state).await;
    assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    let sent = received(&server).await;
    assert_eq!(
        header(&sent[0], "authorization"),
        Some("Bearer fixed-bearer-91aa")
    );
    assert!(!format!("{outcome:?}").contains("fixed-bearer-91aa"));
}

#[tokio::test]
async fn a_missing_credential_fails_naming_the_scheme_and_how_to_give_it() {
    let server = server().await;
    // No credentials: the create's basic scheme has none.
    let engine = connect(&engine(), &server);
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    let error = outcome.error.as_ref().expect("it fails");
    assert_eq!(error.class, ErrorClass::Authentication, "{error}");
    for says in [
        "`basicAuth` (http basic)",
        "SYNCDEF_BASIC_AUTH_USER",
        "SYNCDEF_BASIC_AUTH_PASSWORD",
    ] {
        assert!(error.message.contains(says), "{says}: {error}");
    }
    assert!(received(&server).await.is_empty(), "nothing is sent");

    // An update whose alternatives all lack credentials names each scheme.
    let engine = common::load("per-operation.yaml", per_operation())
        .with_transport(Arc::new(
            syncdef_engine::ReqwestTransport::new().expect("client"),
        ))
        .with_base_url(Url::parse(&server.uri()).expect("url"));
    let update = RecordState::new().with_external_id("7");
    let outcome = engine.push("Account", &common::account(), &update).await;
    let error = outcome.error.as_ref().expect("it fails");
    for says in [
        "`keyHeader` (an API key in the header `X-Api-Key`): set SYNCDEF_KEY_HEADER_KEY",
        "`exampleOAuth` (OAuth2): log in with `syncdef auth login`",
    ] {
        assert!(error.message.contains(says), "{says}: {error}");
    }
    assert!(received(&server).await.is_empty(), "nothing is sent");
}

#[test]
fn oauth2_login_finds_the_scheme_in_operation_requirements() {
    let engine = engine();
    let settings = engine
        .plan()
        .oauth()
        .expect("the OAuth2 scheme of the operations");
    assert_eq!(settings.scheme, "exampleOAuth");
    assert_eq!(settings.scopes, ["write"]);
}

#[tokio::test]
async fn a_dry_run_shows_where_each_credential_goes_with_stand_ins() {
    let engine = engine()
        .with_transport(Arc::new(RecordingTransport::synthesizing()))
        .with_token_provider(Arc::new(StaticToken::placeholder("dry-run")));
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    let shown = json_report(&outcome).to_string();
    assert!(shown.contains(r#""authorization":"Basic ***""#), "{shown}");
    assert!(shown.contains("api_key=***"), "{shown}");
    assert!(shown.contains(r#""cookie":"***""#), "{shown}");
}

/// Nothing shown of `outcome` holds a credential: the audit trail, both renderings, `Debug`.
fn assert_masked(outcome: &PushOutcome) {
    let basic = STANDARD.encode(format!("ann:{PASSWORD}"));
    let shown = [
        json_report(outcome).to_string(),
        human_report(outcome),
        format!("{outcome:?}"),
    ];
    for text in &shown {
        for secret in [PASSWORD, QUERY_KEY, COOKIE_KEY, HEADER_KEY, basic.as_str()] {
            assert!(!text.contains(secret), "`{secret}` shown:\n{text}");
        }
    }
}
