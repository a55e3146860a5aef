//! Every rendered request body is checked against its operation's request body schema before
//! it is sent: a body that does not fit fails the push with a configuration error naming the
//! pointer, the rule and the template key, and the server receives nothing. An entry listed
//! in `x-syncdef.requestValidation.skip` is sent unchecked.

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::json;
use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::{
    Engine, ErrorClass, PushStatus, RecordState, RecordingTransport, StepResponse,
};
use syncdef_transform::Value;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn catalog_path(system: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../catalog")
        .join(system)
        .join("definition.yaml")
}

fn catalog_text(system: &str) -> String {
    std::fs::read_to_string(catalog_path(system)).expect("the catalog definition reads")
}

/// The line (1-based) of the first line of `text` containing `needle` after line `after`.
fn line_of(text: &str, needle: &str, after: usize) -> usize {
    text.lines()
        .enumerate()
        .skip(after)
        .find(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .expect("the needle is in the text")
}

fn account_json(name: &str) -> serde_json::Value {
    json!({
        "id": 42, "name": name, "corpEmail": "billing@acme.test",
        "addresses": [{"isBilling": true, "address1": "1 Main St", "address2": "Unit 2",
                       "city": "Springfield", "countryName": "United States",
                       "postCode": "12345", "region": "IL"}]
    })
}

fn account_named(name: &str) -> Value {
    common::json(&account_json(name).to_string())
}

async fn accepting_server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({
            "Customer": {"Id": "67", "SyncToken": "0"},
            "id": "0b3b0c6e-4e8f-ef11-8a6b-000d3a2a4c8b", "number": "C0001"
        })))
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_quickbooks_display_name_over_500_characters_is_not_sent() {
    let server = accepting_server().await;
    let text = catalog_text("quickbooks-online");
    let engine = common::connect(
        common::load_file(&catalog_path("quickbooks-online")),
        &server.uri(),
    );
    let name = "A".repeat(602);
    let state = RecordState::new().with_server_variable("realmId", "4620816365");
    let outcome = engine.push("Account", &account_named(&name), &state).await;

    assert_eq!(outcome.status, PushStatus::Failed);
    let error = outcome.error.as_ref().expect("an error");
    assert_eq!(error.class, ErrorClass::Configuration, "{error:?}");
    assert_eq!(error.step.as_deref(), Some("create"));
    let line = line_of(&text, "DisplayName: \"#valueof($.account.name)\"", 0);
    for part in [
        "`/DisplayName`",
        "maxLength 500, the value has 602 characters",
        "`createRequest` key `DisplayName`",
        &format!("definition.yaml line {line}, column 11"),
        "nothing was sent",
        "x-syncdef.requestValidation.skip",
    ] {
        assert!(
            error.message.contains(part),
            "{part:?} not in {}",
            error.message
        );
    }
    // The value itself is not repeated in the message.
    assert!(!error.message.contains(&name[..40]));
    // The audit trail shows what the template rendered, and no exchange.
    assert!(outcome.exchanges.is_empty(), "{:#?}", outcome.exchanges);
    assert_eq!(outcome.templates.len(), 1);
    assert_eq!(&*outcome.templates[0].name, "createRequest");
    assert!(
        server
            .received_requests()
            .await
            .expect("recorded")
            .is_empty()
    );
}

#[tokio::test]
async fn a_business_central_address_line_over_50_characters_is_not_sent() {
    let server = accepting_server().await;
    let engine = common::connect(
        common::load_file(&catalog_path("business-central")),
        &server.uri(),
    );
    let mut record = account_json("Acme Ltd");
    record["addresses"][0]["address2"] = json!("B".repeat(61));
    let record = common::json(&record.to_string());
    let outcome = engine.push("Account", &record, &RecordState::new()).await;

    let error = outcome.error.as_ref().expect("an error");
    assert_eq!(error.class, ErrorClass::Configuration, "{error:?}");
    assert!(
        error
            .message
            .contains("`/addressLine2`: maxLength 50, the value has 61 characters"),
        "{}",
        error.message
    );
    assert!(
        error.message.contains("key `addressLine2`"),
        "{}",
        error.message
    );
    assert!(outcome.exchanges.is_empty());
    assert!(
        server
            .received_requests()
            .await
            .expect("recorded")
            .is_empty()
    );
}

