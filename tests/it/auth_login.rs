//! `syncdef auth login` end to end: the binary runs the authorization-code flow against a mock
//! OAuth2 provider while the test plays the browser, following the redirect to the loopback
//! listener the binary printed.
//!
//! The provider checks the code exchange as a real one would (code, redirect URI, PKCE
//! verifier against the challenge of the authorization URL, HTTP Basic client authentication)
//! and answers `invalid_request` with the reason when something is off, so a broken exchange
//! shows up in the binary's message.

use crate::common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use url::Url;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const CLIENT_ID: &str = "syncdef-e2e-client";
const CLIENT_SECRET: &str = "client-secret-7f3a9c1d";
const CODE: &str = "auth-code-5b81e2d4";
const ACCESS_TOKEN: &str = "access-token-c04d17aa";
const REFRESH_TOKEN: &str = "refresh-token-9e62ab0f";

/// Generous on purpose: it only keeps a broken run from hanging the suite.
const TIMEOUT: Duration = Duration::from_secs(60);

/// A definition of a system whose `security` requires two of its OAuth2 scheme's three scopes.
fn oauth_definition(provider: &str) -> String {
    format!(
        r##"openapi: 3.0.3
info:
  title: A system behind OAuth2
  version: "1.0"
servers:
  - url: https://api.example.com
security:
  - testOAuth: [accounting, offline_access]
paths:
  /accounts:
    post:
      operationId: createAccount
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                name: {{type: string}}
      responses:
        "200":
          description: Created
components:
  securitySchemes:
    testOAuth:
      type: oauth2
      flows:
        authorizationCode:
          authorizationUrl: {provider}/authorize
          tokenUrl: {provider}/token
          scopes:
            accounting: Read and write the books
            offline_access: A refresh token
            payroll: Not required by `security`
synchronization:
  Account:
    description: Accounts
    module: Accounts
    push:
      create: /accounts/post
      schemasTransformer:
        createRequest:
          name: "#valueof($.account.name)"
"##
    )
}

/// A definition whose only scheme is a static bearer token: nothing to log in to.
const BEARER_DEFINITION: &str = r##"openapi: 3.0.3
info:
  title: A system with a static token
  version: "1.0"
servers:
  - url: https://api.example.com
security:
  - apiToken: []
paths:
  /accounts:
    post:
      operationId: createAccount
      responses:
        "200":
          description: Created
components:
  securitySchemes:
    apiToken:
      type: http
      scheme: bearer
synchronization:
  Account:
    description: Accounts
    module: Accounts
    push:
      create: /accounts/post
      schemasTransformer:
        createRequest:
          name: "#valueof($.account.name)"
"##;

/// What the provider learns from the authorization URL and checks the exchange against.
#[derive(Default)]
struct Authorization {
    code_challenge: Option<String>,
    redirect_uri: Option<String>,
}

/// The token endpoint: checks the exchange, then answers tokens or, when `refuse_grant`,
/// `invalid_grant` (a code that expired or was used already).
struct TokenEndpoint {
    authorization: Arc<Mutex<Authorization>>,
    refuse_grant: bool,
}

impl Respond for TokenEndpoint {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let authorization = self.authorization.lock().expect("the provider's state");
        if let Err(why) = check_exchange(request, &authorization) {
            return ResponseTemplate::new(400)
                .set_body_json(json!({"error": "invalid_request", "error_description": why}));
        }
        if self.refuse_grant {
            return ResponseTemplate::new(400).set_body_json(json!({
                "error": "invalid_grant",
                "error_description": "The authorization code is invalid or expired"
            }));
        }
        ResponseTemplate::new(200).set_body_json(json!({
            "access_token": ACCESS_TOKEN,
            "token_type": "bearer",
            "expires_in": 3600,
            "refresh_token": REFRESH_TOKEN,
            "x_refresh_token_expires_in": 8_726_400
        }))
    }
}

