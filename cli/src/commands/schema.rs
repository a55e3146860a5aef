//! `syncdef schema`: the JSON Schema of the `synchronization` section, for editors.

use std::io::{self, Write};
use std::process::ExitCode;

use syncdef_validator::schema::synchronization_schema;

use crate::failure::{Exit, Failure, output_error};

pub fn run() -> Result<ExitCode, Failure> {
    let mut text = serde_json::to_string_pretty(&synchronization_schema())
        .map_err(|e| Failure::usage(format!("cannot print the schema: {e}")))?;
    text.push('\n');
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| output_error(&e))?;
    Ok(Exit::Success.into())
}
