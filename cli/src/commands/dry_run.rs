//! `syncdef push --dry-run`: run a push with the recording transport and print every request
//! it would send, every template's output and the outcome; and what `push` and its dry run
//! share: the record's arguments, the engine, the printed outcome.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use syncdef_engine::render::{human_report, json_report};
use syncdef_engine::{Engine, Intent, PushOutcome, RecordState, RecordingTransport, StaticToken};
use syncdef_transform::Value;

use super::{display_name, load_engine, name_value, read_definition, read_input, settings_for};
use crate::conventions::{DefinitionArg, Format, deprecated};
use crate::failure::{Exit, Failure, output_error};

/// What a push is about: the definition, the entry, the record and its state. Shared by
/// `push` and its dry run.
#[derive(Debug, Args)]
pub struct RecordArgs {
    #[command(flatten)]
    pub definition: DefinitionArg,

    /// The entry to push (`Account`, `Invoice`).
    #[arg(long, value_name = "NAME")]
    pub entry: String,

    /// The platform record, a JSON file (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub record: PathBuf,

    /// The record's external id: the push updates it instead of creating it.
    #[arg(long, value_name = "ID")]
    pub external_id: Option<String>,

    /// Delete the record (needs --external-id and a `push.delete` in the entry).
    #[arg(long, requires = "external_id")]
    pub delete: bool,

    /// External id of a related record, for `{Entry.IntegrationId}` placeholders
    /// (repeatable): `--related Account=67`.
    #[arg(long, value_name = "ENTRY=ID", value_parser = name_value)]
    pub related: Vec<(String, String)>,

    /// A server variable over the definition's default (repeatable): `--var realmId=123`.
    #[arg(long = "var", value_name = "NAME=VALUE", value_parser = name_value)]
    pub vars: Vec<(String, String)>,

    /// Send to this base URL instead of the definition's server URL (a sandbox, a proxy).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<url::Url>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// The syncdef.toml to use instead of the nearest one at or above the definition's
    /// directory (its rule levels, `[retry]` and `[rate-limit]`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `syncdef dry-run`, the former spelling of `syncdef push --dry-run`.
#[derive(Debug, Args)]
pub struct DryRunArgs {
    #[command(flatten)]
    pub record: RecordArgs,

    /// Responses to feed back, as `push --responses` takes them.
    #[arg(long, value_name = "FILE")]
    pub responses: Option<PathBuf>,
}

impl RecordArgs {
    /// Loads the definition into an engine with its `syncdef.toml`, printing the definition's
    /// diagnostics when it has errors (as JSON on stdout when the command prints `json`).
    pub fn engine(&self) -> Result<Engine, Failure> {
        entry_engine(
            self.definition.path()?,
            &self.entry,
            self.config.as_deref(),
            self.base_url.as_ref(),
            self.format == Format::Json,
        )
    }

    /// The record file, as JSON. A record wrapped in the entry's module root
    /// (`{"account": {...}}`, the shape `syncdef transform` takes) is refused: the engine
    /// wraps the record itself, so every field would read as null.
    pub fn record(&self, engine: &Engine) -> Result<Value, Failure> {
        let bytes = read_input(&self.record, "record")?;
        let name = display_name(&self.record);
        let record = Value::from_json_slice(&bytes)
            .map_err(|e| Failure::usage(format!("the record {name} is not JSON: {e}")))?;
        let root = engine
            .plan()
            .entry(&self.entry)
            .map(syncdef_engine::EntryPlan::root);
        let wrapped = match (root, record.as_object()) {
            (Some(root), Some(object)) => {
                object.len() == 1 && object.get(root).is_some_and(|v| v.as_object().is_some())
            }
            _ => false,
        };
        if let (true, Some(root)) = (wrapped, root) {
            return Err(Failure::usage(format!(
                "{name}: the record is wrapped as {{\"{root}\": {{...}}}}, the shape `syncdef transform` takes; dry-run and push place the record under `{root}` themselves, so give the record alone: the object inside `{root}`, as the platform API returns it (as catalog/records/*.json ship it)"
            )));
        }
        Ok(record)
    }

