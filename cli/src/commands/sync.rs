//! `syncdef sync`: push platform records changed since the last run (the `syncdef-worker`
//! crate does the work), and `sync status` / `resolve` / `reset-cursor` on its state.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use syncdef_engine::{
    Engine, RecordingTransport, ReqwestTransport, StaticToken, TokenProvider, Transport,
};
use syncdef_platform::{Credentials, PlatformClient};
use syncdef_worker::state::State;
use syncdef_worker::status::StatusReport;
use syncdef_worker::{
    Dependencies, Event, Observer, RecordKey, RecordResult, Resolution, Silent, StateLocation,
    SyncOptions, SyncReport, Worker, default_state_path,
};

use super::alive::{AliveArgs, AliveFile};
use super::dry_run::runtime;
use super::reliability::ReliabilityArgs;
use super::tokens::{scheme_credentials, token_provider};
use super::{display_name, load_engine, name_value, read_definition, settings_for};
use crate::conventions::{DefinitionArg, Format, SinceArg};
use crate::failure::{Exit, Failure, output_error};

/// `--direction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DirectionArg {
    /// Platform to external system.
    Push,
    /// External system to platform.
    Pull,
    /// Pull, then push.
    Both,
}

impl From<DirectionArg> for syncdef_worker::Direction {
    fn from(arg: DirectionArg) -> Self {
        match arg {
            DirectionArg::Push => syncdef_worker::Direction::Push,
            DirectionArg::Pull => syncdef_worker::Direction::Pull,
            DirectionArg::Both => syncdef_worker::Direction::Both,
        }
    }
}

/// `syncdef sync`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SyncArgs {
    #[command(subcommand)]
    pub command: Option<SyncCommand>,

    #[command(flatten)]
    pub run: RunArgs,
}

/// The subcommands of `syncdef sync`.
#[derive(Debug, Subcommand)]
pub enum SyncCommand {
    /// Counts per entry and status, cursors, and the failing records with their errors.
    /// Exits 1 when some record failed or waits for an operator.
    Status(StatusArgs),
    /// Settle a record whose create has an unknown outcome (or a failed one) after checking
    /// the external system.
    Resolve(ResolveArgs),
    /// Forget an entry's cursor: the next run starts from --since or from the beginning
    /// (unchanged records are recognised and not pushed again).
    ResetCursor(ResetCursorArgs),
    /// A liveness probe: exit 0 while the worker writing --alive-file FILE shows progress,
    /// 1 when it stopped or stalled (for a service manager or a Kubernetes exec probe).
    Alive(AliveArgs),
}

/// Where the state is: `--state FILE|URL` (or `SYNCDEF_STATE`), or beside the definition.
#[derive(Debug, Args)]
pub struct StateArgs {
    /// The synchronization definition (YAML or JSON); the state defaults to
    /// `<definition>.sync.sqlite` beside it.
    #[arg(value_name = "DEFINITION", required_unless_present = "state")]
    pub definition: Option<PathBuf>,

    /// The state to use instead of the SQLite file beside the definition: another SQLite
    /// file, or a PostgreSQL database (`postgres://user@host/db`) shared by several workers.
    #[arg(long, value_name = "FILE|URL", env = "SYNCDEF_STATE")]
    pub state: Option<String>,
}

impl StateArgs {
    fn location(&self) -> Result<StateLocation, Failure> {
        match (&self.state, &self.definition) {
            (Some(state), _) => Ok(StateLocation::parse(state)),
            (None, Some(definition)) => Ok(StateLocation::Sqlite(default_state_path(definition))),
            (None, None) => Err(Failure::usage(
                "give the definition as the first argument, or --state FILE|URL (or SYNCDEF_STATE)",
            )),
        }
    }
}

