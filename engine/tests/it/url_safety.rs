//! Requests stay on the definition's server and under its base path, and never travel over
//! plain http except to a loopback test server: the lint refuses such definitions (SD204,
//! SD705), and the engine refuses them again when the rules are turned off or the URL comes
//! from an instance's base URL.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::auth::{ClientCredentials, MemoryTokenStore, OAuth2Provider, OAuthSettings};
use syncdef_engine::{Engine, ErrorClass, PushStatus, RecordState};
use syncdef_validator::{RuleSettings, Severity};
use url::Url;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The generic fixture with its text changed by `edit`.
fn generic_with(edit: impl Fn(String) -> String) -> String {
    let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("reads");
    let edited = edit(text.clone());
    assert_ne!(edited, text, "the edit applies");
    edited
}

/// Loads `text` with rule `code` off, as a `syncdef.toml` would turn it off.
fn load_without_rule(text: String, code: &str) -> Engine {
    let settings = RuleSettings::parse(
        &format!("[rules]\n{code} = \"off\"\n"),
        Path::new("syncdef.toml"),
    )
    .expect("settings parse");
    let definition = Definition::load(SourceFile::new("generic.yaml", text)).expect("loads");
    let diagnostics = syncdef_validator::lint_definition(&definition, &settings, true);
    let limits = syncdef_transform::Limits::default();
    match Engine::load_linted(&definition, diagnostics, settings.push(), &limits) {
        Ok(loaded) => loaded.engine,
        Err(refused) => panic!(
            "{refused}: {:#?} {:?}",
            refused.diagnostics, refused.problems
        ),
    }
}

fn refused_codes(text: String) -> Vec<String> {
    let definition = Definition::load(SourceFile::new("generic.yaml", text)).expect("loads");
    let refused = Engine::load(definition).expect_err("the lint refuses it");
    refused
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code().to_owned())
        .collect()
}

async fn server_answering_anything() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({"id": 1})))
        .mount(&server)
        .await;
    server
}

fn account() -> syncdef_transform::Value {
    common::json(r#"{"id": 42, "name": "Acme", "corpEmail": "ap@acme.example"}"#)
}

/// `/accounts` becomes `/../../steal` in the paths and in the create reference.
fn climbing() -> String {
    generic_with(|t| {
        t.replacen("  /accounts:\n", "  /../../steal:\n", 1)
            .replacen("create: /accounts/post", "create: /../../steal/post", 1)
    })
}

#[test]
fn the_lint_refuses_a_reference_with_dot_segments() {
    assert_eq!(refused_codes(climbing()), ["SD204"]);
}

#[tokio::test]
async fn a_path_with_dot_segments_never_leaves_the_base_path() {
    let server = server_answering_anything().await;
    let engine = common::connect(
        load_without_rule(climbing(), "SD204"),
        &format!("{}/api/v1", server.uri()),
    );
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Failed);
    let error = outcome.error.expect("an error");
    assert_eq!(error.class, ErrorClass::Configuration);
    assert!(
        error.message.contains("`.` or `..` segment") && error.message.contains("/api/v1"),
        "{}",
        error.message
    );
    assert!(
        server
            .received_requests()
            .await
            .expect("recorded")
            .is_empty()
    );
}

/// The fixture's server and token URL over plain http to a remote host.
fn plain_http() -> String {
    generic_with(|t| {
        t.replacen(
            "  - url: https://api.example.com/{tenant}",
            "  - url: http://api.example.com/{tenant}",
            1,
        )
    })
}

#[test]
fn the_lint_refuses_plain_http_to_a_remote_host() {
    assert_eq!(refused_codes(plain_http()), ["SD705"]);
    let token = generic_with(|t| t.replacen("tokenUrl: https://", "tokenUrl: http://", 1));
    assert_eq!(refused_codes(token), ["SD705"]);
}

