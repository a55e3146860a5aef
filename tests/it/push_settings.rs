//! Retry and rate-limit settings of `syncdef push` and `syncdef sync` end to end: a
//! `syncdef.toml` beside the definition (or named by `--config`) over the definition's
//! `x-syncdef`, and the command-line flags over both, against an external system answering 503.

use crate::common;
// The loopback fakes live with the worker's own tests, which use them too.
use crate::sync_support;

use std::path::{Path, PathBuf};

use common::Run;
use sync_support::{Data, Platform, SYNC_ENV};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Runs the binary off the async runtime (the mock servers answer on it meanwhile), with the
/// fake platform's credentials in its environment.
async fn syncdef(args: Vec<String>) -> Run {
    common::syncdef_beside_servers(args, &SYNC_ENV).await
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// An external system that answers every request with 503 Service Unavailable.
async fn unavailable() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    server
}

async fn posts(server: &MockServer) -> usize {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.method.as_str() == "POST")
        .count()
}

/// A copy of the generic fixture in `dir` whose `x-syncdef` asks for 4 attempts without
/// backoff; returns its path.
fn definition_in(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(common::root().join("engine/tests/fixtures/generic.yaml"))
        .expect("the fixture reads");
    let text = text.replacen(
        "\nsynchronization:",
        "\nx-syncdef:\n  retry: {maxAttempts: 4, initialBackoffMs: 0}\nsynchronization:",
        1,
    );
    assert!(text.contains("maxAttempts: 4"), "the fixture changed");
    let path = dir.join("definition.yaml");
    std::fs::write(&path, text).expect("the definition is written");
    path
}

