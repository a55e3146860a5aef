//! End-to-end tests of the catalog: every definition lints clean, and every push path of every
//! entry, rendered by `syncdef dry-run` for every sample record of its module, gives requests
//! that address an operation of the definition and whose bodies satisfy that operation's
//! request schema. The rendered requests are snapshots; tests/prism/run.sh replays them against
//! Prism, a third-party validator of OpenAPI requests.

use crate::common;
#[path = "../catalog_support/openapi.rs"]
mod openapi;

use std::path::{Path, PathBuf};

use common::{root, syncdef};
use serde_json::{Value, json};

/// A catalog definition, loaded as JSON.
struct Definition {
    /// Relative to the workspace root, with `/` separators (`catalog/quickbooks-online/definition.yaml`).
    path: String,
    /// The directory under catalog/ (`quickbooks-online`).
    system: String,
    /// `yaml` or `json`: a system may ship both forms.
    format: String,
    doc: Value,
}

/// A sample platform record.
struct Record {
    path: String,
    /// `account-acme-eur`.
    name: String,
    /// The platform module it belongs to (`Accounts`).
    module: &'static str,
}

fn definitions() -> Vec<Definition> {
    let catalog = root().join("catalog");
    let mut found = Vec::new();
    for dir in sorted_entries(&catalog) {
        if !dir.is_dir() || dir.ends_with("records") {
            continue;
        }
        for file in sorted_entries(&dir) {
            let format = match file.extension().and_then(|e| e.to_str()) {
                Some("yaml" | "yml") => "yaml",
                Some("json") => "json",
                _ => continue,
            };
            let loaded =
                syncdef_definitions::load_path(&file, &syncdef_definitions::LoadOptions::default())
                    .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.message));
            let doc = loaded.root().to_json();
            if doc.get("synchronization").is_none() {
                continue;
            }
            found.push(Definition {
                path: relative(&file),
                system: dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                format: format.to_owned(),
                doc,
            });
        }
    }
    assert!(
        found.len() >= 2,
        "the catalog has its definitions: {:?}",
        found.iter().map(|d| &d.path).collect::<Vec<_>>()
    );
    found
}

fn records() -> Vec<Record> {
    let mut found = Vec::new();
    for file in sorted_entries(&root().join("catalog/records")) {
        if file.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let name = file
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // The file name starts with the module's record root (`account-`, `order-`, ...).
        let module = name
            .split('-')
            .next()
            .and_then(syncdef_definitions::platform::modules::module_by_root).map_or_else(|| {
                panic!(
                    "{}: start the name with a module's record root (`account-`, `invoice-`, `product-`, `payment-`, `order-`, `contact-`) so its module is known",
                    file.display()
                )
            }, |m| m.name);
        found.push(Record {
            path: relative(&file),
            name,
            module,
        });
    }
    found
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    entries
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The external id a record would have after its create, in the system's own form.
fn sample_external_id(system: &str, entry: &str) -> &'static str {
    match (system, entry) {
        ("business-central", "Account") => "5d115c9c-44e3-ea11-bb43-000d3a2feca1",
        ("business-central", "Product") => "0ea6738a-44e3-ea11-bb43-000d3a2feca1",
        ("business-central", "Payment") => "17cce948-c6a5-4861-8ff5-30428ed83207",
        ("business-central", "Order") => "b6f4017a-b749-ee11-ad0b-a1422c0f7f1f",
        ("business-central", "Contact") => "7e3b2c55-4a1d-ef11-9f89-6045bdc8a215",
        ("business-central", _) => "9c2d1b7a-0e4f-ef11-8f2e-6045bdc8a215",
        ("stripe", "Account") => "cus_NffrFeUfNV2Hib",
        ("stripe", "Invoice") => "in_1QpT4x2eZvKYlo2C0uBd8fXk",
        ("stripe", "InvoiceItems") => "ii_1QpT4y2eZvKYlo2CmT3aUq9w",
        ("stripe", _) => "prod_NWjs8kKbJWmuuc",
        ("xero", "Account") => "3ff6d40c-af9a-40a3-89ce-3c1556a25591",
        ("xero", "Invoice") => "ed255415-e141-4150-aab7-89c3bbbb851c",
        ("xero", "Product") => "9a59a63d-6b5e-4bbd-8a4b-5d1b3e6f0c7a",
        ("xero", _) => "b4a7e5c1-2d3f-4a8b-9c6e-1f0d2e3a4b5c",
        ("business-central-odata", "Account") => "10000",
        ("business-central-odata", _) => "103001",
        (_, "Account") => "58",
        (_, "Product") => "19",
        (_, "Payment") => "163",
        _ => "145",
    }
}