/// `syncdef sync` (the run itself).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The platform's base URL (`https://bss.example.com`). Credentials come from the
    /// `SYNCDEF_PLATFORM_*` variables or the file named by `SYNCDEF_PLATFORM_CREDENTIALS`.
    #[arg(long, value_name = "URL", required = true)]
    pub platform: Option<String>,

    #[command(flatten)]
    pub definition: DefinitionArg,

    /// The state: an SQLite file (default `<definition>.sync.sqlite` beside the definition)
    /// or a PostgreSQL database (`postgres://user@host/db`) shared by several workers.
    #[arg(long, value_name = "FILE|URL", env = "SYNCDEF_STATE")]
    pub state: Option<String>,

    /// An entry to sync (repeatable, or comma-separated: `--entry Account,Invoice`); the
    /// entries run in the definition's dependency order.
    #[arg(long, value_name = "NAME", value_delimiter = ',', required = true)]
    pub entry: Vec<String>,

    #[command(flatten)]
    pub since: SinceArg,

    /// Show what would be pushed; nothing is sent to the external system and the state is
    /// not changed.
    #[arg(long)]
    pub dry_run: bool,

    /// Records per listing page (the cursor is saved at least this often).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub page_size: u32,

    /// Stop after this many creates and updates (a cautious first run).
    #[arg(long, value_name = "N")]
    pub max_pushes: Option<u64>,

    /// Push every listed record even when it is unchanged since its last push (after a
    /// change of the definition's mapping; combine with --since).
    #[arg(long)]
    pub force: bool,

    /// Which way records go: `push` platform changes to the external system, `pull` external
    /// changes onto the platform (entries with a `pull.batchRead`), or `both` (pull first,
    /// then push). See docs/pull.md.
    #[arg(long, value_enum, default_value_t = DirectionArg::Push)]
    pub direction: DirectionArg,

    /// With `--direction pull` and one entry: read only this record (repeatable), by its id
    /// in the external system (`pull.read`), and write it onto the platform as a pull does.
    /// The pull cursor does not move.
    #[arg(long = "external-id", value_name = "ID", conflicts_with_all = ["follow", "since"])]
    pub external_ids: Vec<String>,

    /// Keep running: after each run, wait this many seconds and run again, until Ctrl-C or
    /// SIGTERM (which lets the current record finish, then exits 0 unless a record of the
    /// last run failed). Prints each run's summary (`--format json`: one line per run).
    #[arg(long, value_name = "SECONDS", conflicts_with_all = ["dry_run", "max_pushes"])]
    pub follow: Option<u64>,

    /// On a PostgreSQL state shared by several workers: how long a worker's lease on a
    /// record lasts unless renewed; a worker that dies hands its records over after this.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub lease_seconds: u64,

    /// Keep FILE up to date while the worker makes progress (each page, record, and second
    /// of waiting between --follow runs), for `syncdef sync alive --file FILE` as a liveness
    /// probe.
    #[arg(long, value_name = "FILE")]
    pub alive_file: Option<PathBuf>,

    /// On a PostgreSQL state: records this process pushes at once, each pusher taking its own
    /// records from the shared queue as another process would (the account's limits hold for
    /// all of them together).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub pushers: u32,

    /// A server variable over the definition's default (repeatable): `--var realmId=123`.
    #[arg(long = "var", value_name = "NAME=VALUE", value_parser = name_value)]
    pub vars: Vec<(String, String)>,

    /// Send to this base URL instead of the definition's server URL (a sandbox, a proxy).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<url::Url>,

    /// The external system's OAuth2 token store written by `syncdef auth login`. Without
    /// it, the bearer token is `SYNCDEF_ACCESS_TOKEN` if set. The credentials of http basic, http bearer and apiKey
    /// schemes come from `SYNCDEF_<SCHEME>_USER` and `_PASSWORD`, `_TOKEN`, `_KEY`.
    #[arg(long, value_name = "FILE")]
    pub token_store: Option<PathBuf>,

    /// JSON file with `client_id` and `client_secret` for token refreshes (default: the
    /// `SYNCDEF_CLIENT_ID` and `SYNCDEF_CLIENT_SECRET` variables).
    #[arg(long, value_name = "FILE")]
    pub client_file: Option<PathBuf>,

    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// The syncdef.toml to use instead of the nearest one at or above the definition's
    /// directory (its rule levels, `[retry]` and `[rate-limit]`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[command(flatten)]
    pub reliability: ReliabilityArgs,

    #[command(flatten)]
    pub metrics: crate::metrics::MetricsArgs,
}

/// `syncdef sync status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub state: StateArgs,

    /// Most failing records listed.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub limit: u32,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// `syncdef sync resolve`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("resolution").required(true).args(["external_id", "recreate"]))]
