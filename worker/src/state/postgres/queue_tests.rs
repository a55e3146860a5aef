//! The shared queue's promises, against a real server: disjoint leases, takeover after a
//! lease ends (a create in flight becomes `unknown`, never handed out as it was), dependency
//! rank, and items enqueued again while leased.

use super::tests::fresh_postgres;
use crate::state::{InFlightCreate, Lease, RecordKey, RecordStatus, State, WorkQueue};

fn lease(worker: &str, now: i64) -> Lease<'_> {
    Lease {
        worker,
        now,
        until: now + 10,
    }
}

fn entries() -> Vec<String> {
    vec!["Account".to_owned(), "Invoice".to_owned()]
}

fn account(id: &str) -> RecordKey {
    RecordKey::new("Account", id)
}

#[test]
fn two_workers_lease_disjoint_items_and_each_item_once() {
    let (state, _server) = fresh_postgres();
    for id in ["1", "2", "3"] {
        state
            .enqueue(&account(id), Some("2026-01-01T00:00:00Z"), 0, 1)
            .expect("enqueue");
    }
    // Enqueued twice: still one item.
    state
        .enqueue(&account("1"), Some("2026-01-02T00:00:00Z"), 0, 1)
        .expect("enqueue");
    let a = state.lease(&entries(), lease("a", 2), 2).expect("lease a");
    let b = state.lease(&entries(), lease("b", 2), 5).expect("lease b");
    assert_eq!((a.len(), b.len()), (2, 1));
    let mut all: Vec<_> = a
        .iter()
        .chain(&b)
        .map(|i| i.key.platform_id.clone())
        .collect();
    all.sort();
    assert_eq!(all, ["1", "2", "3"]);
    let one = a
        .iter()
        .chain(&b)
        .find(|i| i.key.platform_id == "1")
        .expect("item 1");
    assert_eq!(one.updated_at.as_deref(), Some("2026-01-02T00:00:00Z"));
    assert!(
        state
            .lease(&entries(), lease("c", 3), 5)
            .expect("lease c")
            .is_empty()
    );
    // Another worker cannot claim a leased record; its holder can.
    assert!(!state.claim(&b[0].key, 0, lease("a", 3)).expect("claim"));
    assert!(state.claim(&b[0].key, 0, lease("b", 3)).expect("renew"));
    for item in a.iter().chain(&b) {
        let holder = if a.contains(item) { "a" } else { "b" };
        state.complete(&item.key, holder).expect("complete");
    }
    assert_eq!(state.pending(&entries(), 4).expect("pending"), 0);
}

#[test]
fn an_expired_lease_hands_the_item_over_and_its_create_in_flight_becomes_unknown() {
    let (state, _server) = fresh_postgres();
    state.enqueue(&account("1"), None, 0, 1).expect("enqueue");
    let taken = state.lease(&entries(), lease("dead", 1), 5).expect("lease");
    assert_eq!(taken.len(), 1);
    let create = InFlightCreate {
        idempotency_key: Some("k".into()),
        body: Some("{}".into()),
    };
    state
        .mark_in_flight(&account("1"), &create, 2)
        .expect("mark");
    // While the lease lives: nobody takes it, and start-up recovery leaves it alone.
    assert!(
        state
            .lease(&entries(), lease("live", 5), 5)
            .expect("lease")
            .is_empty()
    );
    assert_eq!(state.recover_in_flight(5).expect("recover"), 0);
    assert_eq!(
        state
            .record(&account("1"))
            .expect("read")
            .expect("row")
            .status,
        RecordStatus::InFlight
    );
    // Its worker died: after the lease, another takes the item, and the create is unknown.
    let taken = state
        .lease(&entries(), lease("live", 12), 5)
        .expect("lease");
    assert_eq!(taken.len(), 1);
    let row = state.record(&account("1")).expect("read").expect("row");
    assert_eq!(row.status, RecordStatus::Unknown);
    assert_eq!(row.create, Some(create));
}

