//! The sync worker as a library: a first sync of the shipped platform records (two accounts,
//! two invoices from `catalog/records`) to a QuickBooks Online company, then a second run that
//! finds nothing to push. Both systems are the local stand-ins of `syncdef-mock`, started
//! in-process on free loopback ports; the state is a temporary `SQLite` file:
//!
//!     cargo run --release -p syncdef-worker --example first_sync
//!
//! (`--release`: the build of the README and docs/getting-started.md, which this continues.)
//!
//! `syncdef sync` is this loop with flags (docs/worker.md); docs/getting-started.md runs the
//! same sync from the command line.

use std::error::Error;
use std::path::Path;
use std::sync::Arc;

use syncdef_definitions::Definition;
use syncdef_engine::{Engine, ReqwestTransport};
use syncdef_mock::platform::{Platform, Records};
use syncdef_mock::quickbooks::QuickBooks;
use syncdef_platform::{Credentials, PlatformClient};
use syncdef_worker::{Dependencies, SqliteState, SyncOptions, SyncReport, Worker};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let records = Records::load(&repo.join("catalog/records"))?;
    let platform = Platform::start(records, syncdef_mock::loopback(0)?).await;
    let company = QuickBooks::start(syncdef_mock::loopback(0)?).await;
    let state_dir = tempfile::tempdir()?;
    let state_path = state_dir.path().join("quickbooks.sync.sqlite");

    let first = sync(&repo, &platform, &company, &state_path).await?;
    print!("{}", syncdef_worker::render::summary(&first));
    let second = sync(&repo, &platform, &company, &state_path).await?;
    print!("{}", syncdef_worker::render::summary(&second));
    if !(first.is_clean() && second.is_clean()) {
        return Err("some record failed; the summaries above say which".into());
    }
    println!(
        "QuickBooks holds {} customers and {} invoices",
        company.count("4620816365", "Customer"),
        company.count("4620816365", "Invoice")
    );
    Ok(())
}

/// One run: accounts, then the invoices that name them, with the state at `state_path`.
async fn sync(
    repo: &Path,
    platform: &Platform,
    company: &QuickBooks,
    state_path: &Path,
) -> Result<SyncReport, Box<dyn Error>> {
    let definition = Definition::load_path(&repo.join("catalog/quickbooks-online/definition.yaml"))
        .map_err(|e| e.message)?;
    // The order of entries comes from the definition (an invoice's pre-action pushes its
    // account), never from the order they are named in.
    let dependencies = Dependencies::from_definition(&definition);
    let engine = Engine::load(definition)
        .map_err(|refused| refused.to_string())?
        .engine
        .with_base_url(company.base_url("4620816365").parse()?);
    // The local platform accepts any credentials; a real one gets them from
    // `Credentials::load()` (SYNCDEF_PLATFORM_* or a private file).
    let credentials = Credentials::new("local", "local", "local", "local");
    let platform = PlatformClient::builder(platform.uri(), credentials).build()?;
    let state = Arc::new(SqliteState::open(state_path)?);
    let options = SyncOptions {
        entries: vec!["Invoice".to_owned(), "Account".to_owned()],
        ..SyncOptions::default()
    };
    let transport = Arc::new(ReqwestTransport::new()?);
    let worker = Worker::new(engine, transport, &dependencies, platform, state, options)?;
    Ok(worker.run().await)
}
