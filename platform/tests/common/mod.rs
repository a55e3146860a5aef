//! Shared set-up of the wiremock tests: a platform on loopback with a token endpoint.

#![allow(dead_code, reason = "each test binary uses a different subset")]

use std::time::Duration;

use serde_json::json;
use syncdef_platform::{Credentials, PlatformClient, PlatformClientBuilder};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

pub const CLIENT_KEY: &str = "client-key-1";
pub const CLIENT_SECRET: &str = "client-secret-XYZ";
pub const USERNAME: &str = "api-user";
pub const PASSWORD: &str = "user-password-QRS";

pub fn credentials() -> Credentials {
    Credentials::new(CLIENT_KEY, CLIENT_SECRET, USERNAME, PASSWORD)
}

/// A token answer.
pub fn token_response(token: &str, expires_in: u64) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "access_token": token,
        "token_type": "bearer",
        "expires_in": expires_in,
    }))
}

/// Mounts a token endpoint answering `token`, valid an hour.
pub async fn mount_token(server: &MockServer, token: &str) {
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(token_response(token, 3600))
        .mount(server)
        .await;
}

/// A builder for a client of `server`, with short timeouts.
pub fn builder(server: &MockServer) -> PlatformClientBuilder {
    PlatformClient::builder(server.uri(), credentials())
        .timeout(Duration::from_secs(5))
        .connect_timeout(Duration::from_secs(2))
}

/// A server with a token endpoint and a client of it.
pub async fn server_and_client() -> (MockServer, PlatformClient) {
    let server = MockServer::start().await;
    mount_token(&server, "token-1").await;
    let client = builder(&server).build().expect("valid client");
    (server, client)
}

/// Requests received, without the token requests.
pub async fn api_requests(server: &MockServer) -> Vec<wiremock::Request> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.url.path() != "/oauth/token")
        .collect()
}

/// Requests to the token endpoint.
pub async fn token_requests(server: &MockServer) -> Vec<wiremock::Request> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.url.path() == "/oauth/token")
        .collect()
}