pub struct ResolveArgs {
    #[command(flatten)]
    pub state: StateArgs,

    /// The entry of the record (`Account`).
    #[arg(long, value_name = "NAME")]
    pub entry: String,

    /// The record's platform id.
    #[arg(long, value_name = "ID")]
    pub id: String,

    /// The record exists in the external system under this id: keep it (the next run
    /// updates it).
    #[arg(long, value_name = "EXTERNAL_ID")]
    pub external_id: Option<String>,

    /// The record does not exist in the external system: create it on the next run.
    #[arg(long)]
    pub recreate: bool,
}

/// `syncdef sync reset-cursor`.
#[derive(Debug, Args)]
pub struct ResetCursorArgs {
    #[command(flatten)]
    pub state: StateArgs,

    /// The entry whose cursor is forgotten.
    #[arg(long, value_name = "NAME")]
    pub entry: String,
}

pub fn run(args: &SyncArgs) -> Result<ExitCode, Failure> {
    match &args.command {
        Some(SyncCommand::Status(a)) => status(a),
        Some(SyncCommand::Resolve(a)) => resolve(a),
        Some(SyncCommand::ResetCursor(a)) => reset_cursor(a),
        Some(SyncCommand::Alive(a)) => Ok(super::alive::alive(a)),
        None => sync(&args.run),
    }
}

fn state_failure(e: impl std::fmt::Display) -> Failure {
    Failure::usage(e.to_string())
}

fn sync(args: &RunArgs) -> Result<ExitCode, Failure> {
    // clap requires the definition unless a subcommand is given, and then this function is not
    // called.
    let definition_path = args.definition.path()?;
    let platform_url = args.platform.clone().unwrap_or_default();
    let name = display_name(definition_path);
    let settings = settings_for(definition_path, args.config.as_deref())?;
    let definition = read_definition(definition_path)?;
    let dependencies = Dependencies::from_definition(&definition);
    let engine = load_engine(&definition, &name, &settings, args.format == Format::Json)?
        .with_overrides(&args.reliability.overrides());
    let engine = match &args.base_url {
        Some(url) => engine.with_base_url(url.clone()),
        None => engine,
    };
    let metrics = args.metrics.metrics();
    let (engine, transport): (Engine, Arc<dyn Transport>) = if args.dry_run {
        (
            engine.with_token_provider(Arc::new(StaticToken::placeholder("dry-run"))),
            Arc::new(RecordingTransport::synthesizing()),
        )
    } else {
        let tokens = external_tokens(&engine, args, metrics.as_ref())?;
        let credentials = scheme_credentials(&engine)?;
        let transport = ReqwestTransport::new().map_err(|e| Failure::usage(e.to_string()))?;
        (
            engine
                .with_token_provider(tokens)
                .with_credentials(credentials),
            Arc::new(transport),
        )
    };
    let credentials = Credentials::load().map_err(|e| Failure::usage(e.to_string()))?;
    let platform = PlatformClient::builder(platform_url, credentials)
        .build()
        .map_err(|e| Failure::usage(e.to_string()))?;
    let location = match &args.state {
        Some(state) => StateLocation::parse(state),
        None => StateLocation::Sqlite(default_state_path(definition_path)),
    };
    let state: Arc<dyn State> = if args.dry_run {
        location.open_dry_run().map_err(state_failure)?
    } else {
        location.open().map_err(state_failure)?
    };
    let options = SyncOptions {
        entries: args.entry.clone(),
        since: args.since.since.clone(),
        page_size: args.page_size,
        server_variables: args.vars.iter().cloned().collect(),
        dry_run: args.dry_run,
        max_pushes: args.max_pushes,
        force: args.force,
        direction: args.direction.into(),
        lease_seconds: args.lease_seconds,
        pushers: args.pushers,
        refresh: args.external_ids.clone(),
        ..SyncOptions::default()
    };
    // JSON logs are for a collector: they are written even on a terminal, instead of bars.
    let interactive =
        io::stderr().is_terminal() && args.format == Format::Human && !crate::logging::json();
    let worker = Worker::new(engine, transport, &dependencies, platform, state, options)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let observer: Arc<dyn Observer> = if interactive {
        Arc::new(Bars::default())
    } else {
        init_logging();
        Arc::new(Silent)
    };
    let observer = crate::metrics::observed(observer, metrics.as_ref());
    args.metrics.serve(metrics.as_ref())?;
    let alive = args
        .alive_file
        .as_deref()
        .map(|path| AliveFile::start(path, observer.clone()).map(Arc::new))
        .transpose()?;
    // The alive file hands every event on to `observer`.
    let worker = worker.with_observer(match &alive {
        Some(alive) => Arc::clone(alive) as Arc<dyn Observer>,
        None => observer,
    });
    let result = run_worker(args, &worker, alive.as_deref(), &location);
    if let Some(alive) = &alive {
        alive.stopped();
    }
    result
}

