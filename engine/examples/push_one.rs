//! The engine as a library: load a definition once, push one platform record, read the
//! outcome. It pushes the shipped account `catalog/records/account-acme-eur.json` through the
//! catalog's QuickBooks Online definition to the local QuickBooks company of `syncdef-mock`,
//! started in-process on a free loopback port, so it runs anywhere:
//!
//!     cargo run --release -p syncdef-engine --example push_one
//!
//! (`--release`: the build of the README and docs/getting-started.md, which this continues.)
//!
//! Against QuickBooks itself: drop `with_base_url`, set the `realmId` server variable, and give
//! `with_token_provider` the tokens of `syncdef auth login` (docs/engine.md).

use std::error::Error;
use std::path::Path;
use std::sync::Arc;

use syncdef_definitions::Definition;
use syncdef_engine::{Engine, RecordState, ReqwestTransport};
use syncdef_mock::quickbooks::QuickBooks;
use syncdef_transform::Value;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let company = QuickBooks::start(syncdef_mock::loopback(0)?).await;

    // Loading lints the definition and compiles every template once; the engine is then
    // cheap to clone and share between tasks.
    let definition = Definition::load_path(&repo.join("catalog/quickbooks-online/definition.yaml"))
        .map_err(|e| e.message)?;
    let engine = Engine::load(definition)
        .map_err(|refused| refused.to_string())?
        .engine
        .with_transport(Arc::new(ReqwestTransport::new()?))
        .with_base_url(company.base_url("4620816365").parse()?);

    // The record as the platform API returns it: the engine places it under `$.account`.
    let record = Value::from_json_slice(&std::fs::read(
        repo.join("catalog/records/account-acme-eur.json"),
    )?)?;
    // No external id yet: a create. The state also carries related ids and server variables.
    let outcome = engine
        .push("Account", &record, &RecordState::default())
        .await;
    if !outcome.is_success() {
        return Err(format!("the push failed: {:?}", outcome.errors).into());
    }
    println!(
        "created customer {} in {:?}; keep the id: the next push of this record updates it",
        outcome.external_id().unwrap_or("(no id)"),
        outcome.duration
    );
    Ok(())
}