fn push(definition: &Path, server: &MockServer, extra: &[&str]) -> Vec<String> {
    let mut list = args(&[
        "push",
        &definition.display().to_string(),
        "--entry",
        "Account",
        "--record",
        "tests/fixtures/dry_run/account.json",
        "--base-url",
        &server.uri(),
        "--format",
        "json",
    ]);
    list.extend(args(extra));
    list
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_takes_attempts_from_syncdef_toml_and_the_flag_wins() {
    let dir = tempfile::tempdir().expect("dir");
    let definition = definition_in(dir.path());
    // Only max-attempts: the definition's zero backoff stands (the run is quick).
    std::fs::write(
        dir.path().join("syncdef.toml"),
        "[retry]\nmax-attempts = 2\n",
    )
    .expect("syncdef.toml is written");
    let server = unavailable().await;

    let run = syncdef(push(&definition, &server, &[])).await;
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(json["outcome"]["error"]["class"], "transient");
    assert_eq!(
        posts(&server).await,
        2,
        "syncdef.toml's 2 attempts, not the definition's 4"
    );

    let run = syncdef(push(&definition, &server, &["--max-attempts", "1"])).await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        posts(&server).await,
        2 + 1,
        "--max-attempts 1 over syncdef.toml"
    );

    // Without syncdef.toml the definition's 4 attempts stand.
    std::fs::remove_file(dir.path().join("syncdef.toml")).expect("removed");
    let run = syncdef(push(&definition, &server, &[])).await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(posts(&server).await, 3 + 4, "x-syncdef's 4 attempts");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_config_names_a_syncdef_toml_elsewhere() {
    let dir = tempfile::tempdir().expect("dir");
    let definition = definition_in(dir.path());
    std::fs::write(
        dir.path().join("syncdef.toml"),
        "[retry]\nmax-attempts = 2\n",
    )
    .expect("written");
    let other = dir.path().join("ci.toml");
    std::fs::write(&other, "[retry]\nmax-attempts = 3\n").expect("written");
    let server = unavailable().await;
    let run = syncdef(push(
        &definition,
        &server,
        &["--config", &other.display().to_string()],
    ))
    .await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        posts(&server).await,
        3,
        "--config replaces the nearest file"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_syncdef_toml_stops_the_push_before_anything_is_sent() {
    let dir = tempfile::tempdir().expect("dir");
    let definition = definition_in(dir.path());
    let toml = dir.path().join("syncdef.toml");
    std::fs::write(&toml, "[retry]\nmax-attempt = 2\n").expect("written");
    let server = unavailable().await;
    let run = syncdef(push(&definition, &server, &[])).await;
    assert_eq!(run.code, 2, "a usage error, as in lint: {}", run.stderr);
    let stderr = run
        .stderr
        .replace(&toml.display().to_string(), "<dir>/syncdef.toml");
    insta::assert_snapshot!(stderr, @r"
    syncdef: <dir>/syncdef.toml: TOML parse error at line 2, column 1
      |
    2 | max-attempt = 2
      | ^^^^^^^^^^^
    unknown field `max-attempt`, expected one of `max-attempts`, `initial-backoff-ms`, `max-backoff-ms`, `deadline-ms`, `statuses`
    did you mean `max-attempts`?
    ");
    assert_eq!(posts(&server).await, 0);
}

#[test]
fn flag_values_are_checked_when_parsed() {
    let base = [
        "push",
        "engine/tests/fixtures/generic.yaml",
        "--entry",
        "Account",
        "--record",
        "tests/fixtures/dry_run/account.json",
    ];
    for (flag, value, says) in [
        ("--max-attempts", "0", "give at least 1"),
        (
            "--retry-deadline",
            "30",
            "has no unit: write `30s`, `30ms` or `30m`",
        ),
        ("--requests-per-minute", "0", "\"unlimited\" for none"),
        ("--concurrency", "many", "or `unlimited`"),
    ] {
        let mut list = base.to_vec();
        list.extend([flag, value]);
        let run = common::syncdef(&list);
        assert_eq!(run.code, 2, "{flag} {value}: {}", run.stderr);
        assert!(
            run.stderr.contains(flag) && run.stderr.contains(says),
            "{flag} {value}: {}",
            run.stderr
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_takes_attempts_from_the_config_and_the_flag_wins() {
    let platform = Platform::start(Data::generate(1, 0)).await;
    let server = unavailable().await;
    let dir = tempfile::tempdir().expect("dir");
    let config = dir.path().join("syncdef.toml");
    // The catalog definition waits a second or more between attempts; none here.
    std::fs::write(
        &config,
        "[retry]\nmax-attempts = 2\ninitial-backoff-ms = 0\n",
    )
    .expect("written");
    let run_with = |state: &str, extra: &[&str]| {
        let mut list = args(&[
            "sync",
            "--platform",
            &platform.uri(),
            "catalog/quickbooks-online/definition.yaml",
            "--state",
            &dir.path().join(state).display().to_string(),
            "--base-url",
            &format!("{}/qbo", server.uri()),
            "--entry",
            "Account",
            "--config",
            &config.display().to_string(),
        ]);
        list.extend(args(extra));
        syncdef(list)
    };
    let run = run_with("first.sqlite", &[]).await;
    assert_eq!(run.code, 1, "the record failed: {}", run.stderr);
    assert_eq!(posts(&server).await, 2, "the config's 2 attempts");
    let run = run_with("second.sqlite", &["--max-attempts", "1"]).await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        posts(&server).await,
        2 + 1,
        "--max-attempts 1 over the config"
    );
}

#[test]
fn lint_checks_the_push_tables_too() {
    let dir = tempfile::tempdir().expect("dir");
    definition_in(dir.path());
    let toml = dir.path().join("syncdef.toml");
    let lint = |text: &str| {
        std::fs::write(&toml, text).expect("written");
        common::syncdef(&["lint", &dir.path().display().to_string()])
    };
    let run = lint("[retry]\nmax-attempts = 2\n[rate-limit]\nconcurrency = \"unlimited\"\n");
    assert_ne!(run.code, 2, "a valid file: {}", run.stderr);
    let run = lint("[retry]\nmax-attempts = 0\n");
    assert_eq!(run.code, 2, "{}", run.stderr);
    // lint reports a bad syncdef.toml with its findings, on stdout.
    assert!(
        run.stdout.contains("max-attempts = 0") && run.stdout.contains("give at least 1"),
        "{}",
        run.stdout
    );
}
