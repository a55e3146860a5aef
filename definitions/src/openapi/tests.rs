use super::*;
use crate::{SourceFile, load};

fn doc(text: &str) -> crate::Tree {
    load::load(SourceFile::new("t.yaml", text))
        .unwrap_or_else(|e| panic!("{}", e.render()))
        .tree
}

const DOC: &str = r"
openapi: 3.1.0
info: {title: t, version: '1'}
servers:
  - url: https://{env}.example.com/v1
    variables:
      env: {default: sandbox, enum: [sandbox, production]}
  - {description: no url}
security:
  - {apiKey: []}
  - {oauth: [read, write], apiKey: []}
paths:
  /customers/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
      - {name: verbose, in: query, schema: {type: boolean}}
    post:
      parameters:
        - {$ref: '#/components/parameters/Verbose'}
      requestBody: {$ref: '#/components/requestBodies/Customer'}
      responses:
        '201': {$ref: '#/components/responses/Created'}
        '4XX': {description: refused}
        '2XX': {description: other}
components:
  parameters:
    Verbose: {name: verbose, in: query, schema: {type: integer}}
  requestBodies:
    Customer:
      content:
        text/plain: {schema: {type: string}}
        application/vnd.api+json: {schema: {$ref: '#/components/schemas/Customer'}}
  responses:
    Created:
      description: created
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Customer'}
          examples:
            none: {summary: without value}
            one: {$ref: '#/components/examples/One'}
  examples:
    One: {value: {id: '7'}}
  schemas:
    Customer:
      type: [object, 'null']
      properties:
        id: {type: string, examples: ['1']}
        kind: {const: person, default: person}
        tags: {type: array, items: {$ref: '#/components/schemas/Tag'}}
    Tag: {$ref: '#/components/schemas/Name'}
    Name: {type: string, enum: [a, b], format: name}
  securitySchemes:
    apiKey: {type: apiKey, name: key, in: header}
    oauth: {$ref: '#/components/securitySchemes/Real'}
    Real:
      type: oauth2
      flows:
        authorizationCode:
          authorizationUrl: https://example.com/authorize
          tokenUrl: https://example.com/token
          scopes: {read: r, write: w}
";

#[test]
fn versions_are_read_from_their_text() {
    assert_eq!(Version::parse("3.0.3"), Some(Version::V3_0));
    assert_eq!(Version::parse("3.1.0"), Some(Version::V3_1));
    assert_eq!(Version::parse("3.1"), Some(Version::V3_1));
    for other in ["2.0", "3.2.0", "3.0.", "3.0.x", "", "4.0.0"] {
        assert_eq!(Version::parse(other), None, "{other}");
    }
    let tree = doc(DOC);
    let root = tree.root();
    assert_eq!(OpenApi::new(root).version(), Some(Version::V3_1));
}

#[test]
fn servers_skip_entries_without_a_url() {
    let tree = doc(DOC);
    let root = tree.root();
    let servers: Vec<Server<'_>> = OpenApi::new(root).servers().collect();
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0].url, "https://{env}.example.com/v1");
    let env = &servers[0].variables[0];
    assert_eq!(
        (env.name, env.default, env.allowed.as_slice()),
        ("env", Some("sandbox"), ["sandbox", "production"].as_slice())
    );
}

#[test]
fn security_requirements_and_schemes_follow_references() {
    let tree = doc(DOC);
    let root = tree.root();
    let api = OpenApi::new(root);
    let alternatives: Vec<_> = api.security().collect();
    assert_eq!(alternatives.len(), 2);
    assert_eq!(alternatives[1][0].scheme, "oauth");
    assert_eq!(alternatives[1][0].scopes, ["read", "write"]);
    let oauth = api
        .security_scheme("oauth")
        .expect("a scheme behind a $ref");
    assert_eq!(oauth.kind, "oauth2");
    let flow = oauth.oauth_flow("authorizationCode").expect("flow");
    assert_eq!(flow.token_url, Some("https://example.com/token"));
    assert_eq!(flow.refresh_url, None);
    assert_eq!(flow.scopes, ["read", "write"]);
    let key = api.security_scheme("apiKey").expect("apiKey");
    assert!(key.oauth_flow("authorizationCode").is_none());
    let names: Vec<&str> = api.security_schemes().map(|s| s.name).collect();
    assert_eq!(names, ["apiKey", "oauth", "Real"]);
    assert!(api.security_scheme("missing").is_none());
}