/// The reason a provider would refuse this code exchange (never naming a secret), if any.
fn check_exchange(request: &Request, authorization: &Authorization) -> Result<(), String> {
    let content_type = request
        .headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !content_type.starts_with("application/x-www-form-urlencoded") {
        return Err(format!("content type {content_type}"));
    }
    let form: HashMap<String, String> = url::form_urlencoded::parse(&request.body)
        .into_owned()
        .collect();
    let field = |name: &str| form.get(name).map(String::as_str);
    if field("grant_type") != Some("authorization_code") {
        return Err("grant_type is not authorization_code".into());
    }
    if field("code") != Some(CODE) {
        return Err("unknown code".into());
    }
    if field("redirect_uri") != authorization.redirect_uri.as_deref() {
        return Err("redirect_uri differs from the authorization request's".into());
    }
    let verifier = field("code_verifier").ok_or("no code_verifier")?;
    // RFC 7636 4.1: 43 to 128 characters of [A-Za-z0-9-._~].
    let well_formed = (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    if !well_formed {
        return Err("malformed code_verifier".into());
    }
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    if Some(challenge.as_str()) != authorization.code_challenge.as_deref() {
        return Err("code_verifier does not match the code_challenge (S256)".into());
    }
    let basic = format!(
        "Basic {}",
        STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"))
    );
    let sent = request
        .headers
        .get("authorization")
        .and_then(|v| v.to_str().ok());
    if sent != Some(basic.as_str()) {
        return Err("client authentication failed (HTTP Basic expected)".into());
    }
    if form.contains_key("client_secret") {
        return Err("the client secret belongs in the Authorization header only".into());
    }
    Ok(())
}

/// The mock provider, and the files of one login in a temporary directory.
struct Setup {
    provider: MockServer,
    authorization: Arc<Mutex<Authorization>>,
    dir: tempfile::TempDir,
}

impl Setup {
    async fn new(refuse_grant: bool) -> Setup {
        let provider = MockServer::start().await;
        let authorization = Arc::new(Mutex::new(Authorization::default()));
        Mock::given(method("POST"))
            .and(path("/token"))
            .respond_with(TokenEndpoint {
                authorization: authorization.clone(),
                refuse_grant,
            })
            .mount(&provider)
            .await;
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::create_dir(dir.path().join("store")).expect("the store's directory");
        let setup = Setup {
            provider,
            authorization,
            dir,
        };
        setup.write("definition.yaml", &oauth_definition(&setup.provider.uri()));
        setup.write(
            "client.json",
            &json!({"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET}).to_string(),
        );
        // A client file must be private to its owner, like the token store.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(
                setup.path("client.json"),
                std::fs::Permissions::from_mode(0o600),
            )
            .expect("chmod");
        }
        setup
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn arg(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.path(name), text).expect("a test file is written");
    }

    fn token_store(&self) -> PathBuf {
        self.path("store/tokens.json")
    }

    /// `auth login` with the client file and the token store in `store/`.
    fn login(&self, extra: &[&str]) -> Login {
        let mut args = vec![
            "auth".to_owned(),
            "login".to_owned(),
            self.arg("definition.yaml"),
            "--token-store".to_owned(),
            self.token_store().display().to_string(),
            "--client-file".to_owned(),
            self.arg("client.json"),
        ];
        args.extend(extra.iter().map(|s| (*s).to_owned()));
        Login::spawn(&args, &[])
    }

    /// The authorization URL's `code_challenge` and `redirect_uri`, told to the provider as the
    /// real one would learn them when the browser opens the URL.
    fn authorize(&self, url: &Url) {
        let query = query(url);
        let mut authorization = self.authorization.lock().expect("the provider's state");
        authorization.code_challenge = query.get("code_challenge").cloned();
        authorization.redirect_uri = query.get("redirect_uri").cloned();
    }

    /// Names in the store's directory: the token file, or nothing, and never a leftover
    /// temporary file.
    fn stored_files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.path("store"))
            .expect("the store's directory reads")
            .map(|e| {
                e.expect("a directory entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }

    async fn token_requests(&self) -> usize {
        self.provider
            .received_requests()
            .await
            .expect("the provider records requests")
            .iter()
            .filter(|r| r.url.path() == "/token")
            .count()
    }

    /// `text` with the parts that change from run to run replaced.
    fn redact(&self, text: &str, redirect: Option<&Url>) -> String {
        let mut text = text
            .replace(&self.dir.path().display().to_string(), "[TMP]")
            .replace(&self.provider.uri(), "[PROVIDER]");
        if let Some(port) = redirect.and_then(Url::port) {
            text = text.replace(&format!("127.0.0.1:{port}"), "127.0.0.1:[PORT]");
        }
        text
    }
}

fn query(url: &Url) -> HashMap<String, String> {
    url.query_pairs().into_owned().collect()
}

/// A running `syncdef auth login`. Dropping it kills the process, so a failed assertion never
/// leaves it waiting for a browser.
struct Login {
    child: Child,
    stderr_lines: mpsc::Receiver<String>,
    stderr: Vec<String>,
    stdout: Option<JoinHandle<String>>,
}

/// How a login ended.
struct Ended {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Login {
    fn spawn(args: &[String], env: &[(&str, &str)]) -> Login {
        let mut command = Command::new(env!("CARGO_BIN_EXE_syncdef"));
        command
            .args(args)
            .current_dir(common::root())
            .env("NO_COLOR", "1")
            .env_remove("RUST_LOG")
            .env_remove("SYNCDEF_CLIENT_ID")
            .env_remove("SYNCDEF_CLIENT_SECRET")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("the syncdef binary starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (send, stderr_lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut stdout = child.stdout.take().expect("stdout is piped");
        let stdout = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stdout.read_to_string(&mut text);
            text
        });
        Login {
            child,
            stderr_lines,
            stderr: Vec::new(),
            stdout: Some(stdout),
        }
    }

    /// Reads stderr up to the "Waiting for the redirect" line and returns the authorization
    /// URL printed before it.
    fn authorization_url(&mut self) -> Url {
        let deadline = Instant::now() + TIMEOUT;
        let mut url = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.stderr_lines.recv_timeout(left) {
                Ok(line) => line,
                Err(e) => panic!(
                    "no authorization URL ({e:?}); stderr so far:\n{}",
                    self.stderr.join("\n")
                ),
            };
            self.stderr.push(line.clone());
            let trimmed = line.trim();
            if trimmed.starts_with("http") && url.is_none() {
                url = Some(Url::parse(trimmed).expect("the printed URL parses"));
            }
            if let Some(redirect) = trimmed.strip_prefix("Waiting for the redirect to ") {
                let url = url.expect("the authorization URL is printed before the wait");
                assert_eq!(
                    redirect.trim_end_matches(" ..."),
                    query(&url)["redirect_uri"],
                    "the printed redirect URI is the one the URL carries"
                );
                return url;
            }
        }
    }

    /// Waits for the process to exit (killing it after [`TIMEOUT`]) and collects its output.
    fn end(&mut self) -> Ended {
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            match self.child.try_wait().expect("the child's status") {
                Some(status) => break status,
                None if Instant::now() >= deadline => {
                    let _ = self.child.kill();
                    panic!(
                        "syncdef auth login did not exit; stderr so far:\n{}",
                        self.stderr.join("\n")
                    );
                }
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        // The reader thread ends at EOF, which follows the exit.
        while let Ok(line) = self.stderr_lines.recv_timeout(TIMEOUT) {
            self.stderr.push(line);
        }
        let stdout = self
            .stdout
            .take()
            .map(|t| t.join().expect("the stdout reader"))
            .unwrap_or_default();
        Ended {
            code: status.code().unwrap_or(-1),
            stdout,
            stderr: self.stderr.join("\n"),
        }
    }
}

impl Drop for Login {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The page a browser gets from a URL: status, content type and body.
struct Page {
    status: u16,
    content_type: String,
    body: String,
}

/// The browser: follows the provider's redirect to the loopback listener.
async fn browse(url: &Url) -> Page {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TIMEOUT)
        .build()
        .expect("the browser's client");
    let response = client
        .get(url.clone())
        .send()
        .await
        .expect("the loopback listener answers");
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let body = response.text().await.expect("the page reads");
    Page {
        status,
        content_type,
        body,
    }
}

/// The redirect URI of `authorization` with `params` in its query.
fn redirect(authorization: &Url, params: &[(&str, &str)]) -> Url {
    let mut url = Url::parse(&query(authorization)["redirect_uri"]).expect("the redirect URI");
    url.query_pairs_mut().extend_pairs(params);
    url
}

/// The lines of stderr from the `syncdef:` error on (what follows the URL printout).
fn error_lines(stderr: &str) -> String {
    let start = stderr.find("syncdef: ").unwrap_or(0);
    stderr[start..].to_owned()
}

/// A login that ended refused: exit 1, its error and the browser's page as `snapshot`, and no
/// token store written.
#[track_caller]
fn assert_refused(setup: &Setup, ended: &Ended, page: &Page, snapshot: &str) {
    assert_eq!(ended.code, 1, "stderr:\n{}", ended.stderr);
    insta::assert_snapshot!(
        snapshot,
        format!(
            "{}\n--- page ({}) ---\n{}",
            error_lines(&ended.stderr),
            page.status,
            page.body
        )
    );
    assert!(
        setup.stored_files().is_empty(),
        "{:?}",
        setup.stored_files()
    );
}

fn assert_no_secrets(text: &str) {
    for secret in [CLIENT_SECRET, CODE, ACCESS_TOKEN, REFRESH_TOKEN] {
        assert!(!text.contains(secret), "`{secret}` is shown:\n{text}");
    }
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

// The provider runs on wiremock's own thread and syncdef in its own process, so the blocking
// waits on the child below stall nothing they depend on.

#[tokio::test]
async fn login_runs_the_code_flow_with_pkce_and_writes_the_token_store() {
    let setup = Setup::new(false).await;
    let mut login = setup.login(&[]);
    let url = login.authorization_url();

    assert_eq!(
        url.origin(),
        Url::parse(&setup.provider.uri()).unwrap().origin()
    );
    assert_eq!(url.path(), "/authorize");
    let params = query(&url);
    assert_eq!(params["response_type"], "code");
    assert_eq!(params["client_id"], CLIENT_ID);
    assert_eq!(params["scope"], "accounting offline_access");
    assert_eq!(params["code_challenge_method"], "S256");
    // 32 random bytes, base64url without padding (RFC 7636 4.2).
    assert_eq!(params["code_challenge"].len(), 43, "{url}");
    assert!(params["state"].len() >= 16, "a guessable state: {url}");
    let redirect_uri = Url::parse(&params["redirect_uri"]).expect("the redirect URI parses");
    assert_eq!(redirect_uri.scheme(), "http");
    assert_eq!(redirect_uri.host_str(), Some("127.0.0.1"));
    assert!(
        redirect_uri.port().is_some_and(|p| p != 0),
        "{redirect_uri}"
    );
    assert_eq!(redirect_uri.path(), "/callback");
    // Credentials never travel in the authorization URL.
    assert!(!params.contains_key("client_secret") && !params.contains_key("code_verifier"));

    setup.authorize(&url);
    let before = now_secs();
    let page = browse(&redirect(
        &url,
        &[
            ("code", CODE),
            ("state", &params["state"]),
            ("realmId", "123"),
        ],
    ))
    .await;
    let ended = login.end();
    let after = now_secs();

    assert_eq!(ended.code, 0, "stderr:\n{}", ended.stderr);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.content_type.starts_with("text/html"),
        "{}",
        page.content_type
    );
    insta::assert_snapshot!("success_page", page.body);
    let store = setup.token_store();
    insta::assert_snapshot!("success_stdout", setup.redact(&ended.stdout, None));
    assert!(ended.stdout.contains(&store.display().to_string()));
    assert!(ended.stdout.contains("realmId=123"));
    assert_no_secrets(&ended.stdout);
    assert_no_secrets(&ended.stderr);
    assert_no_secrets(&page.body);
    assert_eq!(setup.token_requests().await, 1);

    assert_eq!(setup.stored_files(), ["tokens.json"]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&store)
            .expect("the token store exists")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "mode {mode:o}");
    }
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&store).expect("the token store reads"))
            .expect("the token store is JSON");
    let expires_at = saved["expires_at"]
        .as_u64()
        .expect("expires_at is a number");
    assert!(
        (before + 3600..=after + 3600).contains(&expires_at),
        "expires_at {expires_at} is not the exchange time + expires_in"
    );
    assert_eq!(
        saved,
        json!({
            "access_token": ACCESS_TOKEN,
            "refresh_token": REFRESH_TOKEN,
            "expires_at": expires_at
        })
    );
}