    /// The record state from the flags.
    pub fn state(&self) -> RecordState {
        RecordState {
            external_id: self.external_id.clone(),
            related: self.related.iter().cloned().collect(),
            server_variables: self.vars.iter().cloned().collect(),
            intent: if self.delete {
                Intent::Delete
            } else {
                Intent::Upsert
            },
            unresolved_create: None,
        }
    }
}

/// The engine of `definition` (with its `syncdef.toml`, or `config`), checked to have `entry`,
/// sending to `base_url` when given. The definition's diagnostics are printed when it has errors
/// (as JSON on stdout when `json`).
pub fn entry_engine(
    definition: &Path,
    entry: &str,
    config: Option<&Path>,
    base_url: Option<&url::Url>,
    json: bool,
) -> Result<Engine, Failure> {
    let name = display_name(definition);
    let settings = settings_for(definition, config)?;
    let loaded = read_definition(definition)?;
    let engine = load_engine(&loaded, &name, &settings, json)?;
    if engine.plan().entry(entry).is_none() {
        let entries: Vec<&str> = engine.plan().entry_names().collect();
        return Err(Failure::usage(format!(
            "{name} has no entry `{entry}`; use --entry with one of: {}",
            entries.join(", ")
        )));
    }
    Ok(match base_url {
        Some(url) => engine.with_base_url(url.clone()),
        None => engine,
    })
}

/// Prints `outcome` in `format`; exit 0 when the push succeeded, 1 when it failed.
pub fn print_outcome(outcome: &PushOutcome, format: Format) -> Result<ExitCode, Failure> {
    let text = match format {
        Format::Human => human_report(outcome),
        Format::Json => {
            let mut t = serde_json::to_string_pretty(&json_report(outcome))
                .map_err(|e| Failure::usage(e.to_string()))?;
            t.push('\n');
            t
        }
    };
    let text = crate::redacted::text(&text);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| output_error(&e))?;
    let exit = if outcome.is_success() {
        Exit::Success
    } else {
        Exit::Findings
    };
    Ok(exit.into())
}

/// A runtime for one command: pushes are I/O-bound and one at a time here.
pub fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::usage(format!("cannot start the async runtime: {e}")))
}

pub fn transport(responses: Option<&Path>) -> Result<RecordingTransport, Failure> {
    let Some(path) = responses else {
        return Ok(RecordingTransport::synthesizing());
    };
    let bytes = read_input(path, "responses")?;
    let json: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        Failure::usage(format!(
            "the responses {} are not JSON: {e}",
            display_name(path)
        ))
    })?;
    RecordingTransport::from_json(&json)
        .map_err(|e| Failure::usage(format!("the responses {}: {e}", display_name(path))))
}

/// `syncdef dry-run`: says what replaces it, then runs it.
pub fn run_deprecated(args: &DryRunArgs) -> Result<ExitCode, Failure> {
    deprecated("syncdef dry-run", "use `syncdef push --dry-run`");
    run(&args.record, args.responses.as_deref())
}

/// The push of `args` with nothing sent: each request answered from `responses`, else
/// synthesised from the operation's example or schema.
pub fn run(args: &RecordArgs, responses: Option<&Path>) -> Result<ExitCode, Failure> {
    let engine = args.engine()?;
    let record = args.record(&engine)?;
    let transport = transport(responses)?;
    // A stand-in token shows where the real one goes; it is masked like a real one.
    let engine = engine
        .with_transport(Arc::new(transport))
        .with_token_provider(Arc::new(StaticToken::placeholder("dry-run")));
    let state = args.state();
    let outcome = runtime()?.block_on(engine.push(&args.entry, &record, &state));
    print_outcome(&outcome, args.format)
}