#[test]
fn a_claim_after_an_expired_lease_also_settles_the_create_in_flight() {
    let (state, _server) = fresh_postgres();
    assert!(
        state
            .claim(&account("1"), 0, lease("dead", 1))
            .expect("claim")
    );
    state
        .mark_in_flight(&account("1"), &InFlightCreate::default(), 2)
        .expect("mark");
    assert!(
        !state
            .claim(&account("1"), 0, lease("live", 5))
            .expect("held")
    );
    assert!(
        state
            .claim(&account("1"), 0, lease("live", 12))
            .expect("expired")
    );
    assert_eq!(
        state
            .record(&account("1"))
            .expect("read")
            .expect("row")
            .status,
        RecordStatus::Unknown
    );
}

#[test]
fn invoices_wait_while_an_account_is_queued() {
    let (state, _server) = fresh_postgres();
    state
        .enqueue(&RecordKey::new("Invoice", "i"), None, 1, 1)
        .expect("enqueue");
    state.enqueue(&account("1"), None, 0, 2).expect("enqueue");
    let first = state.lease(&entries(), lease("a", 3), 5).expect("lease");
    assert_eq!(
        first.iter().map(|i| i.key.to_string()).collect::<Vec<_>>(),
        ["Account 1"]
    );
    assert!(
        state
            .lease(&entries(), lease("b", 3), 5)
            .expect("lease")
            .is_empty()
    );
    state.complete(&account("1"), "a").expect("complete");
    let next = state.lease(&entries(), lease("b", 4), 5).expect("lease");
    assert_eq!(
        next.iter().map(|i| i.key.to_string()).collect::<Vec<_>>(),
        ["Invoice i"]
    );
}

#[test]
fn a_lower_item_no_worker_here_takes_blocks_nothing() {
    let (state, _server) = fresh_postgres();
    let invoices = vec!["Invoice".to_owned()];
    state
        .enqueue(&RecordKey::new("Invoice", "i"), None, 1, 1)
        .expect("enqueue");
    // An account claimed by a worker that then died, in a pool that pushes invoices only.
    assert!(
        state
            .claim(&account("1"), 0, lease("dead", 1))
            .expect("claim")
    );
    assert!(
        state
            .lease(&invoices, lease("a", 5), 5)
            .expect("held")
            .is_empty()
    );
    let taken = state.lease(&invoices, lease("a", 12), 5).expect("lease");
    assert_eq!(taken.len(), 1, "blocked by an item no one here takes");
}

#[test]
fn an_item_enqueued_again_while_leased_stays_for_one_more_look() {
    let (state, _server) = fresh_postgres();
    state
        .enqueue(&account("1"), Some("t1"), 0, 1)
        .expect("enqueue");
    assert_eq!(
        state
            .lease(&entries(), lease("a", 2), 5)
            .expect("lease")
            .len(),
        1
    );
    state
        .enqueue(&account("1"), Some("t2"), 0, 3)
        .expect("listed again");
    state.complete(&account("1"), "a").expect("complete");
    let again = state.lease(&entries(), lease("b", 4), 5).expect("lease");
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].updated_at.as_deref(), Some("t2"));
    state.complete(&account("1"), "b").expect("complete");
    assert_eq!(state.pending(&entries(), 5).expect("pending"), 0);
}

#[test]
fn one_lister_per_entry_until_its_lease_ends_and_due_retries_are_enqueued() {
    let (state, _server) = fresh_postgres();
    assert!(state.take_lister("Account", lease("a", 1)).expect("take"));
    assert!(!state.take_lister("Account", lease("b", 2)).expect("held"));
    assert!(
        state
            .take_lister("Invoice", lease("b", 2))
            .expect("other entry")
    );
    assert_eq!(state.pending(&entries(), 2).expect("pending"), 2);
    assert!(
        state
            .take_lister("Account", lease("b", 12))
            .expect("expired")
    );
    state.release_lister("Account", "b").expect("release");
    state.release_lister("Invoice", "b").expect("release");
    assert_eq!(state.pending(&entries(), 12).expect("pending"), 0);

    let failed = crate::state::Failed {
        class: "transient".into(),
        message: "503".into(),
        unknown: false,
        updated_at: None,
        next_attempt_at: 20,
        external_id: None,
    };
    state
        .record_failed(&account("1"), &failed, 1)
        .expect("fail");
    let due = |now| -> Vec<RecordKey> {
        state
            .due_retries("Account", now)
            .expect("due retries")
            .into_iter()
            .map(|r| r.key)
            .collect()
    };
    assert_eq!(state.enqueue_retries(&due(19), 0, 19).expect("not due"), 0);
    // A record read as due that is not due any more is left out.
    assert_eq!(
        state
            .enqueue_retries(&[account("1")], 0, 19)
            .expect("not due"),
        0
    );
    assert_eq!(state.enqueue_retries(&due(20), 0, 20).expect("due"), 1);
    let items = state.lease(&entries(), lease("a", 20), 5).expect("lease");
    assert!(items[0].retry);
    // A stopping worker hands its items back at once.
    state.return_leases("a").expect("return");
    assert_eq!(
        state
            .lease(&entries(), lease("b", 21), 5)
            .expect("lease")
            .len(),
        1
    );
}

