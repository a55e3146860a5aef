//! `syncdef pull`: read an entry's records from the external system (`pull.batchRead`, page by
//! page, or `pull.read` of one record) and write them, in the platform's shape, as JSON Lines.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use syncdef_engine::{Engine, PagePosition, PageRequest, PullPage, ReqwestTransport, Transport};

use super::dry_run::{entry_engine, runtime, transport};
use super::name_value;
use super::reliability::ReliabilityArgs;
use super::tokens::{scheme_credentials, token_provider};
use crate::conventions::{DefinitionArg, DryRunArgs, SinceArg};
use crate::failure::{Failure, output_error};
use crate::progress::Progress;

/// `syncdef pull`.
#[derive(Debug, Args)]
pub struct PullArgs {
    #[command(flatten)]
    pub definition: DefinitionArg,

    /// The entry to pull (its `pull.batchRead`, or `pull.read` with --external-id).
    #[arg(long, value_name = "NAME")]
    pub entry: String,

    /// Read only this record, by its id in the external system (`pull.read`).
    #[arg(long, value_name = "ID")]
    pub external_id: Option<String>,

    // The `{since}` of `x-syncdef.pull`'s query.
    #[command(flatten)]
    pub since: SinceArg,

    /// Stop after this many pages, saying where the next one starts.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_pages: u32,

    /// A server variable over the definition's default (repeatable): `--var realmId=123`.
    #[arg(long = "var", value_name = "NAME=VALUE", value_parser = name_value)]
    pub vars: Vec<(String, String)>,

    /// Send to this base URL instead of the definition's server URL (a sandbox, a proxy).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<url::Url>,

    #[command(flatten)]
    pub dry_run: DryRunArgs,

    /// The OAuth2 token store written by `syncdef auth login`. Without it, the bearer token
    /// is `SYNCDEF_ACCESS_TOKEN` if set. The credentials of http basic, http bearer and
    /// apiKey schemes come from `SYNCDEF_<SCHEME>_USER` and `_PASSWORD`, `_TOKEN`, `_KEY`.
    #[arg(long, value_name = "FILE")]
    pub token_store: Option<PathBuf>,

    /// JSON file with `client_id` and `client_secret`, for token refreshes (default: the
    /// `SYNCDEF_CLIENT_ID` and `SYNCDEF_CLIENT_SECRET` environment variables).
    #[arg(long, value_name = "FILE")]
    pub client_file: Option<PathBuf>,

    /// The syncdef.toml to use instead of the nearest one at or above the definition's
    /// directory.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[command(flatten)]
    pub reliability: ReliabilityArgs,
}

/// What the pull came to, for its summary and exit code.
#[derive(Default)]
struct Tally {
    pages: u32,
    records: usize,
    rejected: usize,
    /// The entry's progress on a terminal.
    bar: Progress,
}

pub fn run(args: &PullArgs) -> Result<ExitCode, Failure> {
    let engine = entry_engine(
        args.definition.path()?,
        &args.entry,
        args.config.as_deref(),
        args.base_url.as_ref(),
        false,
    )?
    .with_overrides(&args.reliability.overrides());
    let engine = connect(&engine, args)?;
    let runtime = runtime()?;
    let variables = args.vars.iter().cloned().collect();
    let mut tally = Tally {
        bar: Progress::pull(&args.entry),
        ..Tally::default()
    };
    let mut out = io::stdout().lock();
    if let Some(id) = &args.external_id {
        let page = runtime.block_on(engine.read(&args.entry, id, &variables));
        return Ok(finish(
            write_page(&mut out, &page, &mut tally)?,
            &tally,
            None,
        ));
    }
    let mut request = PageRequest {
        position: PagePosition::First,
        since: args.since.since.clone(),
        server_variables: variables,
    };
    while tally.pages < args.max_pages {
        let page = runtime.block_on(engine.pull_page(&args.entry, &request));
        let failed = write_page(&mut out, &page, &mut tally)?;
        match page.next {
            Some(next) if !failed => request.position = next,
            _ => return Ok(finish(failed, &tally, None)),
        }
    }
    Ok(finish(false, &tally, Some(&request.position)))
}

/// The engine with its transport: recorded answers for a dry run, else HTTP with the tokens.
fn connect(engine: &Engine, args: &PullArgs) -> Result<Engine, Failure> {
    let transport: Arc<dyn Transport> = if args.dry_run.dry_run {
        Arc::new(transport(args.dry_run.responses.as_deref())?)
    } else {
        Arc::new(ReqwestTransport::new().map_err(|e| Failure::usage(e.to_string()))?)
    };
    let tokens = token_provider(
        engine,
        args.token_store.as_deref(),
        args.client_file.as_deref(),
    )?;
    Ok(engine
        .with_transport(transport)
        .with_token_provider(tokens)
        .with_credentials(scheme_credentials(engine)?))
}

/// Writes the page's records as JSON Lines and its rejected elements and error to standard
/// error; whether the page failed.
fn write_page(out: &mut impl Write, page: &PullPage, tally: &mut Tally) -> Result<bool, Failure> {
    tally.pages += 1;
    for record in &page.records {
        let line = serde_json::json!({
            "externalId": record.external_id,
            "record": serde_json::Value::from(&record.record),
        });
        writeln!(out, "{line}").map_err(|e| output_error(&e))?;
    }
    out.flush().map_err(|e| output_error(&e))?;
    tally.records += page.records.len();
    tally.rejected += page.rejected.len();
    tally.bar.page(tally.pages, page.records.len());
    for rejected in &page.rejected {
        tally.bar.say(&format!(
            "{}: page {}, element {}: {}",
            page.entry, tally.pages, rejected.index, rejected.reason
        ));
    }
    if let Some(error) = &page.error {
        tally
            .bar
            .say(&format!("{}: page {}: {error}", page.entry, tally.pages));
        return Ok(true);
    }
    Ok(false)
}

fn finish(failed: bool, tally: &Tally, stopped_at: Option<&PagePosition>) -> ExitCode {
    let mut summary = format!("{} record(s) from {} page(s)", tally.records, tally.pages);
    if tally.rejected > 0 {
        summary.push_str(&format!(
            ", {} element(s) set apart (above)",
            tally.rejected
        ));
    }
    if let Some(at) = stopped_at {
        let at = serde_json::to_string(at).unwrap_or_default();
        summary.push_str(&format!("; stopped at --max-pages, the next page is {at}"));
    }
    tally.bar.finish();
    eprintln!("{summary}");
    if failed || tally.rejected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
