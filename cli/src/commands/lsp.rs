//! `syncdef lsp`: the language server on standard input and output (the protocol is the
//! `syncdef-lsp` crate's; this only connects it to the process).

use std::io;
use std::process::ExitCode;

use clap::Args;
use syncdef_lsp::Exit;

use crate::failure::Failure;

/// Exit codes, as LSP asks: 0 after `shutdown` then `exit`; 1 when the client exits without
/// `shutdown` or closes the input; 2 when the standard streams fail.
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Speak LSP on standard input and output (the only transport, and the default; accepted
    /// because many clients pass it).
    #[arg(long)]
    stdio: bool,
}

pub fn run(args: &LspArgs) -> Result<ExitCode, Failure> {
    let _ = args.stdio;
    match syncdef_lsp::serve(io::stdin(), io::stdout()) {
        Ok(Exit::Clean) => Ok(ExitCode::SUCCESS),
        Ok(Exit::WithoutShutdown) => Ok(ExitCode::from(1)),
        Err(e) => Err(Failure::usage(format!(
            "the language server lost its client: {e}"
        ))),
    }
}
