//! Lint-clean means push-correct: every mutant of the catalog definitions that the linter lets
//! through (no error) is loaded by the engine and dry-runs every push of every entry over the
//! catalog's sample records without a configuration error. A mutant the engine or a dry-run
//! refuses must have been refused by the linter first.
//!
//! Values a body breaks its schema with are left out: they depend on the record (and, in a
//! dry-run, on stand-ins), and the linter judges them only over `--sample` records.
//!
//! Mutants: every single-line deletion of each catalog YAML definition, and every scalar value
//! of its `synchronization` section and `x-syncdef` replaced by a neighbour (a digit changed,
//! a letter dropped). A run takes every n-th mutant (`AGREEMENT_STRIDE=n`, default 3, to keep
//! the suite's time; 1: all 2,199 of them, about three minutes in a debug build), starting at
//! an offset that moves by one each day (`AGREEMENT_OFFSET=k` fixes it): three days of runs
//! check every mutant, where a fixed stride would never check the others. A failure names the
//! stride and offset that repeat it.

use std::path::PathBuf;
use std::sync::Arc;

use syncdef_definitions::settings::PushConfig;
use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::{Engine, ErrorClass, Intent, RecordState, RecordingTransport, StaticToken};
use syncdef_transform::Value;
use syncdef_validator::{RuleSettings, Severity, lint_definition};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The catalog systems, sorted; each has its test below.
const SYSTEMS: [&str; 3] = [
    "business-central",
    "business-central-odata",
    "quickbooks-online",
];

fn definition_of(system: &str) -> String {
    let path = root().join("catalog").join(system).join("definition.yaml");
    std::fs::read_to_string(&path).expect("the catalog definition")
}

/// The catalog's sample records by module, as the platform API returns them.
fn samples() -> Vec<(&'static str, Value)> {
    ["account-acme-eur", "invoice-acme-eur"]
        .iter()
        .map(|name| {
            let path = root().join("catalog/records").join(format!("{name}.json"));
            let text = std::fs::read_to_string(&path).expect("the sample record");
            let module = if name.starts_with("account") {
                "Accounts"
            } else {
                "Invoices"
            };
            (module, Value::from_json_str(&text).expect("JSON"))
        })
        .collect()
}

/// Every line deletion of `text`, and every line whose scalar value is nudged.
fn mutants(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut deleted = lines.clone();
        deleted.remove(i);
        out.push((
            format!("line {} deleted: {trimmed}", i + 1),
            deleted.join("\n"),
        ));
        if let Some(nudged) = nudge(line) {
            let mut changed = lines.clone();
            changed[i] = &nudged;
            out.push((
                format!("line {} changed: {}", i + 1, nudged.trim_start()),
                changed.join("\n"),
            ));
        }
    }
    out
}

/// `key: value` with its value's first digit changed, or its last letter dropped.
fn nudge(line: &str) -> Option<String> {
    let (key, value) = line.split_once(": ")?;
    if value.is_empty() || value.starts_with('{') || value.starts_with('[') {
        return None;
    }
    if let Some(at) = value.find(|c: char| c.is_ascii_digit()) {
        let digit = value[at..].chars().next()?;
        let other = if digit == '9' {
            '0'
        } else {
            (digit as u8 + 1) as char
        };
        let mut v = value.to_owned();
        v.replace_range(at..=at, &other.to_string());
        return Some(format!("{key}: {v}"));
    }
    let at = value.rfind(|c: char| c.is_ascii_alphabetic())?;
    let mut v = value.to_owned();
    v.remove(at);
    Some(format!("{key}: {v}"))
}

