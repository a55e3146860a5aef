//! `syncdef rules`: the rule table.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use syncdef_validator::Rule;

use crate::conventions::Format;
use crate::failure::{Exit, Failure, output_error};

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Output format: a table, or JSON (code, name, severity, title, url per rule).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,

    /// Same as `--format json` (kept for scripts written before `--format`).
    #[arg(long, hide = true, conflicts_with = "format")]
    json: bool,
}

pub fn run(args: &RulesArgs) -> Result<ExitCode, Failure> {
    if args.json {
        crate::conventions::deprecated("--json", "use `--format json`");
    }
    let text = if args.json || args.format == Format::Json {
        let rules: Vec<serde_json::Value> = Rule::ALL
            .iter()
            .map(|rule| {
                serde_json::json!({
                    "code": rule.code(),
                    "name": rule.name(),
                    "severity": rule.default_severity().to_string(),
                    "title": rule.title(),
                    "url": rule.url(),
                })
            })
            .collect();
        let mut text = serde_json::to_string_pretty(&rules).unwrap_or_default();
        text.push('\n');
        text
    } else {
        let width = Rule::ALL.iter().map(|r| r.name().len()).max().unwrap_or(0);
        let mut text = String::new();
        for rule in Rule::ALL {
            text.push_str(&format!(
                "{}  {:<7}  {:<width$}  {}\n",
                rule.code(),
                rule.default_severity().to_string(),
                rule.name(),
                rule.title(),
            ));
        }
        text
    };
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| output_error(&e))?;
    Ok(Exit::Success.into())
}