#[tokio::test]
async fn a_redirect_with_a_forged_state_is_refused_and_nothing_is_written() {
    let setup = Setup::new(false).await;
    let mut login = setup.login(&[]);
    let url = login.authorization_url();
    setup.authorize(&url);
    let page = browse(&redirect(
        &url,
        &[("code", CODE), ("state", "forged-by-another-page")],
    ))
    .await;
    let ended = login.end();

    assert_refused(&setup, &ended, &page, "forged_state");
    assert!(ended.stdout.is_empty(), "{}", ended.stdout);
    assert_eq!(setup.token_requests().await, 0, "the code was exchanged");
    assert_no_secrets(&ended.stderr);
}

#[tokio::test]
async fn a_refused_authorization_says_so_and_writes_nothing() {
    let setup = Setup::new(false).await;
    let mut login = setup.login(&[]);
    let url = login.authorization_url();
    let page = browse(&redirect(
        &url,
        &[
            ("error", "access_denied"),
            ("error_description", "The user denied the request"),
            ("state", &query(&url)["state"]),
        ],
    ))
    .await;
    let ended = login.end();

    assert_refused(&setup, &ended, &page, "access_denied");
    assert!(ended.stdout.is_empty(), "{}", ended.stdout);
    assert_eq!(setup.token_requests().await, 0);
}