#[test]
fn the_catalog_lints_clean() {
    let out = syncdef(&["lint", "--deny-warnings", "--format", "json", "catalog"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let report: Value = serde_json::from_str(&out.stdout).expect("lint --format json prints JSON");
    let files = definitions().len();
    assert_eq!(report["summary"]["files"], json!(files), "{}", out.stdout);
    assert_eq!(report["summary"]["errors"], json!(0), "{}", out.stdout);
    assert_eq!(report["summary"]["warnings"], json!(0), "{}", out.stdout);
}

/// `--related ENTRY=ID` for each of `entries`: the records a push depends on (an invoice's
/// account) already exist in the external system, with the ids that system gives them.
fn related_args<'e>(
    definition: &Definition,
    entries: impl Iterator<Item = &'e str>,
) -> Vec<String> {
    entries
        .flat_map(|entry| {
            [
                "--related".to_owned(),
                format!("{entry}={}", sample_external_id(&definition.system, entry)),
            ]
        })
        .collect()
}

/// Every definition lints clean with every sample record of its entries' modules given with
/// `--record`, and the related records' ids dry-run is given: what the engine renders of the
/// catalog's own records fits the schemas. (A record no entry's module takes gives the same
/// command as another: each command runs once.)
#[test]
fn the_catalog_lints_clean_with_its_own_sample_records() {
    let records = records();
    for definition in definitions() {
        let entries = definition.doc["synchronization"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let mut commands = std::collections::BTreeSet::new();
        for record in &records {
            let mut args = vec!["lint".to_owned(), "--deny-warnings".to_owned()];
            let (sampled, related): (Vec<_>, Vec<_>) = entries
                .iter()
                .partition(|(_, body)| body["module"] == record.module);
            for (entry, _) in sampled {
                args.push("--record".to_owned());
                args.push(format!("{entry}={}", record.path));
            }
            args.extend(related_args(
                &definition,
                related.iter().map(|(e, _)| e.as_str()),
            ));
            args.push(definition.path.clone());
            commands.insert(args);
        }
        for args in commands {
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = syncdef(&refs);
            assert_eq!(out.code, 0, "{args:?}\n{}\n{}", out.stdout, out.stderr);
        }
    }
}

/// Every push path (create, update) of every entry, for every sample record of the entry's
/// module: rendered by the engine's dry-run, snapshotted, and checked against the definition.
#[test]
fn every_push_path_renders_requests_its_schemas_accept() {
    let records = records();
    let mut rendered = 0;
    for definition in definitions() {
        let section = &definition.doc["synchronization"];
        let entries: Vec<&String> = section
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        for entry in &entries {
            let module = section[entry.as_str()]["module"]
                .as_str()
                .unwrap_or_default();
            let push = &section[entry.as_str()]["push"];
            if lines_of(module).is_some() {
                // Lines are pushed within their parent's create, rendered with it; their
                // updates: `every_line_update_renders_requests_its_schemas_accept`.
                continue;
            }
            let samples: Vec<&Record> = records.iter().filter(|r| r.module == module).collect();
            assert!(
                !samples.is_empty(),
                "catalog/records has no `{module}` record for {} {entry}",
                definition.path
            );
            for operation in ["create", "update"] {
                if push.get(operation).is_none() {
                    continue;
                }
                for record in &samples {
                    let run = dry_run(&definition, entry, &entries, record, operation);
                    check_requests(&definition, entry, operation, record, &run);
                    let name = format!(
                        "{}_{}__{}__{}__{}",
                        definition.system, definition.format, entry, operation, record.name
                    );
                    insta::assert_json_snapshot!(
                        name,
                        snapshot(&definition, entry, operation, record, &run)
                    );
                    rendered += 1;
                }
            }
        }
    }
    assert!(rendered >= 56, "only {rendered} pushes rendered");
}

/// The catalog definition compiled, with a stand-in token a dry-run would send (not
/// registered as a secret: the word is not masked elsewhere).
fn catalog_engine(definition: &Definition) -> syncdef_engine::Engine {
    let loaded = syncdef_definitions::Definition::load_path(&root().join(&definition.path))
        .expect("the catalog definition loads");
    syncdef_engine::Engine::load(loaded)
        .expect("the catalog definition compiles")
        .engine
        .with_token_provider(std::sync::Arc::new(
            syncdef_engine::StaticToken::placeholder("token"),
        ))
}

/// The module whose lines an entry of module `module` pushes, if it is a module of lines.
fn lines_of(module: &str) -> Option<&'static str> {
    syncdef_definitions::platform::modules::module(module).and_then(|m| m.parent)
}

/// The update and the delete of a line (an invoice item) of every entry of lines, for the first
/// line of every sample record of its parent's module: rendered by the engine as the sync
/// worker pushes a changed line, or one its record lost (`Engine::push_line` with the line's
/// external id), checked against the definition and snapshotted like the pushes above. A
/// line's create is rendered within its parent's.
#[test]
fn every_line_update_renders_requests_its_schemas_accept() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let records = records();
    let mut rendered = 0;
    for definition in definitions() {
        let section = &definition.doc["synchronization"];
        let mut engine = None;
        for (entry, body) in section.as_object().into_iter().flatten() {
            let module = body["module"].as_str().unwrap_or_default();
            let Some(parent) = lines_of(module) else {
                continue;
            };
            let engine = engine.get_or_insert_with(|| catalog_engine(&definition));
            for operation in ["update", "delete"] {
                if body["push"][operation].is_null() {
                    continue;
                }
                for record in records.iter().filter(|r| r.module == parent) {
                    let run =
                        runtime.block_on(line_push(engine, &definition, entry, record, operation));
                    check_requests(&definition, entry, operation, record, &run);
                    let name = format!(
                        "{}_{}__{}__{operation}__{}",
                        definition.system, definition.format, entry, record.name
                    );
                    insta::assert_json_snapshot!(
                        name,
                        snapshot(&definition, entry, operation, record, &run)
                    );
                    rendered += 1;
                }
            }
        }
    }
    assert!(rendered >= 2, "only {rendered} line updates rendered");
}

