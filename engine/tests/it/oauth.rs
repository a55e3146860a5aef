//! OAuth2: refresh once on a 401, the rotated refresh token persisted before use, the file
//! store's permissions.

use crate::common;

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::json;
use syncdef_engine::auth::{
    AuthError, ClientCredentials, FileTokenStore, OAuth2Provider, OAuthSettings, Secret,
    StoredTokens, TokenStore,
};
use syncdef_engine::{ErrorClass, PushStatus, RecordState, ReqwestTransport};
use url::Url;
use wiremock::matchers::{body_string_contains, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn settings(server: &MockServer) -> OAuthSettings {
    let engine = common::engine("generic.yaml");
    let mut settings = engine.plan().oauth().expect("an OAuth2 scheme").clone();
    assert_eq!(settings.token_url, "https://auth.example.com/token");
    settings.token_url = format!("{}/token", server.uri());
    settings
}

fn credentials() -> ClientCredentials {
    ClientCredentials {
        id: "client-1".into(),
        secret: Some(Secret::new("client-secret-1")),
    }
}

fn initial() -> StoredTokens {
    StoredTokens {
        access_token: Secret::new("old-access"),
        refresh_token: Some(Secret::new("refresh-1")),
        // Far from expiry: only the 401 triggers the refresh.
        expires_at: Some(u64::MAX / 2),
    }
}

/// `rejected`: how many requests should arrive with the old token.
async fn mount_api(server: &MockServer, rejected: u64) {
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .and(header("authorization", "Bearer old-access"))
        .respond_with(ResponseTemplate::new(401))
        .expect(rejected)
        .mount(server)
        .await;
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .and(header("authorization", "Bearer new-access"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 3, "success": true})))
        .mount(server)
        .await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(body_string_contains("grant_type=refresh_token"))
        .and(body_string_contains("refresh_token=refresh-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "new-access", "token_type": "bearer", "expires_in": 3600,
            "refresh_token": "refresh-2"
        })))
        .expect(1)
        .mount(server)
        .await;
}

fn engine(server: &MockServer, store: Arc<dyn TokenStore>) -> syncdef_engine::Engine {
    let provider = OAuth2Provider::new(settings(server), credentials(), store).unwrap();
    common::engine("generic.yaml")
        .with_transport(Arc::new(ReqwestTransport::new().unwrap()))
        .with_token_provider(Arc::new(provider))
        .with_base_url(Url::parse(&server.uri()).unwrap())
}

