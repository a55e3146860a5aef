//! `syncdef push`: push one record and print the outcome; with `--dry-run`, show what it
//! would send instead.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use syncdef_engine::ReqwestTransport;

use super::dry_run::{RecordArgs, print_outcome, runtime};
use super::reliability::ReliabilityArgs;
use super::tokens::{scheme_credentials, token_provider};
use crate::conventions::DryRunArgs;
use crate::failure::Failure;

/// `syncdef push`.
#[derive(Debug, Args)]
pub struct PushArgs {
    #[command(flatten)]
    pub record: RecordArgs,

    #[command(flatten)]
    pub dry_run: DryRunArgs,

    /// The OAuth2 token store written by `syncdef auth login` (owner-only JSON file). Without
    /// it, the bearer token is `SYNCDEF_ACCESS_TOKEN` if set (a definition secured by a static
    /// bearer token). The credentials of http basic, http bearer and apiKey schemes come from
    /// `SYNCDEF_<SCHEME>_USER` and `_PASSWORD`, `_TOKEN`, `_KEY`.
    #[arg(long, value_name = "FILE")]
    pub token_store: Option<PathBuf>,

    /// JSON file with `client_id` and `client_secret`, for token refreshes (default: the
    /// `SYNCDEF_CLIENT_ID` and `SYNCDEF_CLIENT_SECRET` environment variables).
    #[arg(long, value_name = "FILE")]
    pub client_file: Option<PathBuf>,

    #[command(flatten)]
    pub reliability: ReliabilityArgs,
}

pub fn run(args: &PushArgs) -> Result<ExitCode, Failure> {
    if args.dry_run.dry_run {
        return super::dry_run::run(&args.record, args.dry_run.responses.as_deref());
    }
    let engine = args
        .record
        .engine()?
        .with_overrides(&args.reliability.overrides());
    let record = args.record.record(&engine)?;
    let tokens = token_provider(
        &engine,
        args.token_store.as_deref(),
        args.client_file.as_deref(),
    )?;
    let transport = ReqwestTransport::new().map_err(|e| Failure::usage(e.to_string()))?;
    let credentials = scheme_credentials(&engine)?;
    let engine = engine
        .with_transport(Arc::new(transport))
        .with_token_provider(tokens)
        .with_credentials(credentials);
    let state = args.record.state();
    let outcome = runtime()?.block_on(engine.push(&args.record.entry, &record, &state));
    print_outcome(&outcome, args.record.format)
}
