//! `syncdef.toml` as a user writes it: the `[retry]` and `[rate-limit]` tables read into plain
//! data, and every mistake refused with the file, the line, the key and what to write instead.

use std::num::NonZeroU32;
use std::path::Path;

use syncdef_validator::RuleSettings;
use syncdef_validator::push_config::{Attempts, Limit, PushConfig, RetryStatus};

fn parse(text: &str) -> Result<RuleSettings, String> {
    RuleSettings::parse(text, Path::new("repo/syncdef.toml")).map_err(|e| e.to_string())
}

fn refused(text: &str) -> String {
    match parse(text) {
        Ok(settings) => panic!("accepted: {text}\n{:?}", settings.push()),
        Err(message) => message,
    }
}

fn n(v: u32) -> NonZeroU32 {
    NonZeroU32::new(v).expect("not zero")
}

#[test]
fn retry_and_rate_limit_tables_are_read_field_by_field() {
    let settings = parse(
        r#"
ignore = ["SD704"]

[retry]
max-attempts = 2
deadline-ms = 60000
statuses = [429, 503]

[rate-limit]
requests-per-minute = "unlimited"
concurrency = 4
"#,
    )
    .expect("a valid file");
    let push = settings.push();
    assert_eq!(push.retry.max_attempts, Some(Attempts(n(2))));
    assert_eq!(push.retry.deadline_ms, Some(60_000));
    assert_eq!(
        push.retry.statuses,
        Some(vec![RetryStatus(429), RetryStatus(503)])
    );
    // Keys not written stay unset: the definition's values stand for them.
    assert_eq!(push.retry.initial_backoff_ms, None);
    assert_eq!(push.retry.max_backoff_ms, None);
    assert_eq!(push.rate_limit.key, None);
    assert_eq!(push.rate_limit.requests_per_minute, Some(Limit::Unlimited));
    assert_eq!(push.rate_limit.concurrency, Some(Limit::AtMost(n(4))));
}

#[test]
fn a_file_without_the_tables_sets_nothing_about_pushes() {
    let settings = parse("[rules]\nSD402 = \"off\"\n").expect("a valid file");
    assert!(settings.push().is_empty());
    assert_eq!(*settings.push(), PushConfig::default());
}

#[test]
fn a_misspelt_retry_key_is_refused_with_a_suggestion() {
    insta::assert_snapshot!(refused("[retry]\nmax-attempt = 2\n"));
}

#[test]
fn a_misspelt_table_is_refused_with_a_suggestion() {
    insta::assert_snapshot!(refused("[rate-limits]\nconcurrency = 2\n"));
}

#[test]
fn an_x_syncdef_spelling_is_refused_with_the_toml_one() {
    // camelCase is the definition's spelling; syncdef.toml uses kebab-case like its other keys.
    insta::assert_snapshot!(refused("[retry]\nmaxAttempts = 2\n"));
}

#[test]
fn zero_attempts_are_refused() {
    insta::assert_snapshot!(refused("[retry]\nmax-attempts = 0\n"));
}

#[test]
fn a_success_status_cannot_be_retried() {
    insta::assert_snapshot!(refused("[retry]\nstatuses = [429, 200]\n"));
}

#[test]
fn a_negative_deadline_is_refused() {
    insta::assert_snapshot!(refused("[retry]\ndeadline-ms = -5\n"));
}

#[test]
fn a_zero_rate_limit_is_refused_saying_how_to_lift_it() {
    insta::assert_snapshot!(refused("[rate-limit]\nrequests-per-minute = 0\n"));
}

#[test]
fn a_rate_limit_word_other_than_unlimited_is_refused() {
    insta::assert_snapshot!(refused("[rate-limit]\nconcurrency = \"none\"\n"));
}
