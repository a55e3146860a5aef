//! `syncdef`: lint, transform, dry-run, push and sync synchronization definitions.
//!
//! The binary only parses arguments, calls the libraries and prints; every decision that a
//! library user would also need lives in a library crate.

mod color;
mod commands;
mod conventions;
mod failure;
mod logging;
mod metrics;
mod progress;
mod redacted;
mod snippet;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Lint, transform, dry-run, push, pull and sync synchronization definitions, in the terminal or
/// the editor (lsp), with OAuth2 sign-in.
#[derive(Debug, Parser)]
#[command(name = "syncdef", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(flatten)]
    verbosity: logging::Verbosity,

    #[command(flatten)]
    color: conventions::ColorArg,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Lint definitions: every mistake, located at its file, line and column.
    Lint(commands::lint::LintArgs),
    /// Apply a template to a record (or to every line of a JSON Lines file).
    Transform(commands::transform::TransformArgs),
    /// List the lint rules with their codes, default severities and titles.
    Rules(commands::rules::RulesArgs),
    /// Print the documentation of one lint rule.
    Explain(commands::explain::ExplainArgs),
    /// Print the JSON Schema of the `synchronization` section, for editors (or, with
    /// `--records`, of the platform records templates read).
    Schema(commands::schema::SchemaArgs),
    /// The former spelling of `push --dry-run`.
    #[command(hide = true)]
    DryRun(commands::dry_run::DryRunArgs),
    /// Push one record to the external system (or, with `--dry-run`, show the requests it would
    /// send, without sending anything).
    Push(commands::push::PushArgs),
    /// Read an entry's records from the external system, in the platform's shape (JSON Lines).
    Pull(commands::pull::PullArgs),
    /// Authorize syncdef with the external system (OAuth2).
    Auth(commands::auth::AuthArgs),
    /// Push platform records changed since the last run, in dependency order, with state.
    Sync(Box<commands::sync::SyncArgs>),
    /// Serve the language server on standard input and output: lint findings, completion,
    /// hover, go to definition and quick fixes in the editor (docs/editor-setup.md).
    Lsp(commands::lsp::LspArgs),
    /// Write a starting definition for a vendor's OpenAPI description: an overlay extending it,
    /// with an entry pushing through the operations named.
    New(commands::new::NewArgs),
    /// Print the shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(commands::completions::CompletionsArgs),
}

fn main() -> ExitCode {
    // clap exits with 2 on usage errors and 0 for --help/--version, as documented.
    let cli = Cli::parse_from(conventions::with_current_spellings(std::env::args_os()));
    cli.verbosity.remember();
    cli.color.remember();
    // `sync` logs its progress at `info`, and not at all on a terminal (it draws bars there):
    // it sets up its own logging.
    if !matches!(cli.command, Command::Sync(_)) {
        logging::init(tracing_subscriber::filter::LevelFilter::WARN);
    }
    let result = match cli.command {
        Command::Lint(args) => commands::lint::run(&args),
        Command::Transform(args) => commands::transform::run(&args),
        Command::Rules(args) => commands::rules::run(&args),
        Command::Explain(args) => commands::explain::run(&args),
        Command::Schema(args) => commands::schema::run(&args),
        Command::DryRun(args) => commands::dry_run::run_deprecated(&args),
        Command::Push(args) => commands::push::run(&args),
        Command::Pull(args) => commands::pull::run(&args),
        Command::Auth(args) => commands::auth::run(&args),
        Command::Sync(args) => commands::sync::run(&args),
        Command::Lsp(args) => commands::lsp::run(&args),
        Command::New(args) => commands::new::run(&args),
        Command::Completions(args) => Ok(commands::completions::run(&args, &mut Cli::command())),
    };
    match result {
        Ok(code) => code,
        Err(failure) => failure.report(),
    }
}