#[tokio::test]
async fn a_401_refreshes_once_and_the_rotated_refresh_token_is_persisted() {
    let server = MockServer::start().await;
    mount_api(&server, 1).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tokens.json");
    let store = FileTokenStore::new(&file);
    store.save(&initial()).await.unwrap();
    let engine = engine(&server, Arc::new(store.clone()));
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    let attempts: Vec<u32> = outcome
        .exchanges
        .iter()
        .filter(|e| &*e.step == "create")
        .map(|e| e.attempt)
        .collect();
    assert_eq!(attempts, [1, 2]);
    let saved = store.load().await.unwrap().unwrap();
    assert_eq!(saved.refresh_token, Some(Secret::new("refresh-2")));
    assert_eq!(saved.access_token, Secret::new("new-access"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    // Neither token appears anywhere in the outcome.
    let shown = serde_json::to_string(&outcome).unwrap();
    assert!(!shown.contains("new-access") && !shown.contains("old-access"));
}

/// A store whose saves fail: the new access token must then never be used.
struct FailingSave(StoredTokens);

impl TokenStore for FailingSave {
    fn load(&self) -> BoxFuture<'_, Result<Option<StoredTokens>, AuthError>> {
        Box::pin(std::future::ready(Ok(Some(self.0.clone()))))
    }
    fn save<'a>(&'a self, _: &'a StoredTokens) -> BoxFuture<'a, Result<(), AuthError>> {
        Box::pin(std::future::ready(Err(AuthError::new("disk full"))))
    }
}

#[tokio::test]
async fn a_refresh_that_cannot_be_persisted_is_not_used() {
    let server = MockServer::start().await;
    mount_api(&server, 1).await;
    let engine = engine(&server, Arc::new(FailingSave(initial())));
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    let error = outcome.error.expect("the push fails");
    assert_eq!(error.class, ErrorClass::Authentication);
    assert!(error.message.contains("disk full"));
    let used_new = server.received_requests().await.unwrap().iter().any(|r| {
        r.headers
            .get("authorization")
            .is_some_and(|v| v == "Bearer new-access")
    });
    assert!(!used_new, "the unsaved access token was sent");
}

#[tokio::test]
async fn an_expiring_token_is_refreshed_before_the_request() {
    let server = MockServer::start().await;
    mount_api(&server, 0).await;
    let store = syncdef_engine::auth::MemoryTokenStore::new(Some(StoredTokens {
        expires_at: Some(0),
        ..initial()
    }));
    let store = Arc::new(store);
    let engine = engine(&server, store.clone());
    let outcome = engine
        .push("Account", &common::account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    // Sent once, already with the new token.
    assert_eq!(
        outcome
            .exchanges
            .iter()
            .filter(|e| &*e.step == "create")
            .count(),
        1
    );
    assert_eq!(
        store.load().await.unwrap().unwrap().refresh_token,
        Some(Secret::new("refresh-2"))
    );
}

#[cfg(unix)]
#[tokio::test]
async fn a_token_file_readable_by_others_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tokens.json");
    std::fs::write(&file, r#"{"access_token": "a"}"#).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let error = FileTokenStore::new(&file).load().await.unwrap_err();
    assert!(error.message.contains("chmod 600"), "{}", error.message);
    assert!(!error.message.contains("\"a\""));
}

#[tokio::test]
async fn login_runs_the_code_flow_with_pkce_and_writes_the_store() {
    use syncdef_engine::auth::{LoginFlow, LoginOptions, MemoryTokenStore};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(body_string_contains("grant_type=authorization_code"))
        .and(body_string_contains("code=the-code"))
        .and(body_string_contains("code_verifier="))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "login-access", "token_type": "bearer", "expires_in": 3600,
            "refresh_token": "login-refresh"
        })))
        .expect(1)
        .mount(&server)
        .await;
    let flow = LoginFlow::start(settings(&server), credentials(), &LoginOptions::default())
        .await
        .unwrap();
    let url = flow.url().clone();
    let query: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
    assert_eq!(query["code_challenge_method"], "S256");
    assert_eq!(query["redirect_uri"], flow.redirect_uri());
    assert_eq!(query["scope"], "write");
    assert!(flow.redirect_uri().starts_with("http://127.0.0.1:"));
    // The browser: follow the redirect to the loopback listener, as the provider would.
    let redirect = Url::parse(&format!(
        "{}?code=the-code&state={}&realmId=4620816365",
        flow.redirect_uri(),
        query["state"]
    ))
    .unwrap();
    let browser = tokio::spawn(async move {
        let addr = format!("127.0.0.1:{}", redirect.port().unwrap());
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let target = format!("{}?{}", redirect.path(), redirect.query().unwrap());
        stream
            .write_all(format!("GET {target} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let mut page = String::new();
        stream.read_to_string(&mut page).await.unwrap();
        page
    });
    let store = MemoryTokenStore::default();
    let result = flow.finish(&store).await.unwrap();
    assert!(browser.await.unwrap().starts_with("HTTP/1.1 200 OK"));
    assert_eq!(result.redirect_parameters["realmId"], "4620816365");
    assert!(result.has_refresh_token);
    let saved = store.load().await.unwrap().unwrap();
    assert_eq!(saved.access_token, Secret::new("login-access"));
    assert_eq!(saved.refresh_token, Some(Secret::new("login-refresh")));
}

#[tokio::test]
async fn login_refuses_a_redirect_with_the_wrong_state() {
    use syncdef_engine::auth::{LoginFlow, LoginOptions, MemoryTokenStore};
    use tokio::io::AsyncWriteExt;

    let server = MockServer::start().await;
    let flow = LoginFlow::start(settings(&server), credentials(), &LoginOptions::default())
        .await
        .unwrap();
    let port = Url::parse(flow.redirect_uri()).unwrap().port().unwrap();
    tokio::spawn(async move {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        let _ = stream
            .write_all(b"GET /callback?code=x&state=forged HTTP/1.1\r\n\r\n")
            .await;
    });
    let error = flow.finish(&MemoryTokenStore::default()).await.unwrap_err();
    assert!(error.message.contains("state"), "{}", error.message);
}
