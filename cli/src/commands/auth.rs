//! `syncdef auth login`: authorize syncdef with the external system and write the token store.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use syncdef_definitions::Definition;
use syncdef_engine::auth::{FileTokenStore, LoginFlow, LoginOptions, OAuthSettings};

use super::display_name;
use super::dry_run::runtime;
use super::tokens::client_credentials;
use crate::conventions::DefinitionArg;
use crate::failure::{Exit, Failure};

/// `syncdef auth`.
#[derive(Debug, Args)]
pub struct AuthArgs {
    #[command(subcommand)]
    pub command: AuthCommand,
}

/// The `auth` subcommands.
#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Run the definition's OAuth2 authorization-code flow (PKCE, loopback redirect) and
    /// write the token store.
    Login(LoginArgs),
}

/// `syncdef auth login`.
#[derive(Debug, Args)]
pub struct LoginArgs {
    // The definition whose OAuth2 scheme to use.
    #[command(flatten)]
    pub definition: DefinitionArg,

    /// Where to write the tokens (created with mode 0600).
    #[arg(long, value_name = "FILE")]
    pub token_store: PathBuf,

    /// JSON file with `client_id` and `client_secret` (default: the `SYNCDEF_CLIENT_ID` and
    /// `SYNCDEF_CLIENT_SECRET` environment variables). Never passed as arguments.
    #[arg(long, value_name = "FILE")]
    pub client_file: Option<PathBuf>,

    /// Port of the loopback redirect listener on 127.0.0.1 (default: a free one). Use the
    /// port of the redirect URI registered with the provider.
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    pub port: u16,
}

/// Refuses a token store that could not be written before the user goes through the browser:
/// the code is single-use, so a failed save means authorizing again.
fn check_store_path(path: &Path) -> Result<(), Failure> {
    if path.is_dir() {
        return Err(Failure::usage(format!(
            "--token-store {} is a directory; give the path of a file (it is created)",
            path.display()
        )));
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(Failure::usage(format!(
            "the directory of --token-store {} does not exist; create it first, or give another path",
            path.display()
        )));
    }
    Ok(())
}

pub fn run(args: &AuthArgs) -> Result<ExitCode, Failure> {
    match &args.command {
        AuthCommand::Login(login) => run_login(login),
    }
}

fn run_login(args: &LoginArgs) -> Result<ExitCode, Failure> {
    let path = args.definition.path()?;
    let name = display_name(path);
    let definition = Definition::load_path(path)
        .map_err(|e| Failure::usage(format!("{name}: {}", e.message)))?;
    let settings = OAuthSettings::from_openapi(&definition.openapi())
        .map_err(|e| Failure::findings(format!("{name}: {}", e.message)))?;
    let credentials = client_credentials(args.client_file.as_deref())?;
    let options = LoginOptions {
        port: args.port,
        ..LoginOptions::default()
    };
    check_store_path(&args.token_store)?;
    let store = FileTokenStore::new(&args.token_store);
    let result = runtime()?.block_on(async {
        let flow = LoginFlow::start(settings, credentials, &options).await?;
        eprintln!(
            "Open this URL in a browser and authorize syncdef:\n\n  {}\n",
            flow.url()
        );
        eprintln!("Waiting for the redirect to {} ...", flow.redirect_uri());
        flow.finish(&store).await
    });
    let result = result.map_err(|e| Failure {
        exit: Exit::Findings,
        message: e.message,
    })?;
    println!("Tokens saved to {}.", args.token_store.display());
    if !result.has_refresh_token {
        println!(
            "The provider issued no refresh token: log in again when the access token expires."
        );
    }
    for (k, v) in &result.redirect_parameters {
        println!("The redirect also gave {k}={v} (for a server variable: --var {k}={v}).");
    }
    Ok(ExitCode::SUCCESS)
}
