//! The typed model on a realistic definition.

use std::path::Path;

use syncdef_definitions::Definition;
use syncdef_definitions::model::{ActionIn, ActionType, ProblemKind, TemplateBody, Text};
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
    assert_eq!(def.paths().entries().len(), 4);
    let sync = def.sync.as_ref().expect("sync section");
    assert_eq!(sync.entries.len(), 2);

    let account = sync.entry("Account").expect("Account entry");
    assert_eq!(account.module.as_ref().map(Text::as_str), Some("Accounts"));
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
    assert_eq!(schema.kind.as_ref().map(Text::as_str), Some("String"));
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
    assert_eq!(first.path.as_ref().map(Text::as_str), Some("Account"));
    assert!(matches!(
        invoice_push.common.templates[0].body,
        TemplateBody::Node(_)
    ));
    // Every location is real: the module value reads back from the file.
    let module = account.module.as_ref().expect("module");
    assert_eq!(def.source.slice(module.span), "Accounts");
}

#[test]
fn structural_problems_are_all_reported_and_located() {
    let def = fixture("sync-problems.yaml");
    let rendered: Vec<String> = def
        .problems
        .iter()
        .map(|p| {
            let mut line = format!(
                "{}: [{}] {} (at {})",
                def.describe(p),
                p.kind.code(),
                p.message,
                p.pointer
            );
            if let Some(help) = &p.help {
                line.push_str(&format!("\n    help: {help}"));
            }
            line
        })
        .collect();
    insta::assert_snapshot!(
        rendered
            .join("\n")
            .replace(env!("CARGO_MANIFEST_DIR"), "definitions")
    );

    // The model is kept, partially, for the validator.
    let sync = def.sync.as_ref().expect("the section is still modelled");
    let account = sync.entry("Account").expect("Account");
    // `modul` is a near miss of `module`: read as it, and kept to be reported as misspelt.
    assert_eq!(account.module.as_ref().map(Text::as_str), Some("Accounts"));
    assert_eq!(account.unknown[0].key.as_str(), "modul");
    assert_eq!(account.unknown[0].meant, Some("module"));
    let push = account.push.as_ref().expect("push");
    assert!(push.create.as_ref().is_some_and(|c| c.parsed.is_err()));
    assert!(push.update.is_none());
    assert_eq!(push.common.unknown[0].key.as_str(), "retries");
    let token = &push.common.pre_actions[0];
    assert!(token.kind.is_none());
    assert!(token.schema.is_none());
    assert_eq!(
        token.placement.as_ref().map(|p| &p.value),
        Some(&ActionIn::Unknown("Query".into()))
    );
    assert_eq!(push.common.templates.len(), 1);
    assert_eq!(sync.entries.len(), 2);
}

#[test]
fn x_synchronization_is_accepted() {
    let def = Definition::load(syncdef_definitions::SourceFile::new(
        "x.yaml",
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-synchronization:\n  Account:\n    module: Accounts\n    push: {create: /a/post}\n",
    ))
    .unwrap_or_else(|e| panic!("{}", e.render()));
    assert!(def.problems.is_empty(), "{:?}", def.problems);
    assert_eq!(
        def.sync.as_ref().map(|s| s.key.as_str()),
        Some("x-synchronization")
    );
    assert!(def.openapi().version().is_some());
}

#[test]
fn openapi_errors_are_located_at_the_node() {
    let def = Definition::load(syncdef_definitions::SourceFile::new(
        "missing-info.json",
        "{\n  \"openapi\": \"3.0.3\",\n  \"paths\": {\"/a\": {\"get\": {\"responses\": {\"200\": {\"description\": \"ok\"}}}}},\n  \"synchronization\": {}\n}",
    ))
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let p = def
        .problems
        .iter()
        .find(|p| p.kind == ProblemKind::OpenApi)
        .expect("an OpenAPI problem");
    assert_eq!(p.pointer, "");
    assert!(p.message.contains("needs `info`"), "{}", p.message);
    let def = Definition::load(syncdef_definitions::SourceFile::new(
        "bad-description.json",
        "{\n  \"openapi\": \"3.0.3\", \"info\": {\"title\": \"t\", \"version\": \"1\"},\n  \"paths\": {\"/a\": {\"get\": {\"responses\": {\"200\": {\"description\": 5}}}}},\n  \"synchronization\": {}\n}",
    ))
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let p = def
        .problems
        .iter()
        .find(|p| p.kind == ProblemKind::OpenApi)
        .expect("an OpenAPI problem");
    assert_eq!(p.pointer, "/paths/~1a/get/responses/200/description");
    assert_eq!(def.describe(p), "bad-description.json:3:65");
}

#[test]
fn openapi_errors_inside_schemas_are_narrowed() {
    let text = "openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Customer:
      type: object
      required: [name]
      properties:
        name: {type: string, pattern: 0}
    Invoice:
      properties:
        lines: false
synchronization: {}
";
    let def = Definition::load(syncdef_definitions::SourceFile::new("narrow.yaml", text))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let p = def
        .problems
        .iter()
        .find(|p| p.kind == ProblemKind::OpenApi)
        .expect("an OpenAPI problem");
    // serde stops at the untagged `Customer` schema; the problem names the value itself, and a
    // schema's `required` list is not mistaken for it.
    assert_eq!(
        p.pointer,
        "/components/schemas/Customer/properties/name/pattern"
    );
    assert_eq!(def.describe(p), "narrow.yaml:10:39");
    let text = text.replace("pattern: 0", "pattern: '^a'");
    let def = Definition::load(syncdef_definitions::SourceFile::new("narrow.yaml", text))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let p = def
        .problems
        .iter()
        .find(|p| p.kind == ProblemKind::OpenApi)
        .expect("an OpenAPI problem");
    assert_eq!(p.pointer, "/components/schemas/Invoice/properties/lines");
}

