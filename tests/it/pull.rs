//! End-to-end tests of `syncdef pull`: pages written as JSON Lines in the platform's shape,
//! elements the template cannot identify reported and counted, failures and exit codes.

use crate::common;

use common::syncdef;

const PULL: &str = "engine/tests/fixtures/pull.yaml";
const PAGES: &str = "tests/fixtures/pull/pages.json";

fn lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

#[test]
fn every_page_is_read_until_the_last_and_each_record_is_one_line() {
    let run = syncdef(&[
        "pull",
        PULL,
        "--entry",
        "Customer",
        "--dry-run",
        "--responses",
        PAGES,
    ]);
    let records = lines(&run.stdout);
    let ids: Vec<&str> = records
        .iter()
        .map(|r| r["externalId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["1", "2", "3"]);
    assert_eq!(
        records[0]["record"],
        serde_json::json!({"account": {"integrationId": "1", "name": "Acme", "phone": "+1 555 0101"}})
    );
    // The element without an id is reported with its page and place, and fails the run.
    assert!(run.stderr.contains("page 2, element 1"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("3 record(s) from 3 page(s), 1 element(s) set apart"),
        "{}",
        run.stderr
    );
    assert_eq!(run.code, 1);
}

#[test]
fn max_pages_stops_and_says_where_the_next_page_starts() {
    let run = syncdef(&[
        "pull",
        PULL,
        "--entry",
        "Customer",
        "--dry-run",
        "--responses",
        PAGES,
        "--max-pages",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(lines(&run.stdout).len(), 2);
    assert!(
        run.stderr
            .contains(r#"the next page is {"kind":"offset","at":2}"#),
        "{}",
        run.stderr
    );
}

#[test]
fn a_failed_page_ends_the_pull_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let answers = dir.path().join("answers.json");
    std::fs::write(&answers, r#"{"batchRead": {"status": 403, "body": {"Fault": {"Error": [{"Message": "no access"}]}}}}"#).unwrap();
    let run = syncdef(&[
        "pull",
        PULL,
        "--entry",
        "Customer",
        "--dry-run",
        "--responses",
        answers.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("HTTP 403"), "{}", run.stderr);
}

#[test]
fn an_entry_without_a_pull_is_a_clear_error() {
    let run = syncdef(&[
        "pull",
        "definitions/tests/fixtures/quickbooks-online.yaml",
        "--entry",
        "Account",
        "--dry-run",
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("has no `pull.batchRead`"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_dry_run_over_made_up_answers_reads_one_page_even_where_the_answer_names_a_next() {
    // Business Central names its next page in `@odata.nextLink`; a synthesised answer's link
    // is made up, so the dry-run stops after one page instead of following it.
    let run = syncdef(&[
        "pull",
        "catalog/business-central/definition.yaml",
        "--entry",
        "Account",
        "--dry-run",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(lines(&run.stdout).len(), 1);
    assert!(
        run.stderr.contains("1 record(s) from 1 page(s)"),
        "{}",
        run.stderr
    );
}
