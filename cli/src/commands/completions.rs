//! `syncdef completions SHELL`: the shell completion script, generated from the command line
//! definition itself, so that it never lists a flag the binary does not have.

use std::io;
use std::process::ExitCode;

use clap::Args;
use clap_complete::Shell;

/// Print the completion script of `syncdef` for a shell: `syncdef completions bash >
/// ~/.local/share/bash-completion/completions/syncdef`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the script for `args.shell` of `command` to standard output.
pub fn run(args: &CompletionsArgs, command: &mut clap::Command) -> ExitCode {
    clap_complete::generate(args.shell, command, "syncdef", &mut io::stdout());
    ExitCode::SUCCESS
}
