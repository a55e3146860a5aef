//! Lint-clean means push-correct: every mutant of the catalog definitions that the linter lets
//! through (no error) is loaded by the engine and dry-runs every push of every entry over the
//! catalog's sample records without a configuration error. A mutant the engine or a dry-run
//! refuses must have been refused by the linter first.
//!
//! Lint is run over the records the dry-runs push (`lint --sample` and `--related` as a user
//! would give them), and every request a dry-run would send is judged by a third party as
//! well: its body validated with the `jsonschema` crate against the request body its operation
//! declares (`agreement/body_schema.rs`, with the tests' own reading of OpenAPI,
//! `tests/openapi_support/json_schema.rs`, not the engine's). A lint-clean
//! mutant whose request that schema refuses is a disagreement, as is one the engine refuses.
//!
//! Mutants, by class: every single-line deletion of each catalog YAML definition; every scalar
//! value of its `synchronization` section and `x-syncdef` replaced by a neighbour (a digit
//! changed, a letter dropped); every key of those two sections renamed by one edit (its last
//! letter dropped), and deleted with everything under it; every template replaced by a value
//! of each JSON kind (null, a boolean, a number, a string, an array, an empty object; the
//! array and the string also as JSON text); every media type of the document swapped for
//! another; every `{placeholder}` of the two sections renamed; every action's `in` flipped
//! (Body, Header, Query). A lint-clean mutant must also never report success for a failed
//! answer to its create: an array body, `success: false` with `errors` as an array or a
//! string, an answer without an id, a 2xx carrying a vendor's error shape (QuickBooks' `Fault`,
//! Business Central's `error`).
//!
//! Both directions hold for every mutant as users load it: a mutant lint reports an error for
//! is refused by `Engine::load_linted` with lint's findings (what `Engine::load` and the CLI
//! do), and a lint-clean one loads and dry-runs. Apart from that gate, the engine's own checks
//! are counted below.
//!
//! A run takes every n-th mutant (`AGREEMENT_STRIDE=n`, default 5, to keep the suite's time;
//! `AGREEMENT_STRIDE=1 cargo test -p syncdef-engine --test it agreement:: -- --nocapture` runs them
//! all), starting at an offset that moves by one each day (`AGREEMENT_OFFSET=k` fixes it): five
//! days of runs check every mutant, where a fixed stride would never check the others. A
//! failure names the stride and offset that repeat it. Each run prints, per class, the mutants
//! tried, those lint reports an error for, those the engine refuses (loaded whatever lint
//! says), and those where the two agree (docs/benchmarks.md, "Lint and push agreement"). A
//! mutant lint reports an error for that the engine's own checks would carry out is counted
//! and its first cases per class printed: the lint gate refuses it (checked above), and lint
//! there is stricter than the engine's checks (unknown keys, OpenAPI structure, the pull side,
//! which these dry-runs do not run).

mod body_schema;

use std::path::PathBuf;
use std::sync::Arc;

use body_schema::BodySchemas;

use syncdef_definitions::operation_ref::OperationRef;
use syncdef_definitions::settings::PushConfig;
use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::{
    Engine, ErrorClass, Intent, OperationKind, RecordState, RecordingTransport, StaticToken,
    StepResponse,
};
use syncdef_transform::Value;
use syncdef_validator::{RuleSettings, Samples, Severity, lint_definition_over};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The catalog systems, sorted; each has its test below.
const SYSTEMS: [&str; 5] = [
    "business-central",
    "business-central-odata",
    "quickbooks-online",
    "stripe",
    "xero",
];

fn definition_path(system: &str) -> PathBuf {
    root().join("catalog").join(system).join("definition.yaml")
}

fn definition_of(system: &str) -> String {
    std::fs::read_to_string(definition_path(system)).expect("the catalog definition")
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

/// A mutant: its class, what was changed, and its text.
type Mutant = (&'static str, String, String);

/// Every mutant of `text`, class by class.
fn mutants(text: &str) -> Vec<Mutant> {
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
            "line deleted",
            format!("line {} deleted: {trimmed}", i + 1),
            deleted.join("\n"),
        ));
        if let Some(nudged) = nudge(line) {
            let mut changed = lines.clone();
            changed[i] = &nudged;
            out.push((
                "value nudged",
                format!("line {} changed: {}", i + 1, nudged.trim_start()),
                changed.join("\n"),
            ));
        }
    }
    out.extend(section_mutants(&lines));
    out
}