#[test]
fn the_account_budget_caps_requests_at_once_and_per_minute_for_all_workers() {
    use crate::state::{AccountBudget, AccountLimits, Grant};
    let (state, _server) = fresh_postgres();
    let at_once = AccountLimits {
        requests_per_minute: None,
        window_ms: 60_000,
        concurrency: Some(2),
    };
    let slot = |worker: &str| {
        state
            .take("qbo|realmId=1", worker, at_once, 60)
            .expect("take")
    };
    let Grant::Slot(first) = slot("a") else {
        panic!("room for the first")
    };
    assert!(matches!(slot("b"), Grant::Slot(_)));
    assert!(matches!(slot("a"), Grant::Wait(_)), "a third at once");
    // Another account has its own budget.
    assert!(matches!(
        state.take("qbo|realmId=2", "a", at_once, 60).expect("take"),
        Grant::Slot(_)
    ));
    state.give_back(first).expect("give back");
    assert!(matches!(slot("c"), Grant::Slot(_)));

    let per_minute = AccountLimits {
        requests_per_minute: Some(3),
        window_ms: 60_000,
        concurrency: None,
    };
    for _ in 0..3 {
        let grant = state.take("bc|", "a", per_minute, 60).expect("take");
        let Grant::Slot(id) = grant else {
            panic!("room in the minute")
        };
        state.give_back(id).expect("give back");
    }
    let Grant::Wait(ms) = state.take("bc|", "b", per_minute, 60).expect("take") else {
        panic!("a fourth request in the minute must wait")
    };
    // A minute and its hundredth of margin (`budget::counted_window`).
    assert!((55_000..=60_601).contains(&ms), "waits {ms} ms");
}

#[test]
fn a_scaled_window_lets_requests_out_again_after_its_own_length() {
    use crate::state::{AccountBudget, AccountLimits, Grant};
    let (state, _server) = fresh_postgres();
    let per_second = AccountLimits {
        requests_per_minute: Some(2),
        window_ms: 1_000,
        concurrency: None,
    };
    for _ in 0..2 {
        let Grant::Slot(id) = state.take("s|", "a", per_second, 60).expect("take") else {
            panic!("room in the window")
        };
        state.give_back(id).expect("give back");
    }
    let Grant::Wait(ms) = state.take("s|", "b", per_second, 60).expect("take") else {
        panic!("a third request in the second must wait")
    };
    assert!((1..=1_011).contains(&ms), "waits {ms} ms, not a minute");
    std::thread::sleep(std::time::Duration::from_millis(ms + 20));
    assert!(matches!(
        state.take("s|", "b", per_second, 60).expect("take"),
        Grant::Slot(_)
    ));
}

#[test]
fn a_request_is_counted_in_its_window_until_a_window_after_its_answer() {
    use crate::state::{AccountBudget, AccountLimits, Grant};
    let (state, _server) = fresh_postgres();
    let one_a_second = AccountLimits {
        requests_per_minute: Some(1),
        window_ms: 1_000,
        concurrency: None,
    };
    let Grant::Slot(slot) = state.take("slow|", "a", one_a_second, 60).expect("take") else {
        panic!("room for the first")
    };
    // The answer takes 0.6 s: the vendor may have counted the request at any time until then.
    std::thread::sleep(std::time::Duration::from_millis(600));
    state.give_back(slot).expect("give back");
    // A window and a little after the slot, but only half a window after the answer.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let Grant::Wait(ms) = state.take("slow|", "b", one_a_second, 60).expect("take") else {
        panic!("the request may still be in the vendor's window")
    };
    assert!((1..=520).contains(&ms), "waits {ms} ms");
    std::thread::sleep(std::time::Duration::from_millis(ms + 20));
    assert!(matches!(
        state.take("slow|", "b", one_a_second, 60).expect("take"),
        Grant::Slot(_)
    ));
}

