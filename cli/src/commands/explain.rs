//! `syncdef explain CODE`: one rule's documentation.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use syncdef_validator::Rule;
use syncdef_validator::suggest::hint;

use crate::failure::{Exit, Failure, output_error};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The rule's code (`SD101`) or name (`unknown-operation-path`).
    #[arg(value_name = "CODE")]
    code: String,
}

pub fn run(args: &ExplainArgs) -> Result<ExitCode, Failure> {
    let wanted = args.code.trim();
    let rule = Rule::from_code(wanted).or_else(|| {
        Rule::ALL
            .iter()
            .copied()
            .find(|rule| rule.name().eq_ignore_ascii_case(wanted))
    });
    let Some(rule) = rule else {
        let mut message = format!("no rule has the code or name {wanted:?}");
        let candidates = Rule::ALL
            .iter()
            .flat_map(|rule| [rule.code().to_owned(), rule.name()]);
        if let Some(hint) = hint(wanted, candidates) {
            message.push_str(&format!("\n\n{hint}"));
        }
        message.push_str("\n\n`syncdef rules` lists every rule");
        return Err(Failure::usage(message));
    };
    let mut text = format!(
        "{} {} ({})\n\n{}\n",
        rule.code(),
        rule.name(),
        rule.default_severity(),
        rule.documentation().trim_end()
    );
    text.push_str(&format!("\nOnline: {}\n", rule.url()));
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| output_error(&e))?;
    Ok(Exit::Success.into())
}