/// The QuickBooks catalog definition with `requestValidation` added to its `x-syncdef`.
fn quickbooks_with(request_validation: &str) -> String {
    catalog_text("quickbooks-online").replacen(
        "x-syncdef:\n",
        &format!("x-syncdef:\n  requestValidation: {request_validation}\n"),
        1,
    )
}

#[tokio::test]
async fn an_entry_listed_in_skip_is_sent_unchecked() {
    let server = accepting_server().await;
    let engine = common::connect(
        common::load("quickbooks.yaml", quickbooks_with("{skip: [Account]}")),
        &server.uri(),
    );
    let state = RecordState::new().with_server_variable("realmId", "4620816365");
    let outcome = engine
        .push("Account", &account_named(&"A".repeat(602)), &state)
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(server.received_requests().await.expect("recorded").len(), 1);
}

#[test]
fn skip_must_name_entries_of_the_definition() {
    let definition = Definition::load(SourceFile::new(
        "quickbooks.yaml",
        quickbooks_with("{skip: [Acount]}"),
    ))
    .expect("loads");
    let refused = Engine::load(definition).expect_err("an unknown entry is refused");
    // Refused by the lint the load runs, at the value, with the entries there are.
    let found = refused.errors().find(|d| d.code() == "SD114");
    let found = found.unwrap_or_else(|| panic!("{refused}: {:#?}", refused.diagnostics));
    assert_eq!(
        found.pointer.as_deref(),
        Some("/x-syncdef/requestValidation/skip/0")
    );
    assert!(
        found.message.contains("no entry `Acount`"),
        "{}",
        found.message
    );
    assert!(found.message.contains("Account"), "{}", found.message);
}

#[test]
fn request_validation_refuses_unknown_keys() {
    let definition = Definition::load(SourceFile::new(
        "quickbooks.yaml",
        quickbooks_with("{skipped: [Account]}"),
    ))
    .expect("loads");
    let refused = Engine::load(definition).expect_err("an unknown key is refused");
    assert!(
        refused
            .errors()
            .any(|d| d.code() == "SD114" && d.message.contains("skipped")),
        "{refused}: {:#?}",
        refused.diagnostics
    );
}

fn recording_engine() -> (Engine, Arc<RecordingTransport>) {
    let transport = Arc::new(RecordingTransport::synthesizing().with_response(
        "create",
        StepResponse::json(200, json!({"Customer": {"Id": "67"}})),
    ));
    let engine =
        common::load_file(&catalog_path("quickbooks-online")).with_transport(transport.clone());
    (engine, transport)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the name, a body is sent exactly when it fits the schema's limits on the
    /// fields the name fills (`DisplayName`: 1 to 500 characters without `:`, tab or newline;
    /// `CompanyName`: at most 100).
    #[test]
    fn a_body_is_sent_only_when_its_name_fits_the_schema(
        name in prop_oneof![
            "[a-zA-Z :\t\n]{0,8}",
            "[a-z]{90,110}",
            "\\PC{480,620}",
        ]
    ) {
        let (engine, transport) = recording_engine();
        let state = RecordState::new().with_server_variable("realmId", "1");
        let outcome = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
            .block_on(engine.push("Account", &account_named(&name), &state));
        let chars = name.chars().count();
        let fits = (1..=100).contains(&chars) && !name.contains([':', '\t', '\n']);
        let sent = !transport.requests().is_empty();
        prop_assert_eq!(sent, fits, "{:?}", outcome.error);
        if !fits {
            let error = outcome.error.expect("an error");
            prop_assert_eq!(error.class, ErrorClass::Configuration);
        }
    }
}

/// The QuickBooks customer create's request body schema, as the engine compiles it.
fn customer_schema() -> syncdef_validator::request_schema::RequestBodySchema {
    let definition = Definition::load(SourceFile::new(
        "quickbooks.yaml",
        catalog_text("quickbooks-online"),
    ))
    .expect("loads");
    let operation = definition
        .root()
        .pointer("/paths/~1customer/post")
        .expect("the create operation");
    syncdef_validator::request_schema::RequestBodySchema::of_operation(
        &definition.root(),
        &operation,
    )
    .expect("a request body")
    .expect("compiles")
}