/// The `operation` (`update`, `delete`) of the first line of `record` with `entry`, as
/// `syncdef push --dry-run --format json` would show a push: its requests and its outcome.
async fn line_push(
    engine: &syncdef_engine::Engine,
    definition: &Definition,
    entry: &str,
    record: &Record,
    operation: &str,
) -> Value {
    let field = syncdef_definitions::platform::modules::module(
        definition.doc["synchronization"][entry]["module"]
            .as_str()
            .unwrap_or_default(),
    )
    .and_then(syncdef_definitions::platform::modules::Module::line_collection)
    .map(|c| c.field)
    .expect("an entry of lines");
    let parent: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join(&record.path)).expect("the sample record"),
    )
    .expect("the sample record is JSON");
    let line = parent[field][0].clone();
    let responses = root().join(format!(
        "catalog/{}/responses/{entry}-{operation}.json",
        definition.system
    ));
    let transport = match std::fs::read_to_string(&responses) {
        Ok(text) => syncdef_engine::RecordingTransport::from_json(
            &serde_json::from_str(&text).expect("the recorded answers are JSON"),
        )
        .expect("the recorded answers read"),
        Err(_) => syncdef_engine::RecordingTransport::synthesizing(),
    };
    let mut state = syncdef_engine::RecordState::new()
        .with_external_id(sample_external_id(&definition.system, entry));
    if operation == "delete" {
        state.intent = syncdef_engine::Intent::Delete;
    }
    for other in definition.doc["synchronization"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, _)| name)
        .filter(|name| name.as_str() != entry)
    {
        state = state.with_related(other, sample_external_id(&definition.system, other));
    }
    let outcome = engine
        .with_transport(std::sync::Arc::new(transport))
        .push_line(
            entry,
            &syncdef_transform::Value::from(line),
            &syncdef_transform::Value::from(parent),
            &state,
        )
        .await;
    let outcome = serde_json::to_value(&outcome).expect("serializable");
    let requests = requests_of(&outcome["exchanges"]);
    json!({"operation": operation, "requests": requests, "outcome": outcome})
}