#[test]
fn a_dead_workers_slot_is_freed_after_its_hold_time() {
    use crate::state::{AccountBudget, AccountLimits, Grant};
    let (state, _server) = fresh_postgres();
    let one = AccountLimits {
        requests_per_minute: None,
        window_ms: 60_000,
        concurrency: Some(1),
    };
    assert!(matches!(
        state.take("x|", "dead", one, 0).expect("take"),
        Grant::Slot(_)
    ));
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(matches!(
        state.take("x|", "live", one, 60).expect("take"),
        Grant::Slot(_)
    ));
    assert!(matches!(
        state.take("x|", "other", one, 60).expect("take"),
        Grant::Wait(_)
    ));
    // A hold beyond the clock's range is held "for ever", not an overflow in the database.
    assert!(matches!(
        state.take("y|", "forever", one, u64::MAX).expect("take"),
        Grant::Slot(_)
    ));
    assert!(matches!(
        state.take("y|", "other", one, 60).expect("take"),
        Grant::Wait(_)
    ));
}

/// The shared budget's waits, as an observer hears them.
#[derive(Default)]
struct Throttles(std::sync::Mutex<Vec<(String, std::time::Duration)>>);

impl crate::observer::Observer for Throttles {
    fn event(&self, event: &crate::observer::Event<'_>) {
        if let crate::observer::Event::Throttled { account, waited } = event {
            let mut heard = self.0.lock().expect("heard");
            heard.push(((*account).to_owned(), *waited));
        }
    }
}

/// Answers every request after a while, holding its concurrency slot meanwhile.
struct Slow;

impl syncdef_engine::Transport for Slow {
    #[expect(
        clippy::default_trait_access,
        reason = "the worker depends on neither the HTTP header map's crate nor the bytes crate"
    )]
    fn send<'a>(
        &'a self,
        _: &'a syncdef_engine::HttpRequest,
    ) -> futures::future::BoxFuture<
        'a,
        Result<syncdef_engine::HttpResponse, syncdef_engine::TransportError>,
    > {
        Box::pin(async {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            Ok(syncdef_engine::HttpResponse {
                status: 200,
                headers: Default::default(),
                body: Default::default(),
                synthesized: false,
            })
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_held_back_by_the_shared_budget_is_told_with_its_account_and_wait() {
    use std::sync::Arc;
    use syncdef_engine::Transport as _;

    let (state, _server) = fresh_postgres();
    let throttles = Arc::new(Throttles::default());
    let budget = crate::budget::SharedBudget {
        inner: Arc::new(Slow),
        state: Arc::new(state),
        key_values: "realmId=7".to_owned(),
        limits: crate::state::AccountLimits {
            requests_per_minute: None,
            window_ms: 60_000,
            concurrency: Some(1),
        },
        worker_id: "w1".to_owned(),
        hold_seconds: 60,
        observer: throttles.clone(),
    };
    let request = syncdef_engine::HttpRequest {
        step: Arc::from("create"),
        method: syncdef_definitions::operation_ref::HttpMethod::Post,
        url: url::Url::parse("https://qb.example.com/v3/company/7/customer").expect("url"),
        headers: Arc::from(Vec::new()),
        body: None,
        sample: None,
        idempotency_key: None,
    };
    // One slot: the second request waits for the first's answer.
    let (first, second) = tokio::join!(budget.send(&request), budget.send(&request));
    assert_eq!(first.expect("answered").status, 200);
    assert_eq!(second.expect("answered").status, 200);
    let heard = throttles.0.lock().expect("heard").clone();
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(heard[0].0, "realmId=7");
    assert!(
        heard[0].1 >= std::time::Duration::from_millis(100),
        "{heard:?}"
    );
}