#[test]
fn an_operation_own_security_overrides_the_document_one() {
    let tree = doc(r"
openapi: 3.0.3
info: {title: t, version: '1'}
security: [{basic: []}]
paths:
  /a:
    get: {responses: {'200': {description: ok}}}
    put:
      security: [{key: []}, {basic: [], bearer: []}]
      responses: {'200': {description: ok}}
    post: {security: [], responses: {'200': {description: ok}}}
components:
  securitySchemes:
    basic: {type: http, scheme: basic}
    bearer: {type: http, scheme: Bearer}
    key: {type: apiKey, name: X-Key, in: cookie}
    open: {type: openIdConnect, openIdConnectUrl: https://example.com}
");
    let root = tree.root();
    let api = OpenApi::new(root);
    let security = |method: &str| {
        let node = root.pointer(&format!("/paths/~1a/{method}")).unwrap();
        api.operation_security(node).map(|alternatives| {
            alternatives
                .iter()
                .map(|a| a.iter().map(|r| r.scheme).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        })
    };
    assert_eq!(security("get"), Some(vec![vec!["basic"]]));
    assert_eq!(
        security("put"),
        Some(vec![vec!["key"], vec!["basic", "bearer"]])
    );
    assert_eq!(security("post"), Some(vec![]));
    let own: Vec<usize> = api.operations_security().map(|a| a.len()).collect();
    assert_eq!(own, [1, 2]);
    let scheme = |name: &str| api.security_scheme(name).unwrap();
    assert_eq!(scheme("basic").http_scheme(), Some("basic"));
    assert_eq!(scheme("bearer").http_scheme(), Some("Bearer"));
    assert_eq!(scheme("key").http_scheme(), None);
    assert_eq!(scheme("key").api_key(), Some(("X-Key", "cookie")));
    assert_eq!(scheme("open").api_key(), None);
    let undeclared =
        doc("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {/a: {get: {}}}\n");
    let get = undeclared.root().pointer("/paths/~1a/get").unwrap();
    assert!(
        OpenApi::new(undeclared.root())
            .operation_security(get)
            .is_none()
    );
}

#[test]
fn an_operation_reads_its_parameters_body_and_responses() {
    let tree = doc(DOC);
    let root = tree.root();
    let api = OpenApi::new(root);
    let item = root.pointer("/paths/~1customers~1{id}").expect("item");
    let op = api.operation(item.get("post").expect("post"));
    let parameters: Vec<(&str, &str)> = op
        .parameters(Some(item))
        .iter()
        .map(|p| {
            let text = |k| p.get(k).and_then(Node::as_str).unwrap_or("");
            (
                text("name"),
                p.pointer("/schema/type")
                    .and_then(Node::as_str)
                    .unwrap_or(""),
            )
        })
        .collect();
    // The operation's own `verbose` (an integer) replaces the path item's (a boolean).
    assert_eq!(parameters, [("verbose", "integer"), ("id", "string")]);
    let codes: Vec<&str> = op.responses().map(|(c, _)| c).collect();
    assert_eq!(codes, ["201", "4XX", "2XX"]);
    let success = op.success_responses();
    assert_eq!(success.len(), 2);
    let media = op.json_content(success[0]).expect("JSON content");
    assert_eq!(media.name, "application/json");
    assert_eq!(
        media.example(root).map(Node::to_json),
        Some(serde_json::json!({"id": "7"}))
    );
    let body = op.request_body().expect("body");
    let media = op
        .json_content(body)
        .expect("a +json type when no application/json");
    assert_eq!(media.name, "application/vnd.api+json");
    assert!(op.json_content(success[1]).is_none());
}

#[test]
fn schemas_read_31_type_lists_examples_and_const() {
    let tree = doc(DOC);
    let root = tree.root();
    let api = OpenApi::new(root);
    let customer = api.schema(
        root.pointer("/components/schemas/Customer")
            .expect("schema"),
    );
    assert_eq!(customer.types(), ["object"]);
    assert_eq!(customer.main_type(), Some("object"));
    let properties: Vec<(&str, Schema<'_>)> = customer.properties().collect();
    assert_eq!(properties[0].1.example().and_then(Node::as_str), Some("1"));
    assert_eq!(
        properties[1].1.first_allowed().and_then(Node::as_str),
        Some("person")
    );
    assert_eq!(properties[1].1.main_type(), None);
    let tag = properties[2].1.items().expect("items");
    // A chain of two references ends at the string schema.
    assert_eq!(tag.types(), ["string"]);
    assert_eq!(tag.format(), Some("name"));
    assert_eq!(tag.first_allowed().and_then(Node::as_str), Some("a"));
}

#[test]
fn broken_and_circular_references_resolve_to_nothing() {
    let tree = doc(
        "components:\n  schemas:\n    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A'}\n    C: {$ref: '#/nowhere'}\n    D: {$ref: 'other.yaml#/x'}\n",
    );
    let root = tree.root();
    for name in ["A", "C", "D"] {
        let node = root.pointer(&format!("/components/schemas/{name}"));
        assert!(resolve(root, node).is_none(), "{name}");
    }
}