/// The engine's exchanges (serialized) as `syncdef push --dry-run --format json` lists its
/// requests: each with the answer it got.
fn requests_of(exchanges: &Value) -> Vec<Value> {
    exchanges
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| {
            json!({
                "step": x["step"],
                "method": x["request"]["method"],
                "url": x["request"]["url"],
                "headers": x["request"]["headers"],
                "body": x["request"]["body"],
                "response": x["response"],
            })
        })
        .collect()
}

/// Every pull (`batchRead`) of every entry: its first page rendered by the engine over the
/// vendor's recorded answer (`responses/<Entry>-batchRead.json`), checked against the
/// definition like a push's requests, and snapshotted so that tests/prism/run.sh replays it.
#[test]
fn every_pull_path_renders_requests_its_operations_accept() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut rendered = 0;
    for definition in definitions() {
        let section = &definition.doc["synchronization"];
        for (entry, body) in section.as_object().into_iter().flatten() {
            if body["pull"]["batchRead"].is_null() {
                continue;
            }
            // The vendor's answer, recorded in the catalog.
            let answers = root().join(format!(
                "catalog/{}/responses/{entry}-batchRead.json",
                definition.system
            ));
            let answers: Value = serde_json::from_str(
                &std::fs::read_to_string(&answers)
                    .unwrap_or_else(|e| panic!("{}: {e}", answers.display())),
            )
            .expect("the recorded answers are JSON");
            let transport = syncdef_engine::RecordingTransport::from_json(&answers)
                .expect("the recorded answers read");
            let engine = catalog_engine(&definition).with_transport(std::sync::Arc::new(transport));
            let page = runtime.block_on(engine.pull_page(
                entry,
                &syncdef_engine::PageRequest {
                    since: Some("2026-01-01T00:00:00Z".into()),
                    ..syncdef_engine::PageRequest::default()
                },
            ));
            assert!(
                page.error.is_none(),
                "{} {entry}: {:?}",
                definition.path,
                page.error
            );
            assert!(
                !page.records.is_empty(),
                "{} {entry}: no record mapped",
                definition.path
            );
            let exchanges = serde_json::to_value(&page.exchanges).expect("serializable");
            let requests = requests_of(&exchanges);
            let run = json!({ "requests": requests });
            let record = Record {
                name: "synthesized".into(),
                path: String::new(),
                module: "",
            };
            check_requests(&definition, entry, "batchRead", &record, &run);
            let name = format!(
                "{}_{}__{}__batchRead__pull",
                definition.system, definition.format, entry
            );
            let snapshot = json!({
                "definition": definition.path,
                "server": openapi::server_base(&definition.doc),
                "entry": entry,
                "operation": "batchRead",
                "record": format!("catalog/{}/responses/{entry}-batchRead.json", definition.system),
                "requests": requests.iter().map(|r| json!({
                    "step": r["step"], "method": r["method"], "url": r["url"],
                    "headers": r["headers"], "body": r["body"],
                    "response": {"status": r["response"]["status"], "synthesized": r["response"]["synthesized"]},
                })).collect::<Vec<_>>(),
                "records": page.records.iter().map(|r| Value::from(&r.record)).collect::<Vec<_>>(),
            });
            insta::assert_json_snapshot!(name, snapshot);
            rendered += 1;
        }
    }
    assert!(rendered >= 2, "only {rendered} pulls rendered");
}