/// `lines` with line `i` and those up to `resume` replaced by `new`.
fn spliced(lines: &[&str], i: usize, new: &[String], resume: usize) -> String {
    let mut out: Vec<&str> = lines[..i].to_vec();
    out.extend(new.iter().map(String::as_str));
    out.extend(&lines[resume..]);
    out.join("\n")
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The mutants of the lines of the `synchronization` section and `x-syncdef`, and of media
/// types anywhere.
fn section_mutants(lines: &[&str]) -> Vec<Mutant> {
    let mut out = Vec::new();
    // The indent of the section's key: at the top of a definition, deeper in an overlay's
    // `update`.
    let mut section: Option<usize> = None;
    for (i, line) in lines.iter().enumerate() {
        let indent = indent_of(line);
        let opens = ["synchronization:", "x-syncdef:"]
            .iter()
            .any(|key| line.trim_start().starts_with(key));
        if !line.trim().is_empty() && section.is_some_and(|at| indent <= at) {
            section = None;
        }
        if opens {
            section = Some(indent);
        }
        if let Some(media) = ["application/json:", "application/xml:"]
            .iter()
            .find(|m| line.trim_start().starts_with(**m))
        {
            let other = if *media == "application/json:" {
                "text/plain:"
            } else {
                "application/json:"
            };
            let swapped = line.replacen(media, other, 1);
            let what = format!("line {}: {}", i + 1, swapped.trim());
            out.push((
                "media type swapped",
                what,
                spliced(lines, i, &[swapped], i + 1),
            ));
        }
        if section.is_none_or(|at| indent <= at) {
            continue;
        }
        out.extend(key_mutants(lines, i));
        out.extend(placeholder_mutant(lines, i));
    }
    out
}

/// The key of line `i` renamed and deleted (with its block), a template replaced by a value
/// of each JSON kind, an action's `in` flipped.
fn key_mutants(lines: &[&str], i: usize) -> Vec<Mutant> {
    let line = lines[i];
    let indent = indent_of(line);
    let trimmed = line.trim_start();
    let Some(key) = trimmed
        .split_once(':')
        .map(|(k, _)| k.trim_matches(['"', '\'']))
        .filter(|k| k.len() > 1 && !k.starts_with('-') && !k.contains(' '))
    else {
        return Vec::new();
    };
    let block_end = (i + 1..lines.len())
        .find(|&k| !lines[k].trim().is_empty() && indent_of(lines[k]) <= indent)
        .unwrap_or(lines.len());
    let mut renamed = key.to_owned();
    renamed.pop();
    let changed = line.replacen(key, &renamed, 1);
    let mut out = vec![
        (
            "key renamed",
            format!("line {}: {}", i + 1, changed.trim()),
            spliced(lines, i, &[changed], i + 1),
        ),
        (
            "key deleted",
            format!("line {} deleted with its block: {trimmed}", i + 1),
            spliced(lines, i, &[], block_end),
        ),
    ];
    let is_template = (key.ends_with("Request") || key.ends_with("Response"))
        && lines[..i]
            .iter()
            .rev()
            .find(|l| indent_of(l) < indent)
            .is_some_and(|l| l.trim_start().starts_with("schemasTransformer:"));
    let kinds: &[&str] = if is_template {
        &[
            "null",
            "true",
            "7",
            "\"text\"",
            "[]",
            "{}",
            "'[]'",
            "'\"text\"'",
        ]
    } else {
        &[]
    };
    for kind in kinds {
        let written = format!("{}{key}: {kind}", &line[..indent]);
        let what = format!("line {}: {}", i + 1, written.trim());
        out.push((
            "template kind",
            what,
            spliced(lines, i, &[written], block_end),
        ));
    }
    if key == "in" {
        for place in ["Body", "Header", "Query"] {
            if !trimmed.contains(place) {
                let written = format!("{}in: {place}", &line[..indent]);
                let what = format!("line {}: {}", i + 1, written.trim());
                out.push((
                    "action in flipped",
                    what,
                    spliced(lines, i, &[written], i + 1),
                ));
            }
        }
    }
    out
}

/// The first `{placeholder}` of line `i` renamed.
fn placeholder_mutant(lines: &[&str], i: usize) -> Option<Mutant> {
    let line = lines[i];
    let open = line.find('{')?;
    let close = line[open..].find('}')?;
    let name = &line[open + 1..open + close];
    if name.is_empty() || name.contains([' ', ':', '"']) {
        return None;
    }
    let changed = line.replacen(&format!("{{{name}}}"), &format!("{{{name}x}}"), 1);
    let what = format!("line {}: {}", i + 1, changed.trim());
    Some((
        "placeholder renamed",
        what,
        spliced(lines, i, &[changed], i + 1),
    ))
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

/// What the linter and the engine make of one mutant.
struct Verdict {
    /// Whether lint reports an error.
    lint_error: bool,
    /// Why the engine, made to load the mutant whatever lint says, refuses it or fails a push
    /// of it for a definition reason.
    refused: Option<String>,
    /// A failed answer to a create of a lint-clean mutant that the engine reports as a success.
    false_success: Option<String>,
}

/// One push of a dry-run: entry, record, state, operation.
type Push<'s> = (String, &'s Value, RecordState, OperationKind);

/// The verdicts on `text`; `None` when it does not load as a definition at all.
async fn verdict(name: &str, text: &str, samples: &[(&str, Value)]) -> Option<Verdict> {
    let definition = Definition::load(SourceFile::new(name, text)).ok()?;
    // Over the records the dry-run pushes, as `syncdef lint --sample` takes them: what those
    // pushes would send is judged by both.
    let over = lint_samples(&definition, samples);
    let diagnostics = lint_definition_over(&definition, &RuleSettings::default(), true, &over);
    let lint_error = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let limits = syncdef_transform::Limits::default();
    // As users load it: with lint's findings, which the engine refuses on any error. This is
    // what makes "lint reports an error" imply "the engine refuses" for every mutant.
    let gated = Engine::load_linted(&definition, diagnostics, &PushConfig::default(), &limits);
    if lint_error && gated.is_ok() {
        return Some(Verdict {
            lint_error,
            refused: None,
            false_success: Some("lint reports an error, yet the engine loads it".to_owned()),
        });
    }
    let loaded = Engine::load_linted(&definition, Vec::new(), &PushConfig::default(), &limits);
    let engine = match loaded {
        Ok(loaded) => loaded.engine,
        Err(refused) => {
            return Some(Verdict {
                lint_error,
                refused: Some(format!("the engine refuses it: {refused}")),
                false_success: None,
            });
        }
    };
    let pushes = pushes(&definition, samples);
    let refused = dry_run_refusal(&engine, &definition, &pushes).await;
    let false_success = if lint_error || refused.is_some() {
        None
    } else {
        false_success(&engine, &pushes).await
    };
    Some(Verdict {
        lint_error,
        refused,
        false_success,
    })
}

/// The external id every related record has in the dry-runs.
const RELATED_ID: &str = "1";

/// Every entry with its module: (entry, module).
fn entries(definition: &Definition) -> Vec<(String, String)> {
    definition
        .sync
        .iter()
        .flat_map(|s| &s.entries)
        .filter_map(|e| Some((e.key.value.clone(), e.module.as_ref()?.value.clone())))
        .collect()
}

/// The pushes of every entry over the samples of its module.
fn pushes<'s>(definition: &Definition, samples: &'s [(&str, Value)]) -> Vec<Push<'s>> {
    let entries = entries(definition);
    let mut state = RecordState::new();
    for (other, _) in &entries {
        state = state.with_related(other, RELATED_ID);
    }
    let mut out = Vec::new();
    for (entry, module) in &entries {
        for (record_module, record) in samples {
            if module != record_module {
                continue;
            }
            let updated = state.clone().with_external_id("1");
            let deleted = updated.clone().with_intent(Intent::Delete);
            out.push((entry.clone(), record, state.clone(), OperationKind::Create));
            out.push((entry.clone(), record, updated, OperationKind::Update));
            out.push((entry.clone(), record, deleted, OperationKind::Delete));
        }
    }
    out
}

