//! End-to-end tests of the `syncdef` binary, in one binary: every command as a user runs it,
//! against loopback platforms, external systems and PostgreSQL servers started here.

#[path = "../common/mod.rs"]
mod common;
#[path = "../../worker/tests/sync_support/mod.rs"]
mod sync_support;

mod architecture;
mod arguments;
mod auth_login;
mod catalog;
mod chaos;
mod conventions;
mod docs_commands;
mod dry_run;
mod lint;
mod lint_walk;
mod logging;
mod lsp;
mod metrics;
mod new;
mod overlay;
mod progress;
mod pull;
mod push_settings;
mod sync;
mod sync_pool;
mod transform;
