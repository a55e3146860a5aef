//! Where lint time goes on one file: load with spans, model (OpenAPI, `$ref`s), rules.
//!
//! `cargo run --release -p syncdef-validator --example lint_phases -- FILE`

use std::time::Instant;

use syncdef_definitions::load::load_bytes;
use syncdef_definitions::{Definition, LoadOptions};
use syncdef_validator::{RuleSettings, lint_definition};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("phases: give a file");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("phases: cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let t = Instant::now();
    let parsed = serde_json::from_slice::<serde_json::Value>(&bytes).is_ok();
    println!(
        "serde_json::Value parse: {:.2?} (json: {parsed})",
        t.elapsed()
    );
    let t = Instant::now();
    let doc = match load_bytes(path.clone(), bytes, &LoadOptions::default()) {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!("phases: {e}");
            std::process::exit(1);
        }
    };
    println!("load with spans:          {:.2?}", t.elapsed());
    let t = Instant::now();
    let refs = syncdef_definitions::refs::check(&doc.root()).len();
    println!(
        "$ref checks alone:        {:.2?} ({refs} problems)",
        t.elapsed()
    );
    let t = Instant::now();
    let def = Definition::from_document(doc);
    println!("model (OpenAPI + $refs):  {:.2?}", t.elapsed());
    let t = Instant::now();
    let diagnostics = lint_definition(&def, &RuleSettings::default(), true);
    println!(
        "rules:                    {:.2?} ({} diagnostics)",
        t.elapsed(),
        diagnostics.len()
    );
}
