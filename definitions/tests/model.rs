//! The typed model on a realistic definition.

use std::path::Path;

use syncdef_definitions::Definition;
use syncdef_definitions::model::{ActionIn, ActionType, TemplateBody};
use syncdef_definitions::operation_ref::{HttpMethod, PlaceholderKind};

fn fixture(name: &str) -> Definition {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    match Definition::load_path(&path) {
        Ok(def) => def,
        Err(err) => panic!("{}", err.render()),
    }
}

#[test]
fn quickbooks_definition_is_clean_and_complete() {
    let def = fixture("quickbooks-online.yaml");
    let problems: Vec<String> = def
        .problems
        .iter()
        .map(|p| format!("{}: {}", def.describe(p), p.message))
        .collect();
    assert_eq!(problems, Vec::<String>::new());
    let api = def.openapi.as_ref().expect("OpenAPI model");
    assert_eq!(api.paths.paths.len(), 4);
    let sync = def.sync.as_ref().expect("sync section");
    assert_eq!(sync.entries.len(), 2);

    let account = sync.entry("Account").expect("Account entry");
    assert_eq!(
        account.module.as_ref().map(|m| m.as_str()),
        Some("Accounts")
    );
    let push = account.push.as_ref().expect("push");
    let create = push
        .create
        .as_ref()
        .expect("create")
        .parsed
        .as_ref()
        .expect("well formed");
    assert_eq!(create.path, "/v3/company/{realmId}/customer");
    assert_eq!(create.method, HttpMethod::Post);
    assert_eq!(create.placeholders[0].name, "realmId");

    let token = &push.common.pre_actions[0];
    assert_eq!(token.name.as_str(), "SyncToken");
    assert_eq!(
        token.kind.as_ref().map(|k| &k.value),
        Some(&ActionType::ApiPath)
    );
    assert_eq!(
        token.placement.as_ref().map(|p| &p.value),
        Some(&ActionIn::Body)
    );
    let read = token
        .path_ref
        .as_ref()
        .expect("parsed")
        .as_ref()
        .expect("well formed");
    assert_eq!(read.method, HttpMethod::Get);
    assert_eq!(read.placeholders[1].kind, PlaceholderKind::IntegrationId);
    let schema = token.schema.as_ref().expect("schema");
    assert_eq!(schema.kind.as_ref().map(|k| k.as_str()), Some("String"));
    assert_eq!(schema.fields[0].name.as_str(), "SyncToken");
    assert_eq!(schema.fields[0].source.as_str(), "Customer.SyncToken");

    let names: Vec<&str> = push
        .common
        .templates
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(names, ["createRequest", "updateRequest", "createResponse"]);
    assert!(matches!(
        push.common.templates[0].body,
        TemplateBody::JsonText(_)
    ));

    let invoice = sync.entry("Invoice").expect("Invoice entry");
    let invoice_push = invoice.push.as_ref().expect("push");
    let first = &invoice_push.common.pre_actions[0];
    assert_eq!(
        first.kind.as_ref().map(|k| &k.value),
        Some(&ActionType::ApiSynchronization)
    );
    assert_eq!(first.path.as_ref().map(|p| p.as_str()), Some("Account"));
    assert!(matches!(
        invoice_push.common.templates[0].body,
        TemplateBody::Node(_)
    ));
    // Every location is real: the module value reads back from the file.
    let module = account.module.as_ref().expect("module");
    assert_eq!(def.source.slice(module.span), "Accounts");
}
