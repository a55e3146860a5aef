//! The PostgreSQL state against a real server started by the tests (`syncdef_mock::postgres`).

use std::sync::Arc;

use syncdef_mock::postgres::PgServer;

use super::PostgresState;
use crate::state::{State, StateError};

/// The server the tests running now share (each uses a database of its own); fails the test,
/// saying how to install PostgreSQL, when the server's programs are missing.
fn server() -> Arc<PgServer> {
    PgServer::shared().unwrap_or_else(|e| panic!("{e}"))
}

fn database(server: &PgServer) -> String {
    server
        .database()
        .unwrap_or_else(|e| panic!("{e}\n{}", server.log()))
}

/// A fresh state in a database of its own.
pub(super) fn fresh_postgres() -> (PostgresState, Arc<PgServer>) {
    let server = server();
    let url = database(&server);
    let state = PostgresState::open(&url).unwrap_or_else(|e| panic!("{e}\n{}", server.log()));
    (state, server)
}

/// A fresh state, for the suite every store passes.
fn fresh() -> (Box<dyn State>, Arc<PgServer>) {
    let (state, server) = fresh_postgres();
    (Box::new(state), server)
}

crate::state::suite::state_suite!(fresh);

/// Runs statements on `url` with a plain client, outside the state.
fn execute(url: &str, sql: &str) {
    let bridge = super::bridge::Bridge::new().expect("runtime");
    let (config, sql) = (
        url.parse::<tokio_postgres::Config>().expect("url"),
        sql.to_owned(),
    );
    bridge
        .run(async move {
            let (client, connection) = config.connect(tokio_postgres::NoTls).await?;
            tokio::spawn(connection);
            client.batch_execute(&sql).await?;
            Ok(())
        })
        .expect("statement");
}

#[test]
fn migrations_are_recorded_and_a_newer_database_is_refused() {
    let server = server();
    let url = database(&server);
    drop(PostgresState::open(&url).expect("create"));
    drop(PostgresState::open(&url).expect("reopen: nothing to migrate"));
    execute(&url, "INSERT INTO schema_migrations (version) VALUES (99)");
    let error = PostgresState::open(&url).expect_err("too new");
    assert!(
        matches!(error, StateError::TooNew { found: 99, .. }),
        "{error}"
    );
    let error = PostgresState::open_read_only(&url).expect_err("too new");
    assert!(
        matches!(error, StateError::TooNew { found: 99, .. }),
        "{error}"
    );
}

#[test]
fn a_reader_refuses_a_database_no_run_has_migrated() {
    let server = server();
    let url = database(&server);
    let error = PostgresState::open_read_only(&url).expect_err("empty");
    assert!(
        error.to_string().contains("run `syncdef sync` once"),
        "{error}"
    );
}

#[test]
fn runs_share_one_database() {
    let server = server();
    let url = database(&server);
    let first = PostgresState::open(&url).expect("first");
    first.set_cursor("Account", "2026-01-01", 1).expect("write");
    let second = PostgresState::open(&url).expect("second, at the same time");
    assert_eq!(
        second.cursor("Account").expect("read").as_deref(),
        Some("2026-01-01")
    );
}

#[test]
fn instances_in_one_database_keep_their_own_state_in_their_own_schema() {
    use crate::state::AccountBudget;
    let server = server();
    let url = database(&server);
    let instance = |schema: &str| format!("{url}&schema={schema}");
    let first = PostgresState::open(&instance("qbo_1")).expect("first instance");
    let second = PostgresState::open(&instance("qbo_2")).expect("second, created beside it");
    first.set_cursor("Account", "2026-01-01", 1).expect("write");
    assert_eq!(second.cursor("Account").expect("read"), None);
    assert_eq!(
        PostgresState::open_read_only(&instance("qbo_1"))
            .expect("a reader of the first")
            .cursor("Account")
            .expect("read")
            .as_deref(),
        Some("2026-01-01")
    );
    // Each has the whole schema, the budget's function included.
    let limits = crate::state::AccountLimits {
        requests_per_minute: Some(1),
        window_ms: 60_000,
        concurrency: None,
    };
    assert!(matches!(
        second.take("qbo|2", "w", limits, 60).expect("take"),
        crate::state::Grant::Slot(_)
    ));
    // The database's default schema holds none of it.
    let error = PostgresState::open_read_only(&url).expect_err("nothing outside the schemas");
    assert!(
        error.to_string().contains("run `syncdef sync` once"),
        "{error}"
    );
    let error = PostgresState::open_read_only(&instance("qbo_3")).expect_err("never run");
    assert!(
        error.to_string().contains("run `syncdef sync` once"),
        "{error}"
    );
    let error = PostgresState::open(&instance("Qbo")).expect_err("needs quotes");
    assert!(
        error.to_string().contains("schema=qbo_4620816365"),
        "{error}"
    );
}

#[test]
fn dry_runs_write_nothing() {
    let server = server();
    let url = database(&server);
    drop(PostgresState::open(&url).expect("create"));
    {
        let dry = PostgresState::open_dry_run(&url).expect("dry");
        dry.set_cursor("Account", "2026-01-01", 1).expect("write");
        assert!(dry.cursor("Account").expect("read").is_some());
    }
    let state = PostgresState::open(&url).expect("reopen");
    assert_eq!(state.cursor("Account").expect("read"), None);
}

#[test]
fn an_unreachable_database_is_a_clear_error_without_its_password() {
    let server = server();
    let url = server.url("absent").replace("syncdef@", "syncdef:pw-7c1e@");
    let error = PostgresState::open(&url).expect_err("no such database");
    let text = error.to_string();
    assert!(matches!(error, StateError::Backend { .. }), "{text}");
    assert!(text.contains("absent"), "{text}");
    assert!(!text.contains("pw-7c1e"), "{text}");
}

#[test]
fn the_state_can_be_used_inside_and_outside_an_async_runtime() {
    let (state, _server) = fresh();
    state.set_cursor("Account", "a", 1).expect("outside");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        state.set_cursor("Account", "b", 2).expect("inside");
    });
    assert_eq!(state.cursor("Account").expect("read").as_deref(), Some("b"));
    // Dropped inside a runtime's task too.
    runtime.block_on(async move { drop(state) });
}
