//! Non-2xx answers, timeouts and connection failures become typed, classified errors.

use crate::common;

use std::time::Duration;

use common::*;
use syncdef_platform::ids::AccountId;
use syncdef_platform::{Credentials, PlatformClient, PlatformError};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test]
async fn not_found_names_the_request_and_is_not_retryable() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(404).set_body_string(r#"{"message":"Account not found"}"#),
        )
        .mount(&server)
        .await;

    let error = client.account(AccountId(9)).await.unwrap_err();
    assert!(error.is_not_found());
    assert!(!error.is_retryable());
    let text = error.to_string();
    let expected = format!("GET {}/api/accounts/9 failed with HTTP 404", server.uri());
    assert!(text.starts_with(&expected), "{text}");
    assert!(text.contains("Account not found"), "{text}");
}

#[tokio::test]
async fn statuses_are_classified() {
    for (status, retryable) in [
        (400, false),
        (403, false),
        (408, true),
        (429, true),
        (500, true),
        (501, false),
        (502, true),
        (503, true),
        (504, true),
    ] {
        let (server, client) = server_and_client().await;
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(status))
            .mount(&server)
            .await;
        let error = client.account(AccountId(1)).await.unwrap_err();
        assert_eq!(error.status(), Some(status));
        assert_eq!(error.is_retryable(), retryable, "{status}");
    }
}

#[tokio::test]
async fn redirects_are_reported_not_followed() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(301)
                .insert_header("Location", "https://bss.example.com/api/accounts/1"),
        )
        .mount(&server)
        .await;

    let error = client.account(AccountId(1)).await.unwrap_err();
    assert_eq!(error.status(), Some(301));
    let text = error.to_string();
    assert!(
        text.contains("Location: https://bss.example.com/api/accounts/1"),
        "{text}"
    );
    assert!(text.contains("set the base URL"), "{text}");
}

#[tokio::test]
async fn retry_after_is_reported() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(429).insert_header("Retry-After", "7"))
        .mount(&server)
        .await;

    let error = client.account(AccountId(1)).await.unwrap_err();
    assert!(error.is_retryable());
    assert_eq!(error.retry_after(), Some(Duration::from_secs(7)));
    assert!(error.to_string().contains("rate limited"), "{error}");
}

#[tokio::test]
async fn long_bodies_are_truncated() {
    let (server, client) = server_and_client().await;
    let body = "é".repeat(5000);
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(500).set_body_string(body))
        .mount(&server)
        .await;

    let error = client.account(AccountId(1)).await.unwrap_err();
    let PlatformError::Status { body, .. } = &error else {
        panic!("expected a status error, got {error:?}");
    };
    assert!(body.len() <= 2048, "{}", body.len());
    assert!(
        body.ends_with(" bytes shown; 10000 bytes in all]"),
        "{body}"
    );
}

#[tokio::test]
async fn a_slow_platform_is_a_retryable_timeout() {
    let server = MockServer::start().await;
    mount_token(&server, "token-1").await;
    Mock::given(method("GET"))
        .and(path("/api/accounts/1"))
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(3)))
        .mount(&server)
        .await;
    let client = builder(&server)
        .timeout(Duration::from_millis(300))
        .build()
        .expect("client");

    let error = client.account(AccountId(1)).await.unwrap_err();
    assert!(matches!(error, PlatformError::Timeout { .. }), "{error:?}");
    assert!(error.is_retryable());
    assert!(error.to_string().contains("timed out"), "{error}");
}

#[tokio::test]
async fn an_unreachable_platform_is_a_retryable_connection_error() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let client = PlatformClient::builder(format!("http://127.0.0.1:{port}"), credentials())
        .connect_timeout(Duration::from_secs(2))
        .build()
        .expect("client");

    let error = client.account(AccountId(1)).await.unwrap_err();
    assert!(matches!(error, PlatformError::Connect { .. }), "{error:?}");
    assert!(error.is_retryable());
    assert!(
        error.to_string().contains("check the platform URL"),
        "{error}"
    );
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_decode_error() {
    let (server, client) = server_and_client().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>maintenance</html>"))
        .mount(&server)
        .await;
    let error = client.account(AccountId(1)).await.unwrap_err();
    assert!(matches!(error, PlatformError::Decode { .. }), "{error:?}");
    assert!(!error.is_retryable());
    assert!(
        error.to_string().contains("<html>maintenance</html>"),
        "{error}"
    );
}

#[test]
fn bad_configuration_is_refused_at_build_time() {
    let build = |url: &str| {
        PlatformClient::builder(url, Credentials::new("k", "s", "u", "p"))
            .build()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(build("http://bss.example.com").contains("clear text"));
    assert!(build("https://user:pw@bss.example.com").contains("must not contain a user"));
    assert!(build("not a url").contains("is not a URL"));
}
