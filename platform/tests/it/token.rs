//! The token: password grant with HTTP Basic, reuse, expiry, 401 retry, shared refresh.

use crate::common;

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::*;
use serde_json::json;
use syncdef_platform::ids::AccountId;
use syncdef_platform::{PlatformError, Secret};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn account_ok() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": 1, "name": "Acme"}))
}

#[tokio::test]
async fn token_request_uses_basic_auth_and_a_password_form() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .and(path("/api/accounts/1"))
        .respond_with(account_ok())
        .mount(&server)
        .await;

    client.account(AccountId(1)).await.expect("account");

    let tokens = token_requests(&server).await;
    assert_eq!(tokens.len(), 1);
    let request = &tokens[0];
    let basic = format!(
        "Basic {}",
        STANDARD.encode(format!("{CLIENT_KEY}:{CLIENT_SECRET}"))
    );
    assert_eq!(
        request
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok()),
        Some(basic.as_str())
    );
    assert_eq!(
        request
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/x-www-form-urlencoded")
    );
    let form: Vec<(String, String)> = url::form_urlencoded::parse(&request.body)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    assert_eq!(
        form,
        vec![
            ("grant_type".to_owned(), "password".to_owned()),
            ("username".to_owned(), USERNAME.to_owned()),
            ("password".to_owned(), PASSWORD.to_owned()),
        ]
    );
    let body = String::from_utf8_lossy(&request.body);
    assert!(
        !body.contains(CLIENT_SECRET),
        "the client secret must travel only in Basic"
    );
    assert!(
        !body.contains(CLIENT_KEY),
        "the client key must travel only in Basic"
    );
}

#[tokio::test]
async fn token_is_reused_while_fresh() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .and(path("/api/accounts/1"))
        .and(header("authorization", "Bearer token-1"))
        .respond_with(account_ok())
        .expect(3)
        .mount(&server)
        .await;

    for _ in 0..3 {
        client.account(AccountId(1)).await.expect("account");
    }
    assert_eq!(token_requests(&server).await.len(), 1);
}

#[tokio::test]
async fn token_is_replaced_shortly_before_expiry() {
    let server = MockServer::start().await;
    // Lives 4 s; the 60 s skew is capped at half the lifetime, so it is replaced after 2 s.
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(token_response("token-1", 4))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(token_response("token-2", 3600))
        .mount(&server)
        .await;
    for token in ["token-1", "token-2"] {
        Mock::given(method("GET"))
            .and(path("/api/accounts/1"))
            .and(header("authorization", format!("Bearer {token}").as_str()))
            .respond_with(account_ok())
            .expect(2)
            .mount(&server)
            .await;
    }
    let client = builder(&server)
        .token_skew(Duration::from_secs(60))
        .build()
        .expect("client");

    client.account(AccountId(1)).await.expect("first call");
    client.account(AccountId(1)).await.expect("reuses token-1");
    tokio::time::sleep(Duration::from_millis(2100)).await;
    client.account(AccountId(1)).await.expect("refreshes");
    client.account(AccountId(1)).await.expect("reuses token-2");
    assert_eq!(token_requests(&server).await.len(), 2);
}

#[tokio::test]
async fn a_token_said_to_expire_at_once_is_used_until_refused_and_reported() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(token_response("token-1", 0))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/accounts/1"))
        .respond_with(account_ok())
        .mount(&server)
        .await;
    let client = builder(&server).build().expect("client");
    for _ in 0..49 {
        client.account(AccountId(1)).await.expect("account");
    }
    assert_eq!(token_requests(&server).await.len(), 1);
    let warnings = client.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("`expires_in: 0`"), "{warnings:?}");
}

#[tokio::test]
async fn a_401_refreshes_the_token_and_retries_once() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(token_response("revoked", 3600))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    mount_token(&server, "token-2").await;
    Mock::given(method("GET"))
        .and(header("authorization", "Bearer revoked"))
        .respond_with(ResponseTemplate::new(401))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/accounts/1"))
        .and(header("authorization", "Bearer token-2"))
        .respond_with(account_ok())
        .expect(1)
        .mount(&server)
        .await;
    let client = builder(&server).build().expect("client");

    let account = client.account(AccountId(1)).await.expect("retried");
    assert_eq!(account["name"], "Acme");
    assert_eq!(token_requests(&server).await.len(), 2);
}

#[tokio::test]
async fn a_second_401_is_an_error_without_more_retries() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(401).set_body_string("denied"))
        .expect(2)
        .mount(&server)
        .await;

    let error = client.account(AccountId(1)).await.unwrap_err();
    assert_eq!(error.status(), Some(401));
    assert!(!error.is_retryable());
    assert!(error.to_string().contains("still unauthorized"), "{error}");
    assert_eq!(token_requests(&server).await.len(), 2);
}

