//! `syncdef sync` end to end: the binary against a platform and a QuickBooks company on
//! loopback.

use crate::common;
// The loopback fakes live with the worker's own tests, which use them too.
use crate::sync_support;

use std::path::{Path, PathBuf};

use common::Run;
use serde_json::{Value, json};
use sync_support::{Data, Platform, QuickBooks, SYNC_ENV};

const DEFINITION: &str = "catalog/quickbooks-online/definition.yaml";

/// Runs the binary off the async runtime (the fakes answer on it meanwhile).
async fn syncdef(args: Vec<String>) -> Run {
    common::syncdef_beside_servers(args, &SYNC_ENV).await
}

fn sync_args(platform: &Platform, books: &QuickBooks, state: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "sync",
        "--platform",
        &platform.uri(),
        DEFINITION,
        "--state",
        &state.display().to_string(),
        "--base-url",
        &books.base(),
        "--page-size",
        "40",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| (*s).to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_pushes_once_then_nothing_and_status_counts() {
    let platform = Platform::start(Data::generate(150, 120)).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite");

    let first = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Invoice,Account"],
    ))
    .await;
    assert_eq!(first.code, 0, "{}", first.stderr);
    insta::assert_snapshot!("sync_first_run", first.stdout);
    assert_eq!(books.creates("Customer"), 150);
    assert_eq!(books.creates("Invoice"), 120);

    let second = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account,Invoice", "--format", "json"],
    ))
    .await;
    assert_eq!(second.code, 0, "{}", second.stderr);
    let report: Value = serde_json::from_str(&second.stdout).expect("json");
    common::json_keys::assert_camel_case(&report, "sync --format json");
    assert_eq!(report["entries"]["Account"]["listed"], 0);
    assert_eq!(report["entries"]["Invoice"]["created"], 0);
    assert_eq!(books.creates("Customer"), 150);

    let status = syncdef(strings(&[
        "sync",
        "status",
        "--state",
        &state.display().to_string(),
    ]))
    .await;
    assert_eq!(status.code, 0, "{}", status.stderr);
    insta::assert_snapshot!("sync_status_clean", status.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failing_records_are_listed_by_status_with_their_errors() {
    let platform = Platform::start(Data::generate(20, 5)).await;
    let books = QuickBooks::start().await;
    books
        .books
        .lock()
        .expect("books")
        .refuse
        .insert("Account 3".to_owned());
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite");
    let run = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account,Invoice"],
    ))
    .await;
    assert_eq!(run.code, 1, "failures exit 1: {}", run.stderr);
    assert!(
        run.stdout.contains("some records need attention"),
        "{}",
        run.stdout
    );
    // Plain log lines on stderr (no terminal): the failure with its entry, id and class.
    assert!(
        run.stderr.lines().any(|l| l.contains("WARN")
            && l.contains("push failed")
            && l.contains("id=3")
            && l.contains("class=externalValidation")),
        "{}",
        run.stderr
    );

    let status = syncdef(strings(&[
        "sync",
        "status",
        "--state",
        &state.display().to_string(),
    ]))
    .await;
    assert_eq!(status.code, 1);
    let text: String = status
        .stdout
        .lines()
        .map(|line| match line.split_once("next attempt after ") {
            Some((before, _)) => format!("{before}next attempt after <T>\n"),
            None => format!("{line}\n"),
        })
        .collect();
    insta::assert_snapshot!("sync_status_failing", text);

    let json = syncdef(strings(&[
        "sync",
        "status",
        "--state",
        &state.display().to_string(),
        "--format",
        "json",
    ]))
    .await;
    let report: Value = serde_json::from_str(&json.stdout).expect("json");
    common::json_keys::assert_camel_case(&report, "sync status --format json");
    assert_eq!(report["counts"]["Account"]["failed"], 1);
    assert_eq!(report["counts"]["Account"]["done"], 19);
    assert_eq!(report["problems"][0]["platformId"], "3");
    assert_eq!(report["problems"][0]["errorClass"], "externalValidation");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_shows_the_requests_and_writes_nothing() {
    let platform = Platform::start(Data::generate(2, 1)).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite");
    let run = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account,Invoice", "--dry-run"],
    ))
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(books.request_count().await, 0);
    assert!(!state.exists());
    let text = run.stdout.replace(&books.base(), "<qbo>");
    insta::assert_snapshot!("sync_dry_run", text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mistakes_are_usage_errors_that_say_what_to_do() {
    let platform = Platform::start(Data::generate(1, 0)).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite");
    let unknown = syncdef(sync_args(&platform, &books, &state, &["--entry", "Acount"])).await;
    assert_eq!(unknown.code, 2);
    assert_eq!(
        unknown.stderr,
        "syncdef: the definition has no entry `Acount`; it has: Account, Invoice, Product, Payment\n"
    );
    // Each refused before anything is sent, saying what to change.
    for (extra, says) in [
        (&["--since", "last week"][..], "--since"),
        (
            &["--pushers", "4"],
            "--pushers 4 needs a state shared through PostgreSQL",
        ),
        (&["--pushers", "0"], "at least 1"),
        (&["--pushers", "100000"], "more than 64"),
        (
            &["--alive-file", "/nonexistent/dir/alive.json"],
            "give a path in a directory that exists",
        ),
    ] {
        let mut args = vec!["--entry", "Account"];
        args.extend_from_slice(extra);
        let run = syncdef(sync_args(&platform, &books, &state, &args)).await;
        assert_eq!(run.code, 2, "{extra:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{extra:?}: {}", run.stderr);
    }
    assert_eq!(books.request_count().await, 0);

    let status = syncdef(strings(&[
        "sync",
        "status",
        "--state",
        "/nonexistent/state.sqlite",
    ]))
    .await;
    assert_eq!(status.code, 2);
    assert!(
        status.stderr.contains("no sync has run"),
        "{}",
        status.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resolve_and_reset_cursor_settle_records_from_the_command_line() {
    let platform = Platform::start(Data::generate(5, 0)).await;
    let books = QuickBooks::start().await;
    books
        .books
        .lock()
        .expect("books")
        .refuse
        .insert("Account 2".to_owned());
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite");
    let state_arg = state.display().to_string();
    let run = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account"],
    ))
    .await;
    assert_eq!(run.code, 1);
    books.books.lock().expect("books").refuse.clear();

    let resolve = |id: &str| {
        strings(&[
            "sync",
            "resolve",
            "--state",
            &state_arg,
            "--entry",
            "Account",
            "--id",
            id,
            "--recreate",
        ])
    };
    let settled = syncdef(resolve("2")).await;
    assert_eq!(settled.code, 0, "{}", settled.stderr);
    assert_eq!(settled.stdout, "Account 2: the next run creates it\n");
    let done = syncdef(resolve("1")).await;
    assert_eq!(done.code, 1);
    assert_eq!(
        done.stderr,
        "syncdef: Account 1 is not waiting for a resolution (it is unknown to the state, or done); see `syncdef sync status`\n"
    );
    let neither = syncdef(strings(&[
        "sync", "resolve", "--state", &state_arg, "--entry", "Account", "--id", "2",
    ]))
    .await;
    assert_eq!(neither.code, 2, "--external-id or --recreate is required");

    // The resolution makes the record due at once, before its backoff.
    let again = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account"],
    ))
    .await;
    assert_eq!(again.code, 0, "{}", again.stdout);
    assert_eq!(books.creates("Customer"), 5);

    let reset = syncdef(strings(&[
        "sync",
        "reset-cursor",
        "--state",
        &state_arg,
        "--entry",
        "Account",
    ]))
    .await;
    assert_eq!(
        reset.stdout,
        "Account: cursor forgotten; the next run lists from --since or the beginning\n"
    );
    let rescan = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account", "--format", "json"],
    ))
    .await;
    let report: Value = serde_json::from_str(&rescan.stdout).expect("json");
    assert_eq!(report["entries"]["Account"]["listed"], 5);
    assert_eq!(report["entries"]["Account"]["unchanged"], 5);
    assert_eq!(books.creates("Customer"), 5);
}

