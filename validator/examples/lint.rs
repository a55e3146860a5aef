//! A minimal `syncdef lint` for trying the library before the CLI exists, and for timing it:
//!
//! `cargo run --release -p syncdef-validator --example lint -- catalog/ [--format json]`

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use syncdef_validator::output::{OutputFormat, RenderOptions, write_report};
use syncdef_validator::{Config, lint_paths};

fn main() {
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut format = OutputFormat::Human;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--format" {
            match args.next().map(|f| f.parse::<OutputFormat>()) {
                Some(Ok(f)) => format = f,
                Some(Err(e)) => {
                    eprintln!("lint: {e}");
                    std::process::exit(2);
                }
                None => {
                    eprintln!("lint: --format needs a value");
                    std::process::exit(2);
                }
            }
        } else {
            paths.push(arg.into());
        }
    }
    let start = Instant::now();
    let report = lint_paths(&paths, &Config::default());
    let elapsed = start.elapsed();
    let mut out = std::io::stdout().lock();
    let written = write_report(&mut out, &report, format, &RenderOptions::default());
    let _ = out.flush();
    if let Err(e) = written {
        eprintln!("lint: cannot write the report: {e}");
        std::process::exit(2);
    }
    eprintln!("linted {} file(s) in {elapsed:.2?}", report.summary().files);
    std::process::exit(report.exit_code(false));
}