/// Runs the worker once, or on and on with `--follow`, until a stop request.
fn run_worker(
    args: &RunArgs,
    worker: &Worker,
    alive: Option<&AliveFile>,
    location: &StateLocation,
) -> Result<ExitCode, Failure> {
    let runtime = runtime()?;
    let stop = worker.stop_handle();
    runtime.spawn(async move {
        // The first Ctrl-C or SIGTERM lets the current record finish; a second one ends the
        // process at once, which is safe too (creates in flight become `unknown`).
        let mut signals = 0;
        while next_signal().await {
            signals += 1;
            if signals > 1 {
                std::process::exit(130);
            }
            eprintln!("syncdef: stopping after the current record (again to stop at once)");
            stop.stop();
        }
    });
    if let Some(every) = args.follow {
        return follow(&runtime, worker, every, args.format, location, alive);
    }
    let report = runtime.block_on(worker.run());
    if let Some(alive) = alive {
        alive.run_ended(&report);
    }
    let text = match args.format {
        Format::Human => human_report(&report, location),
        Format::Json => json_text(serde_json::to_string_pretty(&report))?,
    };
    write_out(&text)?;
    Ok(if report.is_clean() {
        Exit::Success
    } else {
        Exit::Findings
    }
    .into())
}

/// Waits for Ctrl-C or (on Unix) SIGTERM; `false` when signals cannot be watched.
async fn next_signal() -> bool {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            return tokio::signal::ctrl_c().await.is_ok();
        };
        tokio::select! {
            result = tokio::signal::ctrl_c() => result.is_ok(),
            received = term.recv() => received.is_some(),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await.is_ok()
    }
}

/// The external system's tokens, as `syncdef push` gets them: the `--token-store`'s, else
/// `SYNCDEF_ACCESS_TOKEN`.
fn external_tokens(
    engine: &Engine,
    args: &RunArgs,
    metrics: Option<&Arc<crate::metrics::Metrics>>,
) -> Result<Arc<dyn TokenProvider>, Failure> {
    if let (Some(path), Some(metrics)) = (&args.token_store, metrics) {
        return crate::metrics::counted_tokens(engine, path, args.client_file.as_deref(), metrics);
    }
    token_provider(
        engine,
        args.token_store.as_deref(),
        args.client_file.as_deref(),
    )
}

/// Plain log lines on stderr at `info` (`-q`, `-v` or `RUST_LOG` choose otherwise), for runs
/// without a terminal.
fn init_logging() {
    crate::logging::init(tracing_subscriber::filter::LevelFilter::INFO);
}

/// One progress bar per entry on a terminal.
#[derive(Default)]
struct Bars {
    bars: Mutex<HashMap<String, ProgressBar>>,
}