/// Credentials of the hostile runs: distinct enough that finding one in an output is a leak.
const QBO_TOKEN: &str = "qbo-access-Zr8kP2";
const QBO_REFRESH: &str = "qbo-refresh-Hn4tW9";
const QBO_CLIENT_SECRET: &str = "qbo-client-secret-M3v";
const PLATFORM_SECRET: &str = "platform-secret-B2r";
const PLATFORM_PASSWORD: &str = "platform-pass-J6yQ";

static HOSTILE_ENV: [(&str, &str); 7] = [
    ("SYNCDEF_PLATFORM_CLIENT_KEY", "key"),
    ("SYNCDEF_PLATFORM_CLIENT_SECRET", PLATFORM_SECRET),
    ("SYNCDEF_PLATFORM_USERNAME", "user"),
    ("SYNCDEF_PLATFORM_PASSWORD", PLATFORM_PASSWORD),
    ("SYNCDEF_CLIENT_ID", "qbo-client"),
    ("SYNCDEF_CLIENT_SECRET", QBO_CLIENT_SECRET),
    ("RUST_LOG", "trace"),
];

/// An external system refusing every create with `answer`.
async fn refusing(answer: wiremock::ResponseTemplate) -> wiremock::MockServer {
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::any())
        .respond_with(answer)
        .mount(&server)
        .await;
    server
}

