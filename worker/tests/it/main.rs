//! The worker's integration tests, in one binary: the loop against loopback fakes of the
//! platform and of QuickBooks and Business Central, on SQLite and on PostgreSQL.

#[path = "../sync_support/mod.rs"]
mod sync_support;

mod attached_lists;
mod central_worker;
mod lines_worker;
mod postgres_tls;
mod pull_worker;
mod sync_worker;
mod sync_worker_postgres;