#[tokio::test]
async fn a_plain_http_server_is_refused_unless_it_is_loopback() {
    // The definition's own server, with the rule turned off.
    let engine = load_without_rule(plain_http(), "SD705").with_transport(Arc::new(
        syncdef_engine::ReqwestTransport::new().expect("client"),
    ));
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    let error = outcome.error.expect("an error");
    assert_eq!(error.class, ErrorClass::Configuration);
    assert!(
        error.message.contains("`http://api.example.com/acme`")
            && error.message.contains("use https"),
        "{}",
        error.message
    );
    // A base URL given by the instance.
    let base = common::engine("generic.yaml");
    for remote in [
        "http://api.example.com/",
        "http://10.0.0.1:8080/",
        "http://localhost.example.com/",
    ] {
        let outcome = common::connect(base.clone(), remote)
            .push("Account", &account(), &RecordState::new())
            .await;
        let error = outcome.error.expect("an error");
        assert_eq!(error.class, ErrorClass::Configuration, "{remote}");
        assert!(
            error.message.contains("use https"),
            "{remote}: {}",
            error.message
        );
        assert!(outcome.exchanges.is_empty());
    }
    // Loopback test servers, by address and by name.
    let server = server_answering_anything().await;
    let port = Url::parse(&server.uri())
        .expect("url")
        .port()
        .expect("port");
    for local in [server.uri(), format!("http://localhost:{port}")] {
        let outcome = common::connect(base.clone(), &local)
            .push("Account", &account(), &RecordState::new())
            .await;
        assert_eq!(
            outcome.status,
            PushStatus::Created,
            "{local}: {:?}",
            outcome.error
        );
    }
}

#[test]
fn plain_http_oauth_urls_are_refused_unless_loopback() {
    let definition = Definition::load(SourceFile::new(
        "generic.yaml",
        generic_with(|t| t.replacen("tokenUrl: https://", "tokenUrl: http://", 1)),
    ))
    .expect("loads");
    let error = OAuthSettings::from_openapi(&definition.openapi()).expect_err("refused");
    assert!(
        error
            .message
            .contains("`tokenUrl` `http://auth.example.com/token`")
            && error.message.contains("use https"),
        "{}",
        error.message
    );
    let engine = common::engine("generic.yaml");
    let secure = engine.plan().oauth().expect("https is fine").clone();
    let credentials = ClientCredentials {
        id: "client".into(),
        secret: None,
    };
    let provider = |token_url: &str| {
        let settings = OAuthSettings {
            token_url: token_url.to_owned(),
            ..secure.clone()
        };
        OAuth2Provider::new(
            settings,
            credentials.clone(),
            Arc::new(MemoryTokenStore::new(None)),
        )
    };
    assert!(provider("http://auth.example.com/token").is_err());
    assert!(provider("http://127.0.0.1:9/token").is_ok());
    assert!(provider("http://[::1]:9/token").is_ok());
}

/// The generic fixture with its base path given by a variable right after the host, as eBay's
/// descriptions write it: `https://api.example.com{basePath}`.
fn base_path_variable() -> String {
    generic_with(|text| {
        text.replace(
            "  - url: https://api.example.com/{tenant}\n    variables:\n      tenant:\n        default: acme",
            "  - url: https://api.example.com{tenant}\n    variables:\n      tenant:\n        default: /acme/v1",
        )
    })
}

#[tokio::test]
async fn a_base_path_variable_after_the_host_is_the_path_and_never_the_host() {
    let text = base_path_variable();
    let definition = Definition::load(SourceFile::new("generic.yaml", text)).expect("loads");
    let engine = Engine::load(definition).expect("loads").engine;
    let transport = Arc::new(syncdef_engine::RecordingTransport::synthesizing());
    let engine = engine.with_transport(Arc::clone(&transport) as _);
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert!(outcome.is_success(), "{:?}", outcome.error);
    let sent = transport.requests();
    assert_eq!(
        sent[0].url.as_str(),
        "https://api.example.com/acme/v1/accounts"
    );
    // A value that does not start the path is host text, where `/` or `@` would move the
    // request to another host: refused.
    for value in ["evil.com/x", "@evil.com/", ":1@evil.com"] {
        let mut state = RecordState::new();
        state.server_variables.insert("tenant".into(), value.into());
        let outcome = engine.push("Account", &account(), &state).await;
        assert_eq!(
            outcome.error.map(|e| e.class),
            Some(ErrorClass::Configuration),
            "{value}"
        );
    }
    // One that does is encoded segment by segment.
    let mut state = RecordState::new();
    state
        .server_variables
        .insert("tenant".into(), "/a b/c?d".into());
    let outcome = engine.push("Account", &account(), &state).await;
    assert!(outcome.is_success(), "{:?}", outcome.error);
    let sent = transport.requests();
    let last = &sent
        .iter()
        .rev()
        .find(|r| &*r.step == "create")
        .expect("a create")
        .url;
    assert_eq!(
        last.as_str(),
        "https://api.example.com/a%20b/c%3Fd/accounts"
    );
}
