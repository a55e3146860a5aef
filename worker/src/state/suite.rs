//! The state's promises, as tests run against every store: [`state_suite!`] turns each
//! function here into a `#[test]` of the store module that invokes it with a fresh store.

use super::queue::{Lease, QueueDepth};
use super::{Failed, InFlightCreate, Pushed, RecordKey, RecordStatus, Resolution, State};

/// Generates one `#[test]` per promise below, each on a fresh store from `$open`, a function
/// returning the store and whatever must outlive it (a server).
macro_rules! state_suite {
    ($open:path) => {
        $crate::state::suite::state_suite!(@each $open;
            a_create_cut_short_becomes_unknown_keeps_what_it_sent_and_is_due_for_finding_out,
            a_create_sent_again_under_its_key_keeps_its_body_only_while_the_body_is_the_same,
            resolving_by_hand_forgets_the_create,
            only_unknown_or_failed_records_can_be_resolved,
            failures_count_attempts_and_success_resets_them,
            stored_failures_are_redacted_and_bounded,
            an_unchanged_version_moves_only_the_stored_timestamp,
            cursors_move_and_reset_per_entry,
            counts_and_problems_list_what_needs_attention,
            due_retries_are_per_entry_and_oldest_first,
            the_lines_of_a_record_are_the_rows_under_its_id,
            a_record_is_found_by_its_external_id_among_the_entries_asked,
            a_forgotten_row_is_gone,
            warnings_are_replaced_per_entry_by_each_run,
            the_queue_depth_counts_waiting_and_leased_items_of_the_entries_asked,
        );
    };
    (@each $open:path; $($test:ident),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                let (state, _keep) = $open();
                $crate::state::suite::$test(&*state);
            }
        )*
    };
}
pub(crate) use state_suite;

fn key(id: &str) -> RecordKey {
    RecordKey::new("Account", id)
}