#[tokio::test]
async fn a_code_the_token_endpoint_refuses_gives_a_clear_message_without_secrets() {
    let setup = Setup::new(true).await;
    let mut login = setup.login(&[]);
    let url = login.authorization_url();
    setup.authorize(&url);
    let page = browse(&redirect(
        &url,
        &[("code", CODE), ("state", &query(&url)["state"])],
    ))
    .await;
    let ended = login.end();

    assert_refused(&setup, &ended, &page, "invalid_grant");
    // The exchange itself was well formed: the refusal is the provider's invalid_grant.
    assert_eq!(setup.token_requests().await, 1);
    assert_no_secrets(&ended.stdout);
    assert_no_secrets(&ended.stderr);
    assert_no_secrets(&page.body);
}

#[tokio::test]
async fn a_definition_without_an_authorization_code_scheme_is_refused() {
    let setup = Setup::new(false).await;
    setup.write("definition.yaml", BEARER_DEFINITION);
    let mut login = setup.login(&[]);
    let ended = login.end();

    assert_eq!(ended.code, 1, "stderr:\n{}", ended.stderr);
    assert!(ended.stdout.is_empty(), "{}", ended.stdout);
    insta::assert_snapshot!("no_oauth_scheme", setup.redact(&ended.stderr, None));
    assert!(setup.stored_files().is_empty());
}

