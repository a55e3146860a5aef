//! `x-syncdef.parameters`: each request carries the header and query parameters its operation
//! declares and the definition gives, filled from the server variables of the company it goes
//! to; an operation that does not declare a parameter does not get it. A pull's own headers
//! (`x-syncdef.pull.<Entry>.headers`) go with its requests too.

use crate::common;

use serde_json::json;
use syncdef_engine::{PagePosition, PageRequest, PushStatus, RecordState, RetryPolicy};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const DEFINITION: &str = r##"
openapi: 3.0.3
info: {title: Accounting, version: "2.0"}
servers:
  - url: https://api.example.com/api.xro/2.0
    variables:
      tenantId: {default: "00000000-0000-0000-0000-000000000000"}
paths:
  /Contacts:
    parameters:
      - $ref: "#/components/parameters/tenant"
    put:
      parameters:
        - {name: unitdp, in: query, schema: {type: integer}}
        - {name: summarizeErrors, in: query, schema: {type: boolean}}
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Contacts"}
      responses:
        "200": {$ref: "#/components/responses/contacts"}
    get:
      responses:
        "200": {$ref: "#/components/responses/contacts"}
  /Contacts/{IntegrationId}:
    post:
      parameters:
        - {name: IntegrationId, in: path, required: true, schema: {type: string}}
        - $ref: "#/components/parameters/tenant"
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Contacts"}
      responses:
        "200": {$ref: "#/components/responses/contacts"}
components:
  parameters:
    tenant: {name: xero-tenant-id, in: header, required: true, schema: {type: string}}
  responses:
    contacts:
      description: the contacts
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Contacts"}
  schemas:
    Contacts:
      type: object
      properties:
        Contacts:
          type: array
          items:
            type: object
            properties:
              ContactID: {type: string, pattern: "^[0-9]+$"}
              Name: {type: string}
  securitySchemes:
    OAuth2:
      type: oauth2
      flows:
        clientCredentials:
          tokenUrl: https://identity.example.com/connect/token
          scopes: {}
security:
  - OAuth2: []
x-syncdef:
  parameters:
    header:
      Xero-Tenant-Id: "{tenantId}"
    query:
      unitdp: "4"
  pull:
    Contact:
      headers: {If-Modified-Since: "{since}"}
synchronization:
  Contact:
    module: Accounts
    push:
      create: /Contacts/put
      update: /Contacts/{IntegrationId}/post
      schemasTransformer:
        createRequest:
          Contacts:
            - Name: "#valueof($.account.name)"
        createResponse: '{"id": "#valueof($.Contacts[0].ContactID)"}'
        updateRequest:
          Contacts:
            - Name: "#valueof($.account.name)"
    pull:
      batchRead: /Contacts/get
      schemasTransformer:
        batchReadResponse:
          "#loop($.Contacts)":
            account:
              integrationId: "#currentvalueatpath($.ContactID)"
              name: "#currentvalueatpath($.Name)"
"##;

async fn server() -> MockServer {
    let server = MockServer::start().await;
    let contacts = json!({"Contacts": [{"ContactID": "41", "Name": "Ann"}]});
    for verb in ["PUT", "POST"] {
        Mock::given(method(verb))
            .respond_with(ResponseTemplate::new(200).set_body_json(contacts.clone()))
            .mount(&server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path("/Contacts"))
        .respond_with(ResponseTemplate::new(200).set_body_json(contacts))
        .mount(&server)
        .await;
    server
}

fn engine(server: &MockServer) -> syncdef_engine::Engine {
    common::connect(
        common::load("parameters.yaml", DEFINITION.to_owned()),
        &server.uri(),
    )
    .with_retry_policy(RetryPolicy::none())
}

fn tenant(request: &Request) -> Option<&str> {
    request
        .headers
        .get("xero-tenant-id")
        .and_then(|v| v.to_str().ok())
}

fn query(request: &Request) -> Vec<(String, String)> {
    request.url.query_pairs().into_owned().collect()
}

#[tokio::test]
async fn each_company_s_requests_carry_its_own_tenant() {
    let server = server().await;
    let engine = engine(&server);
    for tenant in ["tenant-a", "tenant-b"] {
        let state = RecordState::new().with_server_variable("tenantId", tenant);
        let outcome = engine.push("Contact", &common::account(), &state).await;
        assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    }
    let sent = server.received_requests().await.unwrap_or_default();
    let tenants: Vec<Option<&str>> = sent.iter().map(tenant).collect();
    assert_eq!(tenants, [Some("tenant-a"), Some("tenant-b")]);
    // The create declares `unitdp`; `summarizeErrors`, declared but not given, is not sent.
    assert_eq!(query(&sent[0]), [("unitdp".to_owned(), "4".to_owned())]);
}

#[tokio::test]
async fn a_parameter_goes_only_to_operations_that_declare_it() {
    let server = server().await;
    let state = RecordState::new()
        .with_external_id("41")
        .with_server_variable("tenantId", "tenant-a");
    let outcome = engine(&server)
        .push("Contact", &common::account(), &state)
        .await;
    assert_eq!(outcome.status, PushStatus::Updated, "{outcome:#?}");
    let sent = server.received_requests().await.unwrap_or_default();
    assert_eq!(sent.len(), 1);
    // The update's path declares the tenant, not `unitdp`.
    assert_eq!(tenant(&sent[0]), Some("tenant-a"));
    assert!(query(&sent[0]).is_empty(), "{:?}", sent[0].url);
}

#[tokio::test]
async fn a_pull_carries_the_tenant_of_the_company_it_reads() {
    let server = server().await;
    let request = PageRequest {
        position: PagePosition::First,
        since: Some("2026-11-01T00:00:00Z".into()),
        server_variables: [("tenantId".to_owned(), "tenant-c".to_owned())].into(),
    };
    let page = engine(&server).pull_page("Contact", &request).await;
    assert!(page.error.is_none(), "{page:#?}");
    let sent = server.received_requests().await.unwrap_or_default();
    assert_eq!(sent.len(), 1);
    assert_eq!(tenant(&sent[0]), Some("tenant-c"));
    // `x-syncdef.pull.<Entry>.headers`: the change time the pull starts from.
    let since = sent[0].headers.get("if-modified-since");
    assert_eq!(
        since.and_then(|v| v.to_str().ok()),
        Some("2026-11-01T00:00:00Z")
    );
}

#[test]
fn a_value_naming_no_server_variable_is_refused_at_load() {
    let text = DEFINITION.replacen(
        "Xero-Tenant-Id: \"{tenantId}\"",
        "Xero-Tenant-Id: \"{tenant}\"",
        1,
    );
    let definition = syncdef_definitions::Definition::load(syncdef_definitions::SourceFile::new(
        "parameters.yaml",
        text,
    ))
    .expect("it loads");
    let limits = syncdef_transform::Limits::default();
    let Err(refused) = syncdef_engine::Engine::load_linted(
        &definition,
        Vec::new(),
        &syncdef_definitions::settings::PushConfig::default(),
        &limits,
    ) else {
        panic!("loaded: it must be refused at load, before any request");
    };
    let said = format!("{refused}: {:?}", refused.problems);
    assert!(
        said.contains("`{tenant}` names no server variable"),
        "{said}"
    );
}