#[tokio::test]
async fn concurrent_callers_share_one_token_request() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(token_response("token-1", 3600).set_delay(Duration::from_millis(200)))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .respond_with(account_ok())
        .expect(8)
        .mount(&server)
        .await;
    let client = builder(&server).build().expect("client");

    let calls = (0..8).map(|i| {
        let client = client.clone();
        tokio::spawn(async move { client.account(AccountId(i)).await })
    });
    for call in futures::future::join_all(calls).await {
        call.expect("task").expect("account");
    }
}

#[tokio::test]
async fn concurrent_401s_share_one_refresh() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(token_response("revoked", 3600))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(token_response("token-2", 3600).set_delay(Duration::from_millis(100)))
        .mount(&server)
        .await;
    // The warm-up call succeeds with the first token, so every concurrent call starts with it.
    Mock::given(method("GET"))
        .and(path("/api/accounts/0"))
        .and(header("authorization", "Bearer revoked"))
        .respond_with(account_ok())
        .with_priority(1)
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(header("authorization", "Bearer revoked"))
        .respond_with(ResponseTemplate::new(401).set_delay(Duration::from_millis(50)))
        .expect(5)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(header("authorization", "Bearer token-2"))
        .respond_with(account_ok())
        .expect(5)
        .mount(&server)
        .await;
    let client = builder(&server).build().expect("client");
    client.account(AccountId(0)).await.expect("warm-up");

    let calls = (1..6).map(|i| {
        let client = client.clone();
        tokio::spawn(async move { client.account(AccountId(i)).await })
    });
    for call in futures::future::join_all(calls).await {
        call.expect("task").expect("account");
    }
    assert_eq!(token_requests(&server).await.len(), 2);
}

#[tokio::test]
async fn a_refused_token_request_names_the_fix_and_hides_secrets() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(400).set_body_string(format!(
            r#"{{"error":"invalid_grant","tried":"{PASSWORD}"}}"#
        )))
        .mount(&server)
        .await;
    let client = builder(&server).build().expect("client");

    let error = client.account(AccountId(1)).await.unwrap_err();
    assert!(
        matches!(error, PlatformError::TokenRefused { status: 400, .. }),
        "{error:?}"
    );
    let shown = format!("{error} {error:?}");
    assert!(shown.contains("invalid_grant"), "{shown}");
    assert!(shown.contains("client key and secret"), "{shown}");
    for secret in [PASSWORD, CLIENT_SECRET] {
        assert!(!shown.contains(secret), "secret leaked: {shown}");
    }
    assert!(api_requests(&server).await.is_empty());
}

#[tokio::test]
async fn a_token_answer_without_a_token_is_an_error() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"token_type": "bearer"})))
        .mount(&server)
        .await;
    let client = builder(&server).build().expect("client");

    let error = client.account(AccountId(1)).await.unwrap_err();
    assert!(
        error.to_string().contains("`access_token` is missing"),
        "{error}"
    );
}

#[tokio::test]
async fn debug_output_of_the_client_hides_credentials_and_tokens() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .respond_with(account_ok())
        .mount(&server)
        .await;
    client.account(AccountId(1)).await.expect("account");

    let shown = format!("{client:?}");
    for secret in [PASSWORD, CLIENT_SECRET, "token-1"] {
        assert!(!shown.contains(secret), "leaked {secret}: {shown}");
    }
    assert_eq!(format!("{:?}", Secret::new(PASSWORD)), "Secret(***)");
}

#[tokio::test]
async fn an_api_error_echoing_credentials_and_the_token_hides_them() {
    let server = MockServer::start().await;
    mount_token(&server, "token-echoed-1").await;
    let basic = STANDARD.encode(format!("{CLIENT_KEY}:{CLIENT_SECRET}"));
    Mock::given(method("GET"))
        .and(path("/api/accounts/1"))
        .respond_with(ResponseTemplate::new(500).set_body_string(format!(
            "echo: token-echoed-1 {PASSWORD} {CLIENT_SECRET} Basic {basic}"
        )))
        .mount(&server)
        .await;
    let client = builder(&server).build().expect("client");

    let error = client.account(AccountId(1)).await.unwrap_err();
    let shown = format!("{error} {error:?}");
    assert!(shown.contains("echo: "), "{shown}");
    for secret in ["token-echoed-1", PASSWORD, CLIENT_SECRET, basic.as_str()] {
        assert!(!shown.contains(secret), "leaked {secret}: {shown}");
    }
}