fn create() -> InFlightCreate {
    InFlightCreate {
        idempotency_key: Some("k1".into()),
        body: Some(r#"{"DisplayName":"Acme"}"#.into()),
    }
}

fn transient(next_attempt_at: i64) -> Failed {
    Failed {
        class: "transient".into(),
        message: "503".into(),
        unknown: false,
        updated_at: Some("2026-01-01T00:00:00Z".into()),
        next_attempt_at,
        external_id: None,
    }
}

fn pushed(external_id: &str) -> Pushed {
    Pushed {
        external_id: external_id.into(),
        body_hash: "sha256:h".into(),
        updated_at: Some("2026-01-01T00:00:00Z".into()),
    }
}

pub(crate) fn a_create_cut_short_becomes_unknown_keeps_what_it_sent_and_is_due_for_finding_out(
    state: &dyn State,
) {
    state
        .mark_in_flight(&key("1"), &create(), 10)
        .expect("mark");
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!(row.status, RecordStatus::InFlight);
    assert_eq!(state.recover_in_flight(20).expect("recover"), 1);
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!(row.status, RecordStatus::Unknown);
    assert_eq!(row.error_class.as_deref(), Some("unknownOutcome"));
    assert_eq!(row.create, Some(create()));
    assert_eq!(state.due_retries("Account", 20).expect("due").len(), 1);
    // Nothing else is in flight any more.
    assert_eq!(state.recover_in_flight(21).expect("recover"), 0);
    // A later failure of unknown outcome keeps the create; a certain one forgets it.
    let mut failed = Failed {
        class: "unknownOutcome".into(),
        message: "still unknown".into(),
        unknown: true,
        updated_at: None,
        next_attempt_at: 50,
        external_id: None,
    };
    state.record_failed(&key("1"), &failed, 30).expect("fail");
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!(
        (row.status, row.create.as_ref()),
        (RecordStatus::Unknown, Some(&create()))
    );
    assert!(state.due_retries("Account", 49).expect("due").is_empty());
    failed.unknown = false;
    state.record_failed(&key("1"), &failed, 40).expect("fail");
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!((row.status, row.create), (RecordStatus::Failed, None));
}

/// The external system answers a create sent again under the same idempotency key with what the
/// first one it received did. The kept body must say what that create may have written: one body
/// while every send carried it, none (unknown) once two sends under the key differed, so that the
/// engine brings the record up to date after the repeat whatever was written.
pub(crate) fn a_create_sent_again_under_its_key_keeps_its_body_only_while_the_body_is_the_same(
    state: &dyn State,
) {
    let kept = |state: &dyn State| state.record(&key("1")).expect("read").expect("row").create;
    state
        .mark_in_flight(&key("1"), &create(), 10)
        .expect("mark");
    state.recover_in_flight(11).expect("recover");
    state
        .mark_in_flight(&key("1"), &create(), 12)
        .expect("mark");
    assert_eq!(kept(state), Some(create()));
    let changed = InFlightCreate {
        idempotency_key: Some("k1".into()),
        body: Some(r#"{"DisplayName":"Acme Renamed"}"#.into()),
    };
    state.recover_in_flight(13).expect("recover");
    state.mark_in_flight(&key("1"), &changed, 14).expect("mark");
    let ambiguous = InFlightCreate {
        idempotency_key: Some("k1".into()),
        body: None,
    };
    assert_eq!(kept(state), Some(ambiguous.clone()));
    // Once unknown, it stays unknown, even when a later send carries the first body again.
    state.recover_in_flight(15).expect("recover");
    state
        .mark_in_flight(&key("1"), &create(), 16)
        .expect("mark");
    assert_eq!(kept(state), Some(ambiguous));
    // A create under another key (the record was resolved meanwhile) keeps its own body.
    let fresh = InFlightCreate {
        idempotency_key: Some("k2".into()),
        body: Some(r#"{"DisplayName":"Acme"}"#.into()),
    };
    state.mark_in_flight(&key("1"), &fresh, 17).expect("mark");
    assert_eq!(kept(state), Some(fresh));
}

pub(crate) fn resolving_by_hand_forgets_the_create(state: &dyn State) {
    state
        .mark_in_flight(&key("1"), &create(), 10)
        .expect("mark");
    state.recover_in_flight(20).expect("recover");
    assert!(
        state
            .resolve(&key("1"), &Resolution::ExternalId("67".into()), 30)
            .expect("resolve")
    );
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!(row.external_id.as_deref(), Some("67"));
    assert_eq!((row.create, row.body_hash), (None, None));
    assert_eq!(state.due_retries("Account", 30).expect("due").len(), 1);
    assert!(
        state
            .resolve(&key("1"), &Resolution::Recreate, 31)
            .expect("resolve")
    );
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!((row.external_id, row.status), (None, RecordStatus::Failed));
}

pub(crate) fn only_unknown_or_failed_records_can_be_resolved(state: &dyn State) {
    assert!(
        !state
            .resolve(&key("1"), &Resolution::Recreate, 1)
            .expect("absent")
    );
    state
        .record_pushed(&key("1"), &pushed("5"), 2)
        .expect("push");
    assert!(
        !state
            .resolve(&key("1"), &Resolution::Recreate, 3)
            .expect("done")
    );
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!(
        (row.status, row.external_id.as_deref()),
        (RecordStatus::Done, Some("5"))
    );
}

pub(crate) fn failures_count_attempts_and_success_resets_them(state: &dyn State) {
    state
        .record_failed(&key("1"), &transient(100), 1)
        .expect("fail");
    state
        .record_failed(&key("1"), &transient(100), 2)
        .expect("fail");
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!((row.attempts, row.status), (2, RecordStatus::Failed));
    assert_eq!(row.error_class.as_deref(), Some("transient"));
    assert!(state.due_retries("Account", 99).expect("due").is_empty());
    assert_eq!(state.due_retries("Account", 100).expect("due").len(), 1);
    state
        .record_pushed(&key("1"), &pushed("5"), 3)
        .expect("push");
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!((row.attempts, row.status), (0, RecordStatus::Done));
    assert_eq!((row.last_error, row.next_attempt_at), (None, None));
    assert_eq!(row.external_id.as_deref(), Some("5"));
    assert_eq!(row.body_hash.as_deref(), Some("sha256:h"));
    // A failure after a success keeps the external id and hash of that success.
    state
        .record_failed(&key("1"), &transient(200), 4)
        .expect("fail");
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!(row.external_id.as_deref(), Some("5"));
    assert_eq!(row.body_hash.as_deref(), Some("sha256:h"));
}

pub(crate) fn stored_failures_are_redacted_and_bounded(state: &dyn State) {
    let _held = syncdef_secrets::Secret::new("stored-secret-4e9a");
    let failed = Failed {
        class: "externalValidation".into(),
        message: format!("echo stored-secret-4e9a {}", "m".repeat(1_000_000)),
        unknown: false,
        updated_at: None,
        next_attempt_at: 100,
        external_id: None,
    };
    state.record_failed(&key("1"), &failed, 1).expect("fail");
    let row = state.record(&key("1")).expect("read").expect("row");
    let stored = row.last_error.expect("message");
    assert!(stored.starts_with("echo *** mmm"), "{}", &stored[..40]);
    assert!(
        stored.ends_with("bytes shown; 1000024 bytes in all]"),
        "{}",
        &stored[stored.len() - 60..]
    );
    assert!(stored.len() < 70_000, "{} bytes", stored.len());
}

pub(crate) fn an_unchanged_version_moves_only_the_stored_timestamp(state: &dyn State) {
    state
        .record_pushed(&key("1"), &pushed("5"), 1)
        .expect("push");
    state
        .record_unchanged(&key("1"), Some("2026-02-01T00:00:00Z"), 2)
        .expect("unchanged");
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!(row.updated_at.as_deref(), Some("2026-02-01T00:00:00Z"));
    assert_eq!((row.status, row.changed_at), (RecordStatus::Done, 2));
    state
        .record_unchanged(&key("1"), None, 3)
        .expect("unchanged");
    let row = state.record(&key("1")).expect("read").expect("row");
    assert_eq!(row.updated_at.as_deref(), Some("2026-02-01T00:00:00Z"));
    // An unknown record is not invented.
    state
        .record_unchanged(&key("2"), None, 3)
        .expect("unchanged");
    assert_eq!(state.record(&key("2")).expect("read"), None);
}

pub(crate) fn cursors_move_and_reset_per_entry(state: &dyn State) {
    assert_eq!(state.cursor("Account").expect("read"), None);
    state
        .set_cursor("Account", "2026-01-01T00:00:00Z", 1)
        .expect("set");
    state
        .set_cursor("Account", "2026-01-02T00:00:00Z", 2)
        .expect("set");
    state
        .set_cursor("Invoice", "2026-01-03T00:00:00Z", 3)
        .expect("set");
    assert_eq!(
        state.cursor("Account").expect("read").as_deref(),
        Some("2026-01-02T00:00:00Z")
    );
    let cursors = state.cursors().expect("cursors");
    let listed: Vec<_> = cursors
        .iter()
        .map(|c| (c.entry.as_str(), c.updated_at.as_str(), c.changed_at))
        .collect();
    assert_eq!(
        listed,
        [
            ("Account", "2026-01-02T00:00:00Z", 2),
            ("Invoice", "2026-01-03T00:00:00Z", 3)
        ]
    );
    assert!(state.reset_cursor("Account").expect("reset"));
    assert!(!state.reset_cursor("Account").expect("reset again"));
    assert_eq!(state.cursor("Account").expect("read"), None);
    assert!(state.cursor("Invoice").expect("read").is_some());
}

pub(crate) fn counts_and_problems_list_what_needs_attention(state: &dyn State) {
    state
        .record_pushed(&key("1"), &pushed("5"), 1)
        .expect("push");
    state
        .record_pushed(&key("2"), &pushed("6"), 1)
        .expect("push");
    state
        .record_failed(&key("3"), &transient(9), 1)
        .expect("fail");
    state.mark_in_flight(&key("4"), &create(), 1).expect("mark");
    let invoice = RecordKey::new("Invoice", "a");
    state
        .record_failed(&invoice, &transient(9), 1)
        .expect("fail");
    let counts: Vec<_> = state
        .counts()
        .expect("counts")
        .into_iter()
        .map(|c| (c.entry, c.status, c.count))
        .collect();
    assert_eq!(
        counts,
        [
            ("Account".to_owned(), RecordStatus::Done, 2),
            ("Account".to_owned(), RecordStatus::Failed, 1),
            ("Account".to_owned(), RecordStatus::InFlight, 1),
            ("Invoice".to_owned(), RecordStatus::Failed, 1),
        ]
    );
    let problems: Vec<_> = state
        .problems(10)
        .expect("problems")
        .into_iter()
        .map(|r| r.key.to_string())
        .collect();
    assert_eq!(problems, ["Account 4", "Account 3", "Invoice a"]);
    assert_eq!(state.problems(1).expect("problems").len(), 1);
}

pub(crate) fn due_retries_are_per_entry_and_oldest_first(state: &dyn State) {
    state
        .record_failed(&key("b"), &transient(20), 1)
        .expect("fail");
    state
        .record_failed(&key("a"), &transient(30), 1)
        .expect("fail");
    state
        .record_failed(&key("c"), &transient(20), 1)
        .expect("fail");
    state
        .record_failed(&key("later"), &transient(99), 1)
        .expect("fail");
    state
        .record_failed(&RecordKey::new("Invoice", "x"), &transient(1), 1)
        .expect("fail");
    state
        .record_pushed(&key("done"), &pushed("1"), 1)
        .expect("push");
    let due: Vec<_> = state
        .due_retries("Account", 50)
        .expect("due")
        .into_iter()
        .map(|r| r.key.platform_id)
        .collect();
    assert_eq!(due, ["b", "c", "a"]);
}

pub(crate) fn the_lines_of_a_record_are_the_rows_under_its_id(state: &dyn State) {
    let line = |id: &str| RecordKey::new("InvoiceItems", id);
    for id in ["inv_1/2", "inv_1/10", "inv_10/1", "inv_%/1", "inv_1_/3"] {
        state
            .record_pushed(&line(id), &pushed("ii"), 1)
            .expect("push");
    }
    state
        .record_pushed(&RecordKey::new("Other", "inv_1/5"), &pushed("x"), 1)
        .expect("push");
    let under = |prefix: &str| -> Vec<String> {
        state
            .rows_under("InvoiceItems", prefix)
            .expect("rows")
            .into_iter()
            .map(|r| r.key.platform_id)
            .collect()
    };
    // Neither `inv_10/…` nor another entry's row; `%` and `_` are themselves.
    assert_eq!(under("inv_1/"), ["inv_1/10", "inv_1/2"]);
    assert_eq!(under("inv_%/"), ["inv_%/1"]);
    assert!(under("inv_2/").is_empty());
}

pub(crate) fn a_record_is_found_by_its_external_id_among_the_entries_asked(state: &dyn State) {
    state
        .record_pushed(&key("1"), &pushed("58"), 10)
        .expect("push");
    state
        .record_pushed(&RecordKey::new("Invoice", "9"), &pushed("58"), 11)
        .expect("push");
    let accounts = ["Account".to_owned()];
    let found = state.by_external_id(&accounts, "58").expect("read");
    assert_eq!(found.map(|r| r.key), Some(key("1")));
    let invoices = ["Invoice".to_owned(), "Other".to_owned()];
    let found = state.by_external_id(&invoices, "58").expect("read");
    assert_eq!(found.map(|r| r.key), Some(RecordKey::new("Invoice", "9")));
    assert!(
        state
            .by_external_id(&accounts, "59")
            .expect("read")
            .is_none()
    );
    assert!(state.by_external_id(&[], "58").expect("read").is_none());
}

pub(crate) fn a_forgotten_row_is_gone(state: &dyn State) {
    state
        .mark_in_flight(&key("pull:58"), &InFlightCreate::default(), 10)
        .expect("mark");
    assert!(state.forget(&key("pull:58")).expect("forget"));
    assert!(state.record(&key("pull:58")).expect("read").is_none());
    assert!(!state.forget(&key("pull:58")).expect("forget again"));
}

pub(crate) fn warnings_are_replaced_per_entry_by_each_run(state: &dyn State) {
    let one = vec!["listed records without a usable `id`".to_owned()];
    state.set_warnings("Account", &one, 10).expect("set");
    state
        .set_warnings("", &["token said `expires_in: 0`".to_owned()], 10)
        .expect("set");
    let rows = state.warnings().expect("read");
    assert_eq!(
        rows.iter().map(|r| r.entry.as_str()).collect::<Vec<_>>(),
        ["", "Account"]
    );
    assert_eq!(rows[1].messages, one);
    // The next run met nothing: nothing stays.
    state.set_warnings("Account", &[], 20).expect("set");
    let rows = state.warnings().expect("read");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].entry, "");
    // Secrets never reach the state.
    let _held = syncdef_secrets::Secret::new("warning-secret-77ab");
    state
        .set_warnings("Account", &["echo warning-secret-77ab".to_owned()], 30)
        .expect("set");
    let rows = state.warnings().expect("read");
    assert!(
        !rows[1].messages[0].contains("warning-secret-77ab"),
        "{rows:?}"
    );
}

pub(crate) fn the_queue_depth_counts_waiting_and_leased_items_of_the_entries_asked(
    state: &dyn State,
) {
    let queue = state.queue();
    let accounts = ["Account".to_owned()];
    for id in ["1", "2", "3"] {
        queue.enqueue(&key(id), None, 0, 10).expect("enqueue");
    }
    let lease = Lease {
        worker: "w1",
        now: 10,
        until: 20,
    };
    assert_eq!(queue.lease(&accounts, lease, 2).expect("lease").len(), 2);
    assert_eq!(
        queue.depth(&accounts, 15).expect("depth"),
        QueueDepth {
            queued: 1,
            leased: 2
        }
    );
    // An expired lease is waiting again; another entry's items are not counted.
    assert_eq!(
        queue.depth(&accounts, 21).expect("depth"),
        QueueDepth {
            queued: 3,
            leased: 0
        }
    );
    assert_eq!(
        queue.depth(&["Invoice".to_owned()], 15).expect("depth"),
        QueueDepth::default()
    );
}