/// `syncdef dry-run ... --format json`, which must succeed.
fn dry_run(
    definition: &Definition,
    entry: &str,
    entries: &[&String],
    record: &Record,
    operation: &str,
) -> Value {
    let mut args: Vec<String> = vec![
        "push".into(),
        "--dry-run".into(),
        definition.path.clone(),
        "--entry".into(),
        entry.into(),
        "--record".into(),
        record.path.clone(),
        "--format".into(),
        "json".into(),
    ];
    if operation == "update" {
        args.push("--external-id".into());
        args.push(sample_external_id(&definition.system, entry).into());
    }
    // The vendor's answers, where the catalog has them (otherwise the engine synthesises them
    // from the response schemas' examples).
    let responses = format!(
        "catalog/{}/responses/{entry}-{operation}.json",
        definition.system
    );
    if root().join(&responses).is_file() {
        args.push("--responses".into());
        args.push(responses);
    }
    let others = entries.iter().filter(|e| e.as_str() != entry);
    args.extend(related_args(definition, others.map(|e| e.as_str())));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = syncdef(&args);
    assert_eq!(
        out.code,
        0,
        "syncdef {}\n{}\n{}",
        args.join(" "),
        out.stdout,
        out.stderr
    );
    let run: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "syncdef {}: not JSON ({e}):\n{}",
            args.join(" "),
            out.stdout
        )
    });
    assert_eq!(
        run["operation"],
        json!(operation),
        "syncdef {}\n{}",
        args.join(" "),
        out.stdout
    );
    run
}

/// Each request addresses an operation of the definition, carries the operation's required
/// headers, and has a body its request schema accepts; each answer fed back matches the
/// operation's response schema.
fn check_requests(
    definition: &Definition,
    entry: &str,
    operation: &str,
    record: &Record,
    run: &Value,
) {
    let doc = &definition.doc;
    let base = openapi::server_base(doc);
    let context = format!("{} {entry} {operation} {}", definition.path, record.name);
    let requests = run["requests"]
        .as_array()
        .unwrap_or_else(|| panic!("{context}: no requests in {run}"));
    assert!(
        requests.iter().any(|r| r["step"] == json!(operation)),
        "{context}: no `{operation}` request in {run}"
    );
    for request in requests {
        let method = request["method"].as_str().unwrap_or_default();
        let url = request["url"].as_str().unwrap_or_default();
        let path = url
            .strip_prefix(&base)
            .unwrap_or_else(|| panic!("{context}: {url} is not under the server {base}"));
        let path = path.split('?').next().unwrap_or_default();
        let target = openapi::find_operation(doc, method, path).unwrap_or_else(|| {
            panic!("{context}: {method} {path} is no operation of the definition")
        });
        for parameter in target.parameters(doc) {
            if parameter["in"] == json!("header") && parameter["required"] == json!(true) {
                let name = parameter["name"].as_str().unwrap_or_default();
                let sent =
                    headers(request).any(|(n, v)| n.eq_ignore_ascii_case(name) && !v.is_empty());
                assert!(
                    sent,
                    "{context}: {method} {} needs the `{name}` header:\n{request:#}",
                    target.template
                );
            }
        }
        let body = &request["body"];
        match target.request_schema() {
            Some(schema) => {
                let validator = openapi::request_validator(doc, schema);
                let problems: Vec<String> = validator
                    .iter_errors(body)
                    .map(|e| format!("  {}: {e}", e.instance_path()))
                    .collect();
                assert!(
                    problems.is_empty(),
                    "{context}: the body of {method} {} does not match its request schema:\n{}\n{body:#}",
                    target.template,
                    problems.join("\n")
                );
            }
            None => assert!(
                body.is_null(),
                "{context}: {method} {} takes no body, got {body}",
                target.template
            ),
        }
        // The answer the push was given (from the catalog's responses files, or synthesised
        // from the examples) must be one the definition declares.
        let response = &request["response"];
        if let Some(status) = response["status"].as_u64()
            && let Some(schema) = target.response_schema(doc, status)
        {
            let validator = openapi::validator(doc, schema, openapi::Direction::Response);
            let problems: Vec<String> = validator
                .iter_errors(&response["body"])
                .map(|e| format!("  {}: {e}", e.instance_path()))
                .collect();
            assert!(
                problems.is_empty(),
                "{context}: the {status} answer to {method} {} does not match its schema:\n{}\n{:#}",
                target.template,
                problems.join("\n"),
                response["body"]
            );
        }
    }
}