/// Why the engine refuses `text`, which the linter let through; `None` when it agrees.
async fn disagreement(name: &str, text: &str, samples: &[(&str, Value)]) -> Option<String> {
    let Ok(definition) = Definition::load(SourceFile::new(name, text)) else {
        return None;
    };
    let diagnostics = lint_definition(&definition, &RuleSettings::default(), true);
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return None;
    }
    let limits = syncdef_transform::Limits::default();
    let engine =
        match Engine::load_linted(&definition, diagnostics, &PushConfig::default(), &limits) {
            Ok(loaded) => loaded.engine,
            Err(refused) => return Some(format!("the engine refuses it: {refused}")),
        }
        .with_transport(Arc::new(RecordingTransport::synthesizing()))
        .with_token_provider(Arc::new(StaticToken::new("stand-in")));
    let entries: Vec<(String, String)> = definition
        .sync
        .iter()
        .flat_map(|s| &s.entries)
        .filter_map(|e| Some((e.key.value.clone(), e.module.as_ref()?.value.clone())))
        .collect();
    for (entry, module) in &entries {
        for (record_module, record) in samples {
            if module != record_module {
                continue;
            }
            let mut state = RecordState::new();
            for (other, _) in &entries {
                state = state.with_related(other, "1");
            }
            for (kind, state) in [
                ("create", state.clone()),
                ("update", state.clone().with_external_id("1")),
                (
                    "delete",
                    state
                        .clone()
                        .with_external_id("1")
                        .with_intent(Intent::Delete),
                ),
            ] {
                let has = engine.plan().entry(entry).is_some_and(|e| {
                    e.has(match kind {
                        "create" => syncdef_engine::OperationKind::Create,
                        "update" => syncdef_engine::OperationKind::Update,
                        _ => syncdef_engine::OperationKind::Delete,
                    })
                });
                if !has {
                    continue;
                }
                let outcome = engine.push(entry, record, &state).await;
                // A body whose *values* break the schema depends on the record and, in a
                // dry-run, on the stand-ins for what responses lack: the linter judges values
                // only over records given with `--sample` (the catalog's, in
                // `catalog::the_catalog_lints_clean_with_its_own_sample_records`), so such a
                // refusal is no disagreement here. A schema that cannot be checked at all is.
                let error = outcome.error.filter(|e| {
                    e.class == ErrorClass::Configuration
                        && !e.message.contains("does not fit the request body schema")
                });
                if let Some(error) = error {
                    return Some(format!("the {kind} of `{entry}` fails: {error}"));
                }
            }
        }
    }
    None
}

/// The mutants of one catalog system's definition that lint clean and then fail. One test per
/// system, so that the test harness checks them side by side.
async fn check_system(system: &str) {
    let stride = setting("AGREEMENT_STRIDE").unwrap_or(3).max(1);
    let offset = setting("AGREEMENT_OFFSET").unwrap_or_else(days_since_epoch) % stride;
    let samples = samples();
    let text = definition_of(system);
    let mut failures = Vec::new();
    let mut tried = 0;
    for (what, mutant) in mutants(&text).into_iter().skip(offset).step_by(stride) {
        tried += 1;
        if let Some(why) = disagreement(system, &mutant, &samples).await {
            failures.push(format!("{system}, {what}: lint is clean, but {why}"));
        }
    }
    assert!(tried > 100, "only {tried} mutants of {system}");
    assert!(
        failures.is_empty(),
        "{} of {tried} mutants lint clean and then fail (AGREEMENT_STRIDE={stride} AGREEMENT_OFFSET={offset} repeats this run):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A number from the environment variable `name`, when it is set to one.
fn setting(name: &str) -> Option<usize> {
    std::env::var(name).ok()?.parse().ok()
}

/// Whole days since 1970: the default offset, the same for every run of one day.
fn days_since_epoch() -> usize {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    usize::try_from(seconds / 86_400).unwrap_or(0)
}

#[tokio::test(flavor = "current_thread")]
async fn what_lints_clean_loads_and_dry_runs_quickbooks_online() {
    check_system("quickbooks-online").await;
}

#[tokio::test(flavor = "current_thread")]
async fn what_lints_clean_loads_and_dry_runs_business_central() {
    check_system("business-central").await;
}

#[tokio::test(flavor = "current_thread")]
async fn what_lints_clean_loads_and_dry_runs_business_central_odata() {
    check_system("business-central-odata").await;
}

#[test]
fn every_catalog_system_is_checked() {
    let mut systems: Vec<String> = std::fs::read_dir(root().join("catalog"))
        .expect("the catalog")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("definition.yaml").is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    systems.sort();
    assert_eq!(
        systems, SYSTEMS,
        "a catalog system without its agreement test above"
    );
}