fn body_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        "\\PC{0,12}".prop_map(serde_json::Value::String),
        "[\"\\\\\t\n:a-z]{0,6}".prop_map(serde_json::Value::String),
        "[0-9]{1,4}".prop_map(serde_json::Value::String),
    ];
    let names = prop_oneof![
        Just("DisplayName"),
        Just("CompanyName"),
        Just("BillAddr"),
        Just("Line1"),
        Just("PrimaryEmailAddr"),
        Just("Address"),
        Just("CurrencyRef"),
        Just("value"),
        Just("Taxable"),
        Just("Id"),
        Just("Un\"known"),
    ];
    leaf.prop_recursive(4, 32, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(names.clone(), inner, 0..6).prop_map(|m| {
                serde_json::Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The body read in place from its text gets the answer the parsed body gets, compact or
    /// indented.
    #[test]
    fn the_text_read_in_place_agrees_with_the_parsed_body(body in body_value()) {
        let schema = customer_schema();
        let expected = schema.is_valid(&body);
        let compact = body.to_string();
        prop_assert_eq!(schema.is_valid_text(&compact), Some(expected), "{}", compact);
        let pretty = serde_json::to_string_pretty(&body).expect("JSON");
        prop_assert_eq!(schema.is_valid_text(&pretty), Some(expected), "{}", pretty);
    }
}

/// Every request template of the catalog, with its operation's request body schema and whether
/// the schema's guard proves its structure once (then each push checks only the values the
/// template computes).
fn catalog_guards(system: &str, file: &str) -> Vec<(String, bool)> {
    use syncdef_definitions::model::TemplateBody;
    use syncdef_transform::{Settings, Template};
    use syncdef_validator::request_schema::RequestBodySchema;

    let path = catalog_path(system).with_file_name(file);
    let text = std::fs::read_to_string(&path).expect("catalog file");
    let definition = Definition::load(SourceFile::new(file, text)).expect("loads");
    let sync = definition.sync.as_ref().expect("a synchronization section");
    let mut found = Vec::new();
    for entry in &sync.entries {
        let Some(push) = &entry.push else { continue };
        for (field, step) in [(&push.create, "create"), (&push.update, "update")] {
            let Some(field) = field else { continue };
            let Some((path, method)) = field.text.value.rsplit_once('/') else {
                continue;
            };
            let pointer = format!(
                "/paths/{}/{method}",
                path.replace('~', "~0").replace('/', "~1")
            );
            let Some(operation) = definition.root().pointer(&pointer) else {
                continue;
            };
            let Some(schema) = RequestBodySchema::of_operation(&definition.root(), &operation)
            else {
                continue;
            };
            let schema = schema.expect("compiles");
            let name = format!("{step}Request");
            let Some(source) = push.common.templates.iter().find(|t| t.name.value == name) else {
                continue;
            };
            let template = match &source.body {
                TemplateBody::Node(tree) => {
                    Template::compile(tree.root().to_json(), &Settings::default())
                }
                TemplateBody::JsonText(text) => {
                    Template::compile_str(&text.value, &Settings::default())
                }
            }
            .expect("compiles");
            found.push((
                format!("{}.{name}", entry.key.value),
                schema.guard(&template).is_some(),
            ));
        }
    }
    found
}

#[test]
fn the_catalogs_request_templates_are_proven_when_the_definition_is_compiled() {
    for (system, file) in [
        ("quickbooks-online", "definition.yaml"),
        ("business-central", "definition.yaml"),
        ("business-central-odata", "definition.yaml"),
        ("business-central-odata", "definition.json"),
    ] {
        let guards = catalog_guards(system, file);
        assert!(guards.len() >= 2, "{system}/{file}: {guards:?}");
        let unproven: Vec<_> = guards.iter().filter(|(_, g)| !g).collect();
        assert!(
            unproven.is_empty(),
            "{system}/{file}: not proven once: {unproven:?}"
        );
    }
}