#[tokio::test]
async fn an_oauth_scheme_that_security_does_not_list_is_named() {
    let setup = Setup::new(false).await;
    let listed = "security:\n  - testOAuth: [accounting, offline_access]\n";
    let definition = oauth_definition(&setup.provider.uri());
    assert!(definition.contains(listed));
    setup.write("definition.yaml", &definition.replace(listed, ""));
    let ended = setup.login(&[]).end();

    assert_eq!(ended.code, 1, "stderr:\n{}", ended.stderr);
    insta::assert_snapshot!("unlisted_oauth_scheme", setup.redact(&ended.stderr, None));
    assert!(setup.stored_files().is_empty());
}

#[tokio::test]
async fn client_credentials_come_from_the_environment_without_a_client_file() {
    let setup = Setup::new(false).await;
    let args = [
        "auth".to_owned(),
        "login".to_owned(),
        setup.arg("definition.yaml"),
        "--token-store".to_owned(),
        setup.token_store().display().to_string(),
    ];
    let mut login = Login::spawn(
        &args,
        &[
            ("SYNCDEF_CLIENT_ID", CLIENT_ID),
            ("SYNCDEF_CLIENT_SECRET", CLIENT_SECRET),
        ],
    );
    let url = login.authorization_url();
    assert_eq!(query(&url)["client_id"], CLIENT_ID);
    setup.authorize(&url);
    browse(&redirect(
        &url,
        &[("code", CODE), ("state", &query(&url)["state"])],
    ))
    .await;
    let ended = login.end();
    assert_eq!(ended.code, 0, "stderr:\n{}", ended.stderr);
    assert_eq!(setup.stored_files(), ["tokens.json"]);
    // No redirect parameter besides code and state: no hint printed.
    assert!(!ended.stdout.contains("--var"), "{}", ended.stdout);
    assert_no_secrets(&ended.stdout);
    assert_no_secrets(&ended.stderr);

    let mut missing = Login::spawn(&args, &[]);
    let ended = missing.end();
    assert_eq!(ended.code, 2, "stderr:\n{}", ended.stderr);
    insta::assert_snapshot!("no_client_credentials", ended.stderr);
}

