//! Baseline for the lint benchmark: parse a JSON file with `serde_json` into a
//! `serde_json::Value` and nothing else, as a whole process, so `syncdef lint` can be compared
//! with the cheapest thing any JSON tool must do.
//!
//! ```sh
//! cargo run --release -p syncdef-cli --example serde_parse -- benches/data/api.github.com.json
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: serde_parse FILE.json");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("cannot read {}: {e}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(value) => {
            let keys = value.as_object().map_or(0, serde_json::Map::len);
            println!("{keys} top-level keys");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("invalid JSON: {e}");
            ExitCode::from(1)
        }
    }
}