/// A `sync` of the accounts against `external`, with the OAuth2 token store of a login, and
/// `extra` arguments.
async fn hostile_sync(
    platform: &Platform,
    external: &wiremock::MockServer,
    dir: &Path,
    extra: &[&str],
) -> Run {
    let tokens = dir.join("tokens.json");
    std::fs::write(
        &tokens,
        serde_json::json!({"access_token": QBO_TOKEN, "refresh_token": QBO_REFRESH}).to_string(),
    )
    .expect("token store");
    set_mode(&tokens, 0o600);
    let state = dir.join("state.sqlite");
    let mut args = strings(&[
        "sync",
        DEFINITION,
        "--platform",
        &platform.uri(),
        "--state",
        &state.display().to_string(),
        "--base-url",
        &format!("{}/qbo", external.uri()),
        "--token-store",
        &tokens.display().to_string(),
        "--entry",
        "Account",
    ]);
    args.extend(strings(extra));
    common::syncdef_beside_servers(args, &HOSTILE_ENV).await
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o777
}

/// Every file of the state: the database and any journal beside it.
fn state_bytes(dir: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir).expect("dir").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("state.sqlite") {
            bytes.extend(std::fs::read(entry.path()).expect("state file"));
        }
    }
    bytes
}

fn holds(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

async fn status_of(dir: &Path, format: &str) -> Run {
    let state = dir.join("state.sqlite");
    syncdef(strings(&[
        "sync",
        "status",
        "--state",
        &state.display().to_string(),
        "--format",
        format,
    ]))
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_echoed_by_the_external_system_are_never_stored_printed_or_logged() {
    let platform = Platform::start(Data::generate(2, 0)).await;
    let basic = {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(format!("key:{PLATFORM_SECRET}"))
    };
    let echo = format!(
        "token {QBO_TOKEN}, refresh {QBO_REFRESH}, client {QBO_CLIENT_SECRET}, platform \
         {PLATFORM_PASSWORD} {PLATFORM_SECRET} {basic} platform-token"
    );
    let external = refusing(
        wiremock::ResponseTemplate::new(400)
            .insert_header("WWW-Authenticate", format!("Bearer error=\"{QBO_TOKEN}\""))
            .insert_header("X-Echo", PLATFORM_PASSWORD)
            .set_body_json(serde_json::json!({"Fault": {"Error": [
                {"Message": "Duplicate Name Exists Error", "Detail": echo, "code": "6240"}
            ], "type": "ValidationFault"}})),
    )
    .await;
    let dir = tempfile::tempdir().expect("dir");
    let run = hostile_sync(&platform, &external, dir.path(), &[]).await;
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("push failed"), "{}", run.stderr);
    let human = status_of(dir.path(), "human").await;
    let json = status_of(dir.path(), "json").await;
    assert_eq!(human.code, 1, "{}", human.stderr);
    // The vendor's reason and code are kept; only the credentials are masked.
    assert!(
        human
            .stdout
            .contains("Duplicate Name Exists Error: token ***, refresh ***, client ***, platform *** *** *** *** (code 6240)"),
        "{}",
        human.stdout
    );
    let stored = state_bytes(dir.path());
    let secrets = [
        QBO_TOKEN,
        QBO_REFRESH,
        QBO_CLIENT_SECRET,
        PLATFORM_PASSWORD,
        PLATFORM_SECRET,
        basic.as_str(),
        "platform-token",
    ];
    for secret in secrets {
        for (what, text) in [
            ("sync stdout", &run.stdout),
            ("sync logs", &run.stderr),
            ("status", &human.stdout),
            ("status --format json", &json.stdout),
        ] {
            assert!(!text.contains(secret), "{what} shows {secret}:\n{text}");
        }
        assert!(!holds(&stored, secret), "the state file holds {secret}");
    }
    // The same run logging JSON for a collector: one object per line, as masked as the text.
    let json_dir = tempfile::tempdir().expect("dir");
    let logged = hostile_sync(
        &platform,
        &external,
        json_dir.path(),
        &["--log-format", "json"],
    )
    .await;
    assert_eq!(logged.code, 1, "{}", logged.stderr);
    let lines: Vec<Value> = logged
        .stderr
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    let failed = lines
        .iter()
        .find(|line| line["fields"]["message"] == "push failed")
        .unwrap_or_else(|| panic!("no `push failed` event:\n{}", logged.stderr));
    assert_eq!(failed["level"], "WARN", "{failed}");
    // Inside the record's span: which record the line is about, whatever logged it.
    assert_eq!(failed["span"]["name"], "record", "{failed}");
    assert_eq!(failed["span"]["entry"], "Account", "{failed}");
    assert!(
        failed["target"]
            .as_str()
            .is_some_and(|t| t.starts_with("syncdef_worker"))
    );
    assert!(
        failed.to_string().contains("Duplicate Name Exists Error"),
        "{failed}"
    );
    for secret in secrets {
        assert!(
            !logged.stderr.contains(secret),
            "JSON logs show {secret}:\n{}",
            logged.stderr
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_error_answer_leaves_a_bounded_state_and_status() {
    let platform = Platform::start(Data::generate(3, 0)).await;
    let huge = "E".repeat(6 * 1024 * 1024);
    let external = refusing(wiremock::ResponseTemplate::new(400).set_body_json(
        serde_json::json!({"Fault": {"Error": [{"Message": huge, "code": "6000"}]}}),
    ))
    .await;
    let dir = tempfile::tempdir().expect("dir");
    let run = hostile_sync(&platform, &external, dir.path(), &[]).await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    let limit = 3 * (64 * 1024 + 1024);
    assert!(
        run.stdout.len() < limit,
        "sync output: {} bytes",
        run.stdout.len()
    );
    // Three failed records, each one stored error of at most 64 KiB (and its log line).
    assert!(
        run.stderr.len() < 2 * limit,
        "sync logs: {} bytes",
        run.stderr.len()
    );
    let stored = state_bytes(dir.path());
    assert!(stored.len() < 2 * limit, "state: {} bytes", stored.len());
    for format in ["human", "json"] {
        let status = status_of(dir.path(), format).await;
        assert!(
            status.stdout.len() < 2 * limit,
            "status: {} bytes",
            status.stdout.len()
        );
        assert!(
            status.stdout.contains(&format!(
                "bytes shown; {} bytes in all]",
                6 * 1024 * 1024 + " (code 6000)".len()
            )),
            "{}",
            &status.stdout[..status.stdout.len().min(400)]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_state_is_private_to_its_owner() {
    let platform = Platform::start(Data::generate(1, 0)).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite");
    let run = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account"],
    ))
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(mode(&state), 0o600);
    // A state left readable by others (an older version, a copy) is tightened on open.
    set_mode(&state, 0o644);
    let again = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account"],
    ))
    .await;
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(mode(&state), 0o600);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_file_readable_by_others_is_refused() {
    let platform = Platform::start(Data::generate(1, 0)).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let client = dir.path().join("client.json");
    std::fs::write(
        &client,
        r#"{"client_id": "qbo-client", "client_secret": "qbo-client-secret-M3v"}"#,
    )
    .expect("client file");
    set_mode(&client, 0o644);
    let tokens = dir.path().join("tokens.json");
    std::fs::write(&tokens, r#"{"access_token": "qbo-token"}"#).expect("tokens");
    set_mode(&tokens, 0o600);
    let state = dir.path().join("state.sqlite");
    let client_arg = client.display().to_string();
    let tokens_arg = tokens.display().to_string();
    let args = sync_args(
        &platform,
        &books,
        &state,
        &[
            "--entry",
            "Account",
            "--token-store",
            &tokens_arg,
            "--client-file",
            &client_arg,
        ],
    );
    let run = syncdef(args.clone()).await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("run `chmod 600 {client_arg}`")),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("qbo-client-secret-M3v"),
        "{}",
        run.stderr
    );
    assert_eq!(books.request_count().await, 0);
    // Once private, it is read.
    set_mode(&client, 0o600);
    let run = syncdef(args).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_whose_body_breaks_its_schema_fails_alone_and_is_not_sent() {
    let mut data = Data::generate(5, 0);
    if let Some(account) = data.accounts.get_mut(&3) {
        account["name"] = Value::from("A".repeat(602));
    }
    let platform = Platform::start(data).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite");
    let run = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account"],
    ))
    .await;
    assert_eq!(run.code, 1, "failures exit 1: {}", run.stderr);
    // The four others are pushed; the long name never reaches QuickBooks.
    assert_eq!(books.creates("Customer"), 4);
    assert!(books.id_of("Customer", &"A".repeat(602)).is_none());
    let json = syncdef(strings(&[
        "sync",
        "status",
        "--state",
        &state.display().to_string(),
        "--format",
        "json",
    ]))
    .await;
    let report: Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(report["counts"]["Account"]["failed"], 1, "{report:#}");
    assert_eq!(report["counts"]["Account"]["done"], 4, "{report:#}");
    let problem = &report["problems"][0];
    assert_eq!(problem["platformId"], "3");
    assert_eq!(problem["errorClass"], "configuration");
    let text = problem.to_string();
    assert!(
        text.contains("maxLength 500, the value has 602 characters"),
        "{problem:#}"
    );
    assert!(text.contains("/DisplayName"), "{problem:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_keeps_polling_and_stops_cleanly_on_sigterm() {
    let platform = Platform::start(Data::generate(20, 0)).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite");
    let alive_file = dir.path().join("alive.json");
    let alive_arg = alive_file.display().to_string();
    let args = sync_args(
        &platform,
        &books,
        &state,
        &[
            "--entry",
            "Account",
            "--follow",
            "1",
            "--format",
            "json",
            "--alive-file",
            &alive_arg,
        ],
    );
    let child = common::syncdef_command(&args, &SYNC_ENV)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("syncdef starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let wait_for = |what: &str, done: &dyn Fn() -> bool| {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        !done()
    };
    while wait_for("the creates", &|| books.creates("Customer") == 20) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // A change after the first run is picked up by a later one, without a new process.
    platform.touch_account(3, 50_000, |a| a["notes"] = Value::from("changed"));
    while wait_for("the update", &|| books.updates("Customer") == 1) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // Between runs the worker keeps its alive file fresh, and the probe says so.
    let probe = || {
        syncdef(strings(&[
            "sync", "alive", "--file", &alive_arg, "--within", "5",
        ]))
    };
    let alive = probe().await;
    assert_eq!(alive.code, 0, "{}", alive.stderr);
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&alive_file).expect("alive file"))
            .expect("JSON");
    assert_eq!(written["pid"], child.id(), "{written}");
    assert_eq!(written["lastRun"]["clean"], true, "{written}");
    let stopped_at = std::time::Instant::now();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let pid = child.id().to_string();
    let waited = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        tokio::task::spawn_blocking(move || child.wait_with_output()),
    )
    .await;
    let Ok(waited) = waited else {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &pid])
            .status();
        panic!("`sync --follow` did not stop on SIGTERM");
    };
    let run: common::Run = waited.expect("waited").expect("output").into();
    assert!(
        stopped_at.elapsed() < std::time::Duration::from_secs(5),
        "SIGTERM took {:?}",
        stopped_at.elapsed()
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let reports: Vec<Value> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON report per line"))
        .collect();
    assert!(reports.len() >= 2, "{}", run.stdout);
    assert_eq!(reports[0]["entries"]["Account"]["created"], 20);
    let updated: u64 = reports
        .iter()
        .map(|r| r["entries"]["Account"]["updated"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(updated, 1, "{}", run.stdout);
    assert_eq!(books.duplicates(), Vec::<String>::new());
    assert_eq!(books.creates("Customer"), 20);
    // Stopped, it says so at once rather than after --within.
    let gone = probe().await;
    assert_eq!(gone.code, 1, "{}", gone.stderr);
    assert!(gone.stderr.contains("stopped"), "{}", gone.stderr);
}

/// A platform with `accounts` accounts, a QuickBooks fake, and a state (in the returned
/// directory) where one `syncdef sync` run pushed them all.
async fn accounts_pushed(accounts: u32) -> (Platform, QuickBooks, tempfile::TempDir, PathBuf) {
    let platform = Platform::start(Data::generate(accounts, 0)).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite");
    let pushed = syncdef(sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account"],
    ))
    .await;
    assert_eq!(pushed.code, 0, "{}", pushed.stderr);
    (platform, books, dir, state)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn external_id_refreshes_one_record_from_the_command_line() {
    let (platform, books, _dir, state) = accounts_pushed(6).await;
    let customer = books
        .id_of("Customer", "Account 3")
        .expect("account 3 became a customer");
    books
        .books
        .lock()
        .expect("books")
        .edit_customer(&customer, |c| {
            c["WebAddr"] = json!({"URI": "https://three.example"});
        });

    let refresh = |id: &str| {
        sync_args(
            &platform,
            &books,
            &state,
            &[
                "--entry",
                "Account",
                "--direction",
                "pull",
                "--external-id",
                id,
                "--format",
                "json",
            ],
        )
    };
    let run = syncdef(refresh(&customer)).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(report["pulled"]["Account"]["read"], 1, "{report}");
    assert_eq!(report["pulled"]["Account"]["updated"], 1, "{report}");
    assert_eq!(platform.data.lock().expect("data").patches.len(), 1);

    // A push and a pull at once, or an id with no entry to read it, are refused with the fix.
    let mut both = refresh(&customer);
    let at = both.iter().position(|a| a == "pull").expect("pull");
    both[at] = "both".into();
    let refused = syncdef(both).await;
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("--direction pull"),
        "{}",
        refused.stderr
    );
}

/// A pull killed (SIGKILL) while the platform is creating the accounts of new customers: the
/// next run creates none of them a second time, and every other one once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_killed_mid_create_creates_no_account_twice() {
    let (platform, books, _dir, state) = accounts_pushed(3).await;
    let customers: Vec<String> = (0..12)
        .map(|i| {
            books
                .books
                .lock()
                .expect("books")
                .add_customer(json!({ "DisplayName": format!("Made in QuickBooks {i}") }))
        })
        .collect();
    // Slow creates: the kill lands while one is sent and unanswered.
    platform.data.lock().expect("data").create_delay = Some(std::time::Duration::from_millis(400));
    let pull = sync_args(
        &platform,
        &books,
        &state,
        &["--entry", "Account", "--direction", "pull"],
    );
    let mut child = common::syncdef_command(&pull, &SYNC_ENV)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("syncdef starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while platform.data.lock().expect("data").account_creates.len() < 3 {
        assert!(
            std::time::Instant::now() < deadline,
            "the pull created nothing"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    platform.data.lock().expect("data").create_delay = None;

    // The next run: the create cut short is `unknown` (exit 1, for an operator), never sent again.
    let again = syncdef(pull.clone()).await;
    assert!(again.code == 0 || again.code == 1, "{}", again.stderr);
    let creates = platform.data.lock().expect("data").account_creates.clone();
    let mut made: Vec<&str> = creates
        .iter()
        .filter_map(|c| c["integrationId"].as_str())
        .collect();
    made.sort_unstable();
    let before = made.len();
    made.dedup();
    assert_eq!(
        made.len(),
        before,
        "an account was created twice: {creates:?}"
    );
    // Every customer has its account, except at most the one whose create was cut short.
    assert!(made.len() >= customers.len() - 1, "{made:?}");
}

/// A create of unknown outcome, sent again under its kept key: the summary says the external
/// system may have answered with the earlier create and that the record was updated after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_sent_again_under_its_kept_key_is_said_in_the_summary() {
    use syncdef_worker::state::State;
    use syncdef_worker::{InFlightCreate, RecordKey, SqliteState};

    let platform = Platform::start(Data::generate(3, 0)).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    // Without its lookups, the definition settles a create of unknown outcome by its kept key.
    let text = std::fs::read_to_string(common::root().join(DEFINITION)).expect("the definition");
    let definition = dir.path().join("definition.yaml");
    std::fs::write(&definition, sync_support::without_lookups(&text)).expect("write it");
    let state = dir.path().join("state.sqlite");
    // A process killed while account 2's create was on its way.
    let kept = InFlightCreate {
        idempotency_key: Some("0123456789abcdef0123456789abcdef".to_owned()),
        body: None,
    };
    SqliteState::open(&state)
        .expect("a state")
        .mark_in_flight(&RecordKey::new("Account", "2"), &kept, 0)
        .expect("marked in flight");
    let run = syncdef(strings(&[
        "sync",
        &definition.display().to_string(),
        "--platform",
        &platform.uri(),
        "--state",
        &state.display().to_string(),
        "--base-url",
        &books.base(),
        "--entry",
        "Account",
    ]))
    .await;
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "Account: 1 create sent again under an earlier create's idempotency key; the external system may have answered with that create, so the record was updated with its current version"
        ),
        "{}",
        run.stdout
    );
    assert_eq!(books.creates("Customer"), 3);
}