impl Observer for Bars {
    fn event(&self, event: &Event<'_>) {
        let mut bars = self
            .bars
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match event {
            Event::EntryStarted { entry, total } => {
                let bar = match total {
                    Some(n) => ProgressBar::new(*n),
                    None => ProgressBar::new_spinner(),
                };
                let style = ProgressStyle::with_template(
                    "{prefix:>10} [{bar:30}] {pos}/{len} {msg} ({eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
                bar.set_style(style);
                bar.set_prefix((*entry).to_owned());
                bars.insert((*entry).to_owned(), bar);
            }
            Event::Record {
                entry,
                result,
                platform_id,
                error,
            } => {
                if let Some(bar) = bars.get(*entry) {
                    bar.inc(1);
                    bar.set_message(format!("{platform_id}: {result:?}"));
                }
                // Failures stay visible above the bars; successes only move them.
                if matches!(result, RecordResult::Failed | RecordResult::Unknown)
                    && let Some(bar) = bars.values().next()
                {
                    bar.println(crate::redacted::text(&format!(
                        "{entry} {platform_id}: {result:?}: {}",
                        error.unwrap_or("no message")
                    )));
                }
            }
            Event::EntryFinished { entry, .. } => {
                if let Some(bar) = bars.remove(*entry) {
                    bar.finish_and_clear();
                }
            }
            // The bars move with records; pages, requests and waits show as nothing new.
            _ => {}
        }
    }
}

/// `--follow`: runs until a stop request, printing each run's summary as it ends.
fn follow(
    runtime: &tokio::runtime::Runtime,
    worker: &Worker,
    every: u64,
    format: Format,
    location: &StateLocation,
    alive: Option<&AliveFile>,
) -> Result<ExitCode, Failure> {
    let mut printed = Ok(());
    let last = runtime.block_on(worker.follow(Duration::from_secs(every), |report| {
        if let Some(alive) = alive {
            alive.run_ended(report);
        }
        let text = match format {
            Format::Human => Ok(human_report(report, location)),
            Format::Json => serde_json::to_string(report)
                .map(|line| line + "\n")
                .map_err(|e| Failure::usage(e.to_string())),
        };
        if printed.is_ok() {
            printed = text.and_then(|t| write_out(&t));
        }
    }));
    printed?;
    // A stop request ends following cleanly; a stopping failure or failed records do not.
    let failure = last.stopped.is_some() && !worker.stop_handle().requested();
    Ok(if !failure && last.records_clean() {
        Exit::Success
    } else {
        Exit::Findings
    }
    .into())
}

fn human_report(report: &SyncReport, state: &StateLocation) -> String {
    let mut out = syncdef_worker::render::summary(report);
    if !report.is_clean() && !report.dry_run {
        out.push_str(&format!(
            "some records need attention: syncdef sync status --state {}\n",
            state.shown()
        ));
    }
    out
}

fn json_text(text: serde_json::Result<String>) -> Result<String, Failure> {
    let mut text = text.map_err(|e| Failure::usage(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

fn write_out(text: &str) -> Result<(), Failure> {
    let text = crate::redacted::text(text);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| output_error(&e))
}

fn status(args: &StatusArgs) -> Result<ExitCode, Failure> {
    let state = args
        .state
        .location()?
        .open_read_only()
        .map_err(state_failure)?;
    let report = StatusReport::read(&*state, args.limit).map_err(state_failure)?;
    let text = match args.format {
        Format::Json => json_text(serde_json::to_string_pretty(&report))?,
        Format::Human => syncdef_worker::render::status(&report),
    };
    write_out(&text)?;
    Ok(if report.has_problems() {
        Exit::Findings
    } else {
        Exit::Success
    }
    .into())
}

fn resolve(args: &ResolveArgs) -> Result<ExitCode, Failure> {
    let state = args.state.location()?.open().map_err(state_failure)?;
    let resolution = match &args.external_id {
        Some(id) => Resolution::ExternalId(id.clone()),
        None => Resolution::Recreate,
    };
    let key = RecordKey::new(&args.entry, &args.id);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    if !state
        .resolve(&key, &resolution, now)
        .map_err(state_failure)?
    {
        return Err(Failure::findings(format!(
            "{key} is not waiting for a resolution (it is unknown to the state, or done); see `syncdef sync status`"
        )));
    }
    write_out(&match resolution {
        Resolution::ExternalId(id) => {
            format!("{key}: external id {id} stored; the next run updates it\n")
        }
        Resolution::Recreate => format!("{key}: the next run creates it\n"),
    })?;
    Ok(Exit::Success.into())
}

fn reset_cursor(args: &ResetCursorArgs) -> Result<ExitCode, Failure> {
    let state = args.state.location()?.open().map_err(state_failure)?;
    let removed = state.reset_cursor(&args.entry).map_err(state_failure)?;
    write_out(&if removed {
        format!(
            "{}: cursor forgotten; the next run lists from --since or the beginning\n",
            args.entry
        )
    } else {
        format!("{}: had no cursor\n", args.entry)
    })?;
    Ok(Exit::Success.into())
}