/// The request's headers, written as `{name: value}` or as `[name, value]` pairs.
fn headers(request: &Value) -> impl Iterator<Item = (&str, &str)> {
    let pairs = request["headers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| Some((h[0].as_str()?, h[1].as_str()?)));
    let map = request["headers"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)));
    pairs.chain(map)
}

/// What the snapshot keeps: the requests in order (method, URL, headers, body) and what the
/// push concluded; the server base lets tests/prism/run.sh replay the requests elsewhere.
fn snapshot(
    definition: &Definition,
    entry: &str,
    operation: &str,
    record: &Record,
    run: &Value,
) -> Value {
    json!({
        "definition": definition.path,
        "server": openapi::server_base(&definition.doc),
        "entry": entry,
        "operation": operation,
        "record": record.path,
        "requests": run["requests"].as_array().into_iter().flatten().map(|r| json!({
            "step": r["step"],
            "method": r["method"],
            "url": r["url"],
            "headers": r["headers"],
            "body": r["body"],
            "response": {"status": r["response"]["status"], "synthesized": r["response"]["synthesized"]},
        })).collect::<Vec<_>>(),
        "extracted": run["outcome"]["templates"].as_array().into_iter().flatten()
            .filter(|t| t["name"].as_str().is_some_and(|n| n.ends_with("Response")))
            .cloned()
            .collect::<Vec<_>>(),
        "outcome": {
            "status": run["outcome"]["status"],
            "externalId": run["outcome"]["externalId"],
            "errors": run["outcome"]["errors"],
        },
    })
}

