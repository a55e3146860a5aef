//! `syncdef schema`: the JSON Schema of the `synchronization` section, for editors; with
//! `--records`, the JSON Schema of the platform records templates read.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use syncdef_definitions::platform;
use syncdef_validator::schema::synchronization_schema;

use crate::failure::{Exit, Failure, output_error};

/// Which schema to print.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Print the platform record schema (`$.account`, `$.invoice`, ... as templates read them)
    /// instead of the `synchronization` section's. Definitions extend it with
    /// `x-syncdef-records`.
    #[arg(long)]
    records: bool,
}

pub fn run(args: &SchemaArgs) -> Result<ExitCode, Failure> {
    let text = if args.records {
        platform::RECORDS_SCHEMA.to_owned()
    } else {
        let mut text = serde_json::to_string_pretty(&synchronization_schema())
            .map_err(|e| Failure::usage(format!("cannot print the schema: {e}")))?;
        text.push('\n');
        text
    };
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| output_error(&e))?;
    Ok(Exit::Success.into())
}