#[test]
fn placeholders_and_reference_errors_map_to_the_file() {
    let def = fixture("quickbooks-online.yaml");
    let account = def
        .sync
        .as_ref()
        .and_then(|s| s.entry("Account"))
        .expect("Account");
    let action = &account.push.as_ref().expect("push").common.pre_actions[0];
    let path = action.path.as_ref().expect("path");
    let reference = action
        .path_ref
        .as_ref()
        .expect("parsed")
        .as_ref()
        .expect("well formed");
    let id = &reference.placeholders[1];
    let span = path.span_of(def.source.text(), id.range.clone());
    assert_eq!(def.source.slice(span), "{IntegrationId}");
    assert_eq!(
        def.source.describe(span),
        format!("{}:{}", def.source.name(), "275:48")
    );

    let broken = fixture("sync-problems.yaml");
    let push = broken
        .sync
        .as_ref()
        .and_then(|s| s.entry("Account"))
        .and_then(|e| e.push.as_ref())
        .expect("push");
    let create = push.create.as_ref().expect("create");
    let err = create.parsed.as_ref().expect_err("malformed");
    let span = create.text.span_of(broken.source.text(), err.range.clone());
    assert_eq!(broken.source.slice(span), "POST");
}

#[test]
fn server_variables_and_resolution_through_the_definition() {
    let def = fixture("quickbooks-online.yaml");
    assert_eq!(
        def.server_variables(),
        ["environment", "realmId", "defaultItemId"]
    );
    let sync = def.sync.as_ref().expect("sync");
    for entry in &sync.entries {
        let push = entry.push.as_ref().expect("push");
        for field in [&push.create, &push.update].into_iter().flatten() {
            let reference = field.parsed.as_ref().expect("well formed");
            let resolved = def.resolve(reference);
            assert!(
                matches!(
                    resolved,
                    syncdef_definitions::path_match::Resolution::Found { .. }
                ),
                "{} does not resolve: {resolved:?}",
                field.text.value
            );
        }
    }
}

/// `x-syncdef-ignore` is the linter's: on an object that maps names (entries, actions,
/// templates, schemas, properties) it names nothing, and no model sees it.
#[test]
fn x_syncdef_ignore_is_read_by_no_model() {
    let text = r##"openapi: 3.0.3
info: {title: t, version: "1"}
x-syncdef: {x-syncdef-ignore: [SD114], retry: {maxAttempts: 2}}
paths:
  x-syncdef-ignore: SD202
  /customer:
    post:
      x-syncdef-ignore: [SD802]
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Customer"}
      responses:
        "200": {description: ok}
components:
  schemas:
    x-syncdef-ignore: [SD802]
    Customer:
      type: object
      properties:
        x-syncdef-ignore: [SD802]
        Name: {type: string}
synchronization:
  x-syncdef-ignore: [SD602]
  Customer:
    x-syncdef-ignore: [SD602]
    module: Accounts
    push:
      x-syncdef-ignore: SD602
      create: /customer/post
      preSynchronizationAction:
        x-syncdef-ignore: [SD501]
        Token:
          x-syncdef-ignore: [SD501]
          type: ApiPath
          path: /customer/post
          schema: {x-syncdef-ignore: [SD503], type: String, Token: Customer.Id}
          in: Body
      schemasTransformer:
        x-syncdef-ignore: [SD402]
        createRequest: {x-syncdef-ignore: [SD801], Name: "#valueof($.account.name)"}
"##;
    let def =
        Definition::load(syncdef_definitions::SourceFile::new("t.yaml", text)).expect("valid YAML");
    let problems: Vec<&str> = def.problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(problems, Vec::<&str>::new());
    assert_eq!(def.ignores.len(), 13);
    let schemas = def
        .root()
        .pointer("/components/schemas")
        .and_then(syncdef_definitions::Node::as_object);
    let names: Vec<&str> = schemas
        .unwrap_or_default()
        .iter()
        .map(|m| m.key.name)
        .collect();
    assert_eq!(names, ["Customer"]);
    let sync = def.sync.as_ref().expect("sync section");
    assert_eq!(sync.entries.len(), 1);
    let push = sync.entries[0].push.as_ref().expect("push");
    assert!(push.common.unknown.is_empty());
    assert_eq!(push.common.pre_actions.len(), 1);
    let action = &push.common.pre_actions[0];
    assert!(action.unknown.is_empty());
    let schema = action.schema.as_ref().expect("schema");
    assert_eq!(schema.fields.len(), 1);
    assert_eq!(push.common.templates.len(), 1);
    let TemplateBody::Node(body) = &push.common.templates[0].body else {
        panic!("an object template");
    };
    assert!(body.root().get("x-syncdef-ignore").is_none());
}