/// The request schemas the bodies are checked against refuse what the vendors refuse, so the
/// check above can fail.
#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one case per refusal of each vendor, read as a table"
)]
fn request_schemas_refuse_what_the_vendors_refuse() {
    let all = definitions();
    let find = |system: &str| {
        all.iter()
            .find(|d| d.system == system && d.format == "yaml")
            .unwrap_or_else(|| panic!("catalog/{system}/definition.yaml"))
    };
    let check = |system: &str, method: &str, path: &str, body: Value| -> bool {
        let definition = find(system);
        let operation = openapi::find_operation(&definition.doc, method, path)
            .unwrap_or_else(|| panic!("{system}: {method} {path}"));
        let schema = operation
            .request_schema()
            .unwrap_or_else(|| panic!("{system}: {method} {path} has a body"));
        openapi::request_validator(&definition.doc, schema).is_valid(&body)
    };
    let qbo = "quickbooks-online";
    assert!(check(
        qbo,
        "POST",
        "/customer",
        json!({"DisplayName": "Acme"})
    ));
    assert!(
        !check(
            qbo,
            "POST",
            "/customer",
            json!({"DisplayName": "Acme: Athens"})
        ),
        "no colon in DisplayName"
    );
    assert!(
        !check(qbo, "POST", "/customer", json!({"CompanyName": "Acme"})),
        "a create needs DisplayName"
    );
    assert!(
        !check(
            qbo,
            "POST",
            "/customer",
            json!({"Id": "58", "sparse": true})
        ),
        "an update needs SyncToken"
    );
    assert!(
        !check(
            qbo,
            "POST",
            "/customer",
            json!({"DisplayName": "A", "Balance": 3})
        ),
        "Balance is read-only"
    );
    assert!(
        !check(
            qbo,
            "POST",
            "/invoice",
            json!({"CustomerRef": {"value": "58"}, "Line": []})
        ),
        "an invoice needs a line"
    );
    assert!(
        !check(
            qbo,
            "POST",
            "/invoice",
            json!({"Id": "1", "SyncToken": "0", "DueDate": "2026-12-01T00:00:00Z"})
        ),
        "dates are dates"
    );
    assert!(check(
        qbo,
        "POST",
        "/item",
        json!({"Name": "Backup", "Type": "Service", "IncomeAccountRef": {"value": "1"}})
    ));
    assert!(
        !check(
            qbo,
            "POST",
            "/item",
            json!({"Name": "Backup", "Type": "Service"})
        ),
        "a service item needs its income account"
    );
    assert!(
        !check(
            qbo,
            "POST",
            "/item",
            json!({"Name": "B".repeat(101), "Type": "Service", "IncomeAccountRef": {"value": "1"}})
        ),
        "an item name is at most 100"
    );
    assert!(
        !check(
            qbo,
            "POST",
            "/payment",
            json!({"CustomerRef": {"value": "58"}})
        ),
        "a payment needs its amount"
    );
    assert!(
        !check(qbo, "POST", "/payment", json!({"TotalAmt": 10})),
        "a payment needs its customer"
    );
    let bc = "business-central";
    assert!(
        !check(
            bc,
            "POST",
            "/items",
            json!({"displayName": "Backup", "number": "N".repeat(21)})
        ),
        "an item number is at most 20"
    );
    assert!(
        !check(
            bc,
            "POST",
            "/items",
            json!({"displayName": "Backup", "blocked": "false"})
        ),
        "blocked is a boolean"
    );
    assert!(
        !check(
            bc,
            "POST",
            "/salesOrders",
            json!({"externalDocumentNumber": "ORD-1"})
        ),
        "an order needs its customer"
    );
    assert!(
        !check(
            bc,
            "POST",
            "/salesOrders",
            json!({"customerNumber": "C1", "salesOrderLines": [{"quantity": 1}]})
        ),
        "an order line needs its type"
    );
    assert!(
        !check(
            bc,
            "POST",
            "/customerPaymentJournals(dc1b6a90-44e3-ea11-bb43-000d3a2feca1)/customerPayments",
            json!({"amount": 10})
        ),
        "a customer payment needs its customer"
    );
    assert!(
        !check(
            bc,
            "POST",
            "/contacts",
            json!({"type": "Person", "displayName": "C".repeat(101)})
        ),
        "a contact name is at most 100"
    );
    assert!(check(
        bc,
        "POST",
        "/customers",
        json!({"displayName": "Acme"})
    ));
    assert!(
        !check(
            bc,
            "POST",
            "/customers",
            json!({"displayName": "A".repeat(101)})
        ),
        "displayName is at most 100"
    );
    assert!(
        !check(
            bc,
            "POST",
            "/customers",
            json!({"displayName": "Acme", "country": "Greece and more"})
        ),
        "country is a code"
    );
    assert!(
        !check(
            bc,
            "POST",
            "/salesInvoices",
            json!({"externalDocumentNumber": "X"})
        ),
        "an invoice needs its customer"
    );
    assert!(
        !check(
            bc,
            "PATCH",
            "/customers(5d115c9c-44e3-ea11-bb43-000d3a2feca1)",
            json!({"id": "x"})
        ),
        "id is read-only"
    );
}

/// The sample records are shaped as the platform hands them to templates: each one, under its
/// module's root, matches the platform record schema (spec part 2).
#[test]
fn sample_records_match_the_platform_record_schema() {
    let schema = syncdef_definitions::platform::builtin().document();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("the platform record schema compiles: {e}"));
    let records = records();
    for module in [
        "Accounts", "Invoices", "Products", "Payments", "Orders", "Contacts",
    ] {
        assert!(
            records.iter().any(|r| r.module == module),
            "catalog/records has a `{module}` record"
        );
    }
    for record in records {
        let text = std::fs::read_to_string(root().join(&record.path))
            .unwrap_or_else(|e| panic!("{}: {e}", record.path));
        let value: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", record.path));
        let root_name = syncdef_definitions::platform::modules::module(record.module).map_or_else(
            || panic!("{}: no module {}", record.path, record.module),
            |m| m.root,
        );
        let input = json!({ root_name: value });
        let problems: Vec<String> = validator
            .iter_errors(&input)
            .map(|e| format!("  {}: {e}", e.instance_path()))
            .collect();
        assert!(
            problems.is_empty(),
            "{}:\n{}",
            record.path,
            problems.join("\n")
        );
    }
}