#[tokio::test]
async fn the_listener_uses_the_given_port_and_a_busy_one_is_reported() {
    let setup = Setup::new(false).await;
    // A port nothing else listens on once this listener is dropped.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
        .to_string();
    let mut login = setup.login(&["--port", &port]);
    let url = login.authorization_url();
    let redirect_uri = format!("http://127.0.0.1:{port}/callback");
    assert_eq!(query(&url)["redirect_uri"], redirect_uri);

    // The same port again, while the first login holds it.
    let mut second = setup.login(&["--port", &port]);
    let busy = second.end();
    assert_eq!(busy.code, 1, "stderr:\n{}", busy.stderr);
    assert!(
        busy.stderr
            .contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{}",
        busy.stderr
    );
    assert!(busy.stderr.contains("--port"), "{}", busy.stderr);

    // A browser opens connections it may never use (preconnects) and asks for a favicon:
    // neither may hold up the redirect.
    let _silent = std::net::TcpStream::connect(("127.0.0.1", url_port(&redirect_uri)))
        .expect("the listener accepts a connection");
    let mut favicon = Url::parse(&redirect_uri).expect("the redirect URI");
    favicon.set_path("/favicon.ico");
    assert_eq!(browse(&favicon).await.status, 404);

    setup.authorize(&url);
    let page = browse(&redirect(
        &url,
        &[("code", CODE), ("state", &query(&url)["state"])],
    ))
    .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let ended = login.end();
    assert_eq!(ended.code, 0, "stderr:\n{}", ended.stderr);
    assert_eq!(setup.stored_files(), ["tokens.json"]);
}

fn url_port(url: &str) -> u16 {
    Url::parse(url)
        .ok()
        .and_then(|u| u.port())
        .expect("a URL with a port")
}

#[tokio::test]
async fn a_missing_token_store_directory_is_refused_before_the_browser_is_involved() {
    let setup = Setup::new(false).await;
    let store = setup.path("no-such-dir/tokens.json").display().to_string();
    let args = [
        "auth".to_owned(),
        "login".to_owned(),
        setup.arg("definition.yaml"),
        "--token-store".to_owned(),
        store,
        "--client-file".to_owned(),
        setup.arg("client.json"),
    ];
    let mut login = Login::spawn(&args, &[]);
    let ended = login.end();
    assert_eq!(ended.code, 2, "stderr:\n{}", ended.stderr);
    assert!(!ended.stderr.contains("http"), "{}", ended.stderr);
    insta::assert_snapshot!("missing_store_directory", setup.redact(&ended.stderr, None));
}
