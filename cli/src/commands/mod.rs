//! One module per subcommand.

pub mod auth;
pub mod dry_run;
pub mod explain;
pub mod lint;
pub mod push;
pub mod rules;
pub mod schema;
pub mod sync;
pub mod transform;

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use crate::failure::Failure;

/// Reads a file, or standard input for `-`, as bytes.
pub fn read_input(path: &Path, what: &str) -> Result<Vec<u8>, Failure> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf).map_err(|e| {
            Failure::usage(format!("cannot read the {what} from standard input: {e}"))
        })?;
        return Ok(buf);
    }
    fs::read(path)
        .map_err(|e| Failure::usage(format!("cannot read the {what} {}: {e}", path.display())))
}

/// The name a path is shown under in messages.
pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}