/// What lint renders request templates over: each entry's sample record (by its module) and
/// the related records' external ids the dry-run's states carry.
fn lint_samples(definition: &Definition, samples: &[(&str, Value)]) -> Samples {
    let mut over = Samples::default();
    for (entry, module) in entries(definition) {
        if let Some((_, record)) = samples.iter().find(|(m, _)| *m == module) {
            over.records
                .insert(entry.clone(), serde_json::Value::from(record.clone()));
        }
        over.related.insert(entry, RELATED_ID.to_owned());
    }
    over
}

/// The first push of `pushes` the engine fails for a definition reason, or whose requests the
/// operation's own schema refuses, dry-running.
async fn dry_run_refusal(
    engine: &Engine,
    definition: &Definition,
    pushes: &[Push<'_>],
) -> Option<String> {
    let schemas = BodySchemas::of(definition);
    for (entry, record, state, kind) in pushes {
        if !engine.plan().entry_has(entry, *kind) {
            continue;
        }
        let transport = Arc::new(RecordingTransport::synthesizing());
        let engine = engine
            .with_transport(Arc::clone(&transport) as _)
            .with_token_provider(Arc::new(StaticToken::new("stand-in")));
        let outcome = engine.push(entry, record, state).await;
        let error = outcome
            .error
            .filter(|e| e.class == ErrorClass::Configuration);
        if let Some(error) = error {
            return Some(format!("the {} of `{entry}` fails: {error}", kind.as_str()));
        }
        for request in transport.requests() {
            let Some(operation) = operation_of(definition, entry, &request.step) else {
                continue;
            };
            if let Some(why) = schemas.refusal(&operation, &request) {
                return Some(format!(
                    "the {} of `{entry}` would send its `{}` request with {why}",
                    kind.as_str(),
                    request.step
                ));
            }
        }
    }
    None
}

/// The operation a request of `entry`'s push was sent for: its `create`, `update` or `delete`,
/// or the `ApiPath` action of that name; for a line's request (`Items[0] id 7: create`), the
/// operation of the entry of lines the `Items` action pushes.
fn operation_of(definition: &Definition, entry: &str, step: &str) -> Option<OperationRef> {
    if let Some((line, step)) = step.split_once(": ") {
        let action = line.split('[').next()?;
        return operation_of(definition, &lines_entry(definition, entry, action)?, step);
    }
    let push = definition.sync.as_ref()?.entry(entry)?.push.as_ref()?;
    let field = match step {
        "create" => push.create.as_ref(),
        "update" => push.update.as_ref(),
        "delete" => push.delete.as_ref(),
        _ => None,
    };
    if let Some(field) = field {
        return field.parsed.clone().ok();
    }
    let actions = push
        .common
        .pre_actions
        .iter()
        .chain(&push.common.post_actions);
    let action = actions.into_iter().find(|a| a.name.value == step)?;
    action.path_ref.clone()?.ok()
}

/// The entry of lines that `entry`'s action `action` pushes.
fn lines_entry(definition: &Definition, entry: &str, action: &str) -> Option<String> {
    use syncdef_definitions::platform::lines::{LinesTarget, lines_target};
    use syncdef_definitions::platform::modules::module;
    let sync = definition.sync.as_ref()?;
    let parent = sync.entry(entry)?;
    let push = parent.push.as_ref()?;
    let path = push
        .common
        .post_actions
        .iter()
        .find(|a| a.name.value == action)?
        .synchronized()?;
    let entries = sync.entries.iter().map(|e| {
        (
            e.key.value.as_str(),
            e.module.as_ref().map(|m| m.value.as_str()),
        )
    });
    match lines_target(
        module(parent.module.as_ref()?.as_str())?,
        path.as_str(),
        entries,
    ) {
        LinesTarget::Entry(name) => Some(name.to_owned()),
        _ => None,
    }
}

/// Answers to a create that say it failed, or from which no id can be read.
fn failed_answers() -> Vec<(&'static str, serde_json::Value)> {
    use serde_json::json;
    vec![
        ("an array body", json!([{"id": 1}])),
        (
            "success: false",
            json!({"success": false, "errors": ["Duplicate name"]}),
        ),
        (
            "errors as a string",
            json!({"id": 0, "success": false, "errors": "Duplicate name"}),
        ),
        ("no id", json!({})),
        // A 2xx carrying a vendor's own error shape and nothing the response template reads.
        (
            "QuickBooks' Fault in a 2xx",
            json!({"Fault": {"Error": [{"Message": "Duplicate Name Exists Error", "code": "6240"}], "type": "ValidationFault"}}),
        ),
        (
            "Business Central's error in a 2xx",
            json!({"error": {"code": "BadRequest", "message": "The record already exists."}}),
        ),
    ]
}

/// A failed answer to a create that the engine reports as a success.
async fn false_success(engine: &Engine, pushes: &[Push<'_>]) -> Option<String> {
    for (name, answer) in failed_answers() {
        let engine = engine
            .with_transport(Arc::new(
                RecordingTransport::synthesizing()
                    .with_response("create", StepResponse::json(200, answer)),
            ))
            .with_token_provider(Arc::new(StaticToken::new("stand-in")));
        for (entry, record, state, kind) in pushes {
            if *kind != OperationKind::Create || !engine.plan().entry_has(entry, *kind) {
                continue;
            }
            let outcome = engine.push(entry, record, state).await;
            if outcome.is_success() {
                return Some(format!(
                    "lint is clean, but the create of `{entry}` answered with {name} is reported {:?} (external id {:?})",
                    outcome.status, outcome.external_id
                ));
            }
        }
    }
    None
}

/// Per class of mutant: mutants tried, lint errors, engine refusals, agreements.
type Counts = std::collections::BTreeMap<&'static str, [usize; 4]>;

/// One mutant in how many a run tries: a fifth a day, fewer of the systems whose vendor's
/// description each mutant loads again (Xero's 0.7 MB, Stripe's 2.5 MB); the offset moves by one
/// a day, so that every mutant is tried within `stride` days.
fn default_stride(system: &str) -> usize {
    match system {
        "xero" | "stripe" => 10,
        _ => 5,
    }
}

/// The mutants of one catalog system's definition that lint clean and then fail, or report a
/// failed answer as a success. One test per system, so that the test harness checks them side
/// by side.
async fn check_system(system: &str) {
    let stride = setting("AGREEMENT_STRIDE")
        .unwrap_or_else(|| default_stride(system))
        .max(1);
    let offset = setting("AGREEMENT_OFFSET").unwrap_or_else(days_since_epoch) % stride;
    let samples = samples();
    let text = definition_of(system);
    // Named by its path: an overlay's `extends` is read relative to it.
    let name = definition_path(system).display().to_string();
    let mut failures = Vec::new();
    let mut counts = Counts::new();
    let mut tried = 0;
    for (class, what, mutant) in mutants(&text).into_iter().skip(offset).step_by(stride) {
        let Some(verdict) = verdict(&name, &mutant, &samples).await else {
            continue;
        };
        tried += 1;
        let count = counts.entry(class).or_default();
        count[0] += 1;
        count[1] += usize::from(verdict.lint_error);
        count[2] += usize::from(verdict.refused.is_some());
        count[3] += usize::from(verdict.lint_error == verdict.refused.is_some());
        if verdict.lint_error && verdict.refused.is_none() && count[0] - count[3] <= 3 {
            // Lint refuses what the engine would carry out: shown, not yet failed.
            eprintln!(
                "{system}, {class}, {what}: lint reports an error, the engine carries it out"
            );
        }
        if let (false, Some(why)) = (verdict.lint_error, &verdict.refused) {
            failures.push(format!(
                "{system}, {class}, {what}: lint is clean, but {why}"
            ));
        }
        if let Some(why) = verdict.false_success {
            failures.push(format!("{system}, {class}, {what}: {why}"));
        }
    }
    eprintln!(
        "{system} (AGREEMENT_STRIDE={stride} AGREEMENT_OFFSET={offset}): class | mutants | lint errors | engine refusals | agreements"
    );
    for (class, [mutants, errors, refusals, agreements]) in &counts {
        eprintln!("{system} | {class} | {mutants} | {errors} | {refusals} | {agreements}");
    }
    assert!(
        tried * stride > 150,
        "only {tried} mutants of {system} loaded, one in {stride}"
    );
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

#[tokio::test(flavor = "current_thread")]
async fn what_lints_clean_loads_and_dry_runs_xero() {
    check_system("xero").await;
}

#[tokio::test(flavor = "current_thread")]
async fn what_lints_clean_loads_and_dry_runs_stripe() {
    check_system("stripe").await;
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
