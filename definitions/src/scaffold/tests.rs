use serde_json::{Value as Json, json};

use super::{Request, ScaffoldError, scaffold};
use crate::{Definition, SourceFile};

fn vendor(text: &str) -> Definition {
    Definition::load(SourceFile::new("vendor.yaml", text)).expect("the vendor's description loads")
}

fn entry(overlay: &Json, name: &str) -> Json {
    overlay["actions"][0]["update"]["synchronization"][name].clone()
}

const BOOKS: &str = r##"
openapi: 3.0.3
info: {title: Books, version: "1"}
security: [{key: []}]
paths:
  /customers:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/CustomerWrite"}
      responses:
        "201":
          description: created
          content:
            application/json:
              schema:
                type: object
                properties:
                  Customer: {$ref: "#/components/schemas/Customer"}
  /customers/{customerId}:
    parameters:
      - {name: customerId, in: path, required: true, schema: {type: string}}
    patch:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Customer"}
      responses:
        "200":
          description: changed
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: integer}
                  success: {type: boolean}
                  errors: {type: array, items: {type: string}}
components:
  schemas:
    CustomerWrite:
      allOf:
        - $ref: "#/components/schemas/Customer"
        - required: [DisplayName, Currency, Terms]
    Customer:
      type: object
      properties:
        Id: {type: string, readOnly: true}
        DisplayName: {type: string}
        Currency: {type: string, enum: [EUR, USD]}
        Taxable: {type: boolean}
        Email: {type: string, format: email}
        # Optional, and its required address would be empty: left out, though its name reads.
        Shipping:
          type: object
          required: [name, address]
          properties:
            name: {type: string}
            address: {type: object, properties: {line1: {type: string}}}
        # Optional, and its required id would be made up: left out, though its name reads.
        CurrencyRef:
          type: object
          required: [value]
          properties:
            value: {type: string}
            name: {type: string}
        Terms:
          type: object
          required: [Basis, Kind]
          properties:
            Basis: {type: string}
            Kind: {type: string, example: NO}
            Phone: {type: string}
"##;

#[test]
fn required_properties_are_read_from_the_record_or_left_as_constants() {
    let made = scaffold(
        &vendor(BOOKS),
        &Request::new("Account", "/customers/post", "./vendor.yaml"),
    )
    .expect("an overlay");
    assert_eq!(made.overlay["overlay"], "1.0.0");
    assert_eq!(made.overlay["extends"], "./vendor.yaml");
    let account = entry(&made.overlay, "Account");
    assert_eq!(account["module"], "Accounts");
    assert_eq!(account["push"]["create"], "/customers/post");
    assert_eq!(
        account["push"]["schemasTransformer"]["createRequest"],
        json!({
            "DisplayName": "#valueof($.account.name)",
            "Currency": "EUR",
            "#ifgroup(#existsandnotempty($.account.corpEmail))": {
                "Email": "#valueof($.account.corpEmail)"
            },
            "Terms": {
                "Basis": "TODO Basis",
                "Kind": "NO",
                "#ifgroup(#existsandnotempty($.account.phone))": {
                    "Phone": "#valueof($.account.phone)"
                }
            }
        })
    );
    let request = "/synchronization/Account/push/schemasTransformer/createRequest";
    let left: Vec<(String, Json)> = made
        .left
        .iter()
        .map(|l| (l.pointer.clone(), l.value.clone()))
        .collect();
    assert_eq!(
        left,
        [
            (format!("{request}/Currency"), json!("EUR")),
            (format!("{request}/Terms/Basis"), json!("TODO Basis")),
            (format!("{request}/Terms/Kind"), json!("NO")),
        ]
    );
    assert_eq!(made.left[0].note, "the first value its enum allows");
}

#[test]
fn the_answer_gives_the_id_and_success_where_it_declares_them() {
    let mut request = Request::new("Account", "/customers/post", "./vendor.yaml");
    request.update = Some("/customers/{customerId}/patch");
    let made = scaffold(&vendor(BOOKS), &request).expect("an overlay");
    let push = &entry(&made.overlay, "Account")["push"];
    assert_eq!(push["update"], "/customers/{IntegrationId}/patch");
    let templates = &push["schemasTransformer"];
    assert_eq!(
        templates["createResponse"],
        json!({"id": "#valueof($.Customer.Id)", "success": "#exists($.Customer.Id)"})
    );
    assert_eq!(
        templates["updateResponse"],
        json!({"id": "#valueof($.id)", "success": "#valueof($.success)", "errors": "#valueof($.errors)"})
    );
    // The update's body has no required property: only what reads the record.
    assert_eq!(
        templates["updateRequest"]["#ifgroup(#existsandnotempty($.account.name))"],
        json!({"DisplayName": "#valueof($.account.name)"})
    );
}

const WRAPPED: &str = r##"
openapi: 3.1.0
info: {title: Ledger, version: "1"}
security: [{key: []}]
servers:
  - url: https://{tenant}.ledger.example/api
    variables:
      tenant: {default: demo}
paths:
  /{tenant}/Contacts:
    put:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                Contacts:
                  type: array
                  items: {$ref: "#/components/schemas/Contact"}
      responses:
        "200":
          description: the contacts
          content:
            application/json:
              schema:
                type: object
                properties:
                  Contacts:
                    type: array
                    items: {$ref: "#/components/schemas/Contact"}
  /{tenant}/Contacts/{ContactID}:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Contact"}
      responses:
        "200": {description: changed}
  /customer:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [SyncToken]
              properties:
                Id: {type: string}
                SyncToken: {type: string}
                sparse: {type: boolean}
                Name: {type: string}
      responses:
        "200": {description: changed}
components:
  schemas:
    Contact:
      type: object
      properties:
        ContactID: {type: string, format: uuid}
        Name: {type: string}
        EmailAddress: {type: string}
        IsSupplier: {type: boolean}
        # Another record, by its name: not the contact's name.
        BrandingTheme:
          type: object
          properties:
            Name: {type: string}
"##;

#[test]
fn a_list_of_objects_is_written_with_one_item_when_it_reads_the_record() {
    let mut request = Request::new("Account", "/{tenant}/Contacts/put", "ledger.yaml");
    request.update = Some("/{tenant}/Contacts/{ContactID}/post");
    let made = scaffold(&vendor(WRAPPED), &request).expect("an overlay");
    let push = &entry(&made.overlay, "Account")["push"];
    // A server variable stays; the record's id takes the update's last parameter.
    assert_eq!(push["create"], "/{tenant}/Contacts/put");
    assert_eq!(push["update"], "/{tenant}/Contacts/{IntegrationId}/post");
    let templates = &push["schemasTransformer"];
    assert_eq!(
        templates["createRequest"],
        json!({"Contacts": [{
            "#ifgroup(#existsandnotempty($.account.name))": {"Name": "#valueof($.account.name)"},
            "#ifgroup(#existsandnotempty($.account.corpEmail))": {
                "EmailAddress": "#valueof($.account.corpEmail)"
            },
        }]})
    );
    assert_eq!(
        templates["createResponse"],
        json!({
            "id": "#valueof($.Contacts[0].ContactID)",
            "success": "#exists($.Contacts[0].ContactID)",
        })
    );
    // The update's answer has no schema: its id is left to write, and said so.
    assert_eq!(templates["updateResponse"], json!({"id": "#valueof($.id)"}));
    assert_eq!(made.left.len(), 1, "{:?}", made.left);
    assert_eq!(
        made.left[0].pointer,
        "/synchronization/Account/push/schemasTransformer/updateResponse/id"
    );
}

#[test]
fn an_update_without_the_id_in_its_path_sends_it_in_the_body_sparsely() {
    let mut request = Request::new("Account", "/customer/post", "ledger.yaml");
    request.update = Some("/customer/post");
    let made = scaffold(&vendor(WRAPPED), &request).expect("an overlay");
    let templates = &entry(&made.overlay, "Account")["push"]["schemasTransformer"];
    assert_eq!(
        templates["updateRequest"],
        json!({
            "Id": "#valueof($.externalId)",
            "SyncToken": "TODO SyncToken",
            "sparse": true,
            "#ifgroup(#existsandnotempty($.account.name))": {"Name": "#valueof($.account.name)"},
        })
    );
    assert_eq!(templates["createRequest"]["SyncToken"], "TODO SyncToken");
    assert!(templates["createRequest"].get("Id").is_none());
}

#[test]
fn a_path_parameter_without_a_value_is_left_in_the_reference_and_listed() {
    let text = WRAPPED.replace("servers:", "x-servers:");
    let made = scaffold(
        &vendor(&text),
        &Request::new("Account", "/{tenant}/Contacts/put", "ledger.yaml"),
    )
    .expect("an overlay");
    assert_eq!(
        entry(&made.overlay, "Account")["push"]["create"],
        "/{tenant}/Contacts/put"
    );
    assert_eq!(made.left[0].pointer, "/synchronization/Account/push/create");
    assert!(
        made.left[0].note.contains("`tenant` has no value"),
        "{}",
        made.left[0].note
    );
}

fn refusal(text: &str, request: &Request<'_>) -> ScaffoldError {
    scaffold(&vendor(text), request).expect_err("refused")
}

#[test]
fn what_is_not_an_openapi_3_description_is_refused_at_its_place() {
    let request = Request::new("Account", "/customers/post", "v.yaml");
    let swagger = refusal("swagger: '2.0'\npaths: {}\n", &request);
    assert_eq!(swagger.location.as_deref(), Some("vendor.yaml:1:1"));
    assert!(swagger.message.contains("Swagger 2.0"), "{swagger}");
    let old = refusal("openapi: 2.9.0\npaths: {}\n", &request);
    assert_eq!(old.location.as_deref(), Some("vendor.yaml:1:10"));
    let list = refusal("- a\n- b\n", &request);
    assert!(list.message.contains("not an OpenAPI document"), "{list}");
    let other = refusal("name: x\n", &request);
    assert!(other.message.contains("no `openapi`"), "{other}");
}

#[test]
fn an_operation_the_description_lacks_is_refused_with_the_closest() {
    let missing = refusal(BOOKS, &Request::new("Account", "/customer/post", "v.yaml"));
    assert!(
        missing
            .message
            .contains("no path of the description matches `/customer`"),
        "{missing}"
    );
    assert!(
        missing.help.contains("`/customers/post`"),
        "{}",
        missing.help
    );
    let method = refusal(BOOKS, &Request::new("Account", "/customers/put", "v.yaml"));
    assert!(
        method.message.contains("has no `put` operation"),
        "{method}"
    );
    assert!(method.help.contains("post"), "{}", method.help);
    assert!(method.location.is_some());
    let malformed = refusal(BOOKS, &Request::new("Account", "customers", "v.yaml"));
    assert!(
        malformed.message.starts_with("--create `customers`"),
        "{malformed}"
    );
}

#[test]
fn the_module_is_the_entry_s_record_s_or_the_one_named() {
    let unknown = refusal(
        BOOKS,
        &Request::new("Customer", "/customers/post", "v.yaml"),
    );
    assert!(unknown.help.contains("--module"), "{}", unknown.help);
    let mut request = Request::new("Customer", "/customers/post", "v.yaml");
    request.module = Some("Contacts");
    let made = scaffold(&vendor(BOOKS), &request).expect("an overlay");
    let customer = entry(&made.overlay, "Customer");
    assert_eq!(customer["module"], "Contacts");
    assert_eq!(
        customer["push"]["schemasTransformer"]["createRequest"]["#ifgroup(#existsandnotempty($.contact.email))"],
        json!({"Email": "#valueof($.contact.email)"})
    );
    request.module = Some("Customers");
    let wrong = refusal(BOOKS, &request);
    assert!(wrong.help.contains("Accounts, Contacts"), "{}", wrong.help);
}

#[test]
fn an_update_requiring_if_match_reads_the_tag_the_path_s_get_answers() {
    let tagged = BOOKS.replace(
        "      - {name: customerId, in: path, required: true, schema: {type: string}}\n",
        "      - {name: customerId, in: path, required: true, schema: {type: string}}\n      - {name: If-Match, in: header, required: true, schema: {type: string}}\n    get:\n      responses:\n        \"200\":\n          description: the customer\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  \"@odata.etag\": {type: string}\n",
    );
    let mut request = Request::new("Account", "/customers/post", "./vendor.yaml");
    request.update = Some("/customers/{customerId}/patch");
    let made = scaffold(&vendor(&tagged), &request).expect("an overlay");
    let push = &entry(&made.overlay, "Account")["push"];
    assert_eq!(
        push["preSynchronizationAction"],
        json!({"ETag": {
            "type": "ApiPath",
            "path": "/customers/{IntegrationId}/get",
            "schema": {"type": "String", "header": "If-Match", "headerValue": "@odata.etag"},
            "in": "Header",
        }})
    );
    // Without a GET that answers a tag, the update is listed for the user to finish.
    let untagged = tagged.replace("\"@odata.etag\"", "version");
    let made = scaffold(&vendor(&untagged), &request).expect("an overlay");
    let push = &entry(&made.overlay, "Account")["push"];
    assert!(push.get("preSynchronizationAction").is_none());
    let update = made
        .left
        .iter()
        .find(|l| l.pointer == "/synchronization/Account/push/update")
        .expect("the update is listed");
    assert!(update.note.contains("If-Match"), "{}", update.note);
}

#[test]
fn a_required_header_is_sent_from_a_server_variable_set_per_company() {
    let tenanted = WRAPPED.replace(
        "  /{tenant}/Contacts:\n    put:\n",
        "  /{tenant}/Contacts:\n    put:\n      parameters:\n        - {name: xero-tenant-id, in: header, required: true, schema: {type: string, format: uuid}}\n        - {name: Accept, in: header, required: true, schema: {type: string}}\n        - {name: tenant, in: header, required: true, schema: {type: string}}\n        - {name: X-Sdk, in: header, required: true, schema: {type: string, enum: [\"true\"]}}\n",
    );
    let made = scaffold(
        &vendor(&tenanted),
        &Request::new("Account", "/{tenant}/Contacts/put", "ledger.yaml"),
    )
    .expect("an overlay");
    let actions = made.overlay["actions"].as_array().expect("actions");
    // The engine sends Accept itself; `tenant` is a server variable already.
    assert_eq!(
        actions[0]["update"]["x-syncdef"],
        json!({"parameters": {"header": {
            "xero-tenant-id": "{xeroTenantId}",
            "tenant": "{tenant}",
            "X-Sdk": "true",
        }}})
    );
    assert_eq!(actions[1]["target"], "$.servers[*]");
    assert_eq!(
        actions[1]["update"]["variables"]["xeroTenantId"]["default"],
        "00000000-0000-4000-8000-000000000000"
    );
    assert_eq!(
        made.left
            .iter()
            .map(|l| l.pointer.as_str())
            .collect::<Vec<_>>(),
        ["/servers/0/variables/xeroTenantId/default"]
    );
}

#[test]
fn a_header_an_api_key_sends_only_for_other_operations_is_given_a_value() {
    // The document's requirement sends the app's id as an API key; the create's own
    // requirement (which overrides it) does not, so the create needs a value for the header.
    let keyed = WRAPPED
        .replace(
            "security: [{key: []}]\n",
            "security: [{key: [], app: []}]\n",
        )
        .replace(
            "  /{tenant}/Contacts:\n    put:\n",
            "  /{tenant}/Contacts:\n    put:\n      security: [{key: []}]\n      parameters:\n        - {name: x-app-id, in: header, required: true, schema: {type: string}}\n",
        )
        .replace(
            "components:\n",
            "components:\n  securitySchemes:\n    key: {type: apiKey, in: header, name: Authorization}\n    app: {type: apiKey, in: header, name: x-app-id}\n",
        );
    let made = scaffold(
        &vendor(&keyed),
        &Request::new("Account", "/{tenant}/Contacts/put", "ledger.yaml"),
    )
    .expect("an overlay");
    let actions = made.overlay["actions"].as_array().expect("actions");
    assert_eq!(
        actions[0]["update"]["x-syncdef"]["parameters"]["header"]["x-app-id"], "{xAppId}",
        "{actions:#?}"
    );
}

#[test]
fn the_answer_s_schema_is_that_of_its_first_json_media_type_with_one() {
    let split = BOOKS.replace(
        "          description: created\n          content:\n            application/json:\n",
        "          description: created\n          content:\n            application/json:\n              example: {Customer: {Id: \"7\"}}\n            application/json; charset=utf-8:\n",
    );
    assert_ne!(split, BOOKS);
    let made = scaffold(
        &vendor(&split),
        &Request::new("Account", "/customers/post", "./vendor.yaml"),
    )
    .expect("an overlay");
    let templates = &entry(&made.overlay, "Account")["push"]["schemasTransformer"];
    assert_eq!(templates["createResponse"]["id"], "#valueof($.Customer.Id)");
}

#[test]
fn a_description_without_security_is_listed() {
    let unsecured = BOOKS.replace("security: [{key: []}]\n", "");
    assert_ne!(unsecured, BOOKS);
    let made = scaffold(
        &vendor(&unsecured),
        &Request::new("Account", "/customers/post", "./vendor.yaml"),
    )
    .expect("an overlay");
    assert!(
        made.left.iter().any(|l| l.pointer == "/security"),
        "{:?}",
        made.left
    );
}

#[test]
fn a_name_required_without_a_schema_gets_a_placeholder() {
    let slip = BOOKS.replace(
        "required: [DisplayName, Currency, Terms]",
        "required: [DisplayName, Currency, Terms, motherName]",
    );
    assert_ne!(slip, BOOKS);
    let made = scaffold(
        &vendor(&slip),
        &Request::new("Account", "/customers/post", "./vendor.yaml"),
    )
    .expect("an overlay");
    let request = &entry(&made.overlay, "Account")["push"]["schemasTransformer"]["createRequest"];
    assert_eq!(request["motherName"], "TODO motherName");
    assert!(
        made.left
            .iter()
            .any(|l| l.pointer.ends_with("/createRequest/motherName")),
        "{:?}",
        made.left
    );
}

#[test]
fn an_update_s_body_token_is_read_from_the_record_first() {
    let readable = WRAPPED.replace(
        "components:\n",
        "  /customer/{customerId}:\n    get:\n      parameters:\n        - {name: customerId, in: path, required: true, schema: {type: string}}\n      responses:\n        \"200\":\n          description: the customer\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  Customer:\n                    type: object\n                    properties:\n                      Id: {type: string}\n                      SyncToken: {type: string}\ncomponents:\n",
    );
    let mut request = Request::new("Account", "/customer/post", "ledger.yaml");
    request.update = Some("/customer/post");
    let made = scaffold(&vendor(&readable), &request).expect("an overlay");
    let push = &entry(&made.overlay, "Account")["push"];
    assert_eq!(
        push["preSynchronizationAction"],
        json!({"SyncToken": {
            "type": "ApiPath",
            "path": "/customer/{IntegrationId}/get",
            "schema": {"type": "String", "SyncToken": "Customer.SyncToken"},
            "in": "Body",
        }})
    );
    let templates = &push["schemasTransformer"];
    assert_eq!(
        templates["updateRequest"]["SyncToken"],
        "#valueof($.syncToken)"
    );
    // A create has no token to read: the constant stays, listed.
    assert_eq!(templates["createRequest"]["SyncToken"], "TODO SyncToken");
}

#[test]
fn address_fields_are_read_from_the_billing_address() {
    let text = r#"
openapi: 3.0.3
info: {title: Addresses, version: "1"}
security: [{key: []}]
paths:
  /customers:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [displayName, city]
              properties:
                displayName: {type: string}
                addressLine1: {type: string}
                city: {type: string}
                postalCode: {type: string}
                BillAddr:
                  type: object
                  properties:
                    Line1: {type: string}
                    City: {type: string}
                    Country: {type: string}
                    CountryName: {type: string}
                ShipAddr:
                  type: object
                  properties:
                    Line1: {type: string}
                    City: {type: string}
                TaxAddr:
                  type: object
                  properties:
                    state: {type: string}
                    country: {type: string}
      responses:
        "201": {description: created}
"#;
    let made = scaffold(
        &vendor(text),
        &Request::new("Account", "/customers/post", "./vendor.yaml"),
    )
    .expect("an overlay");
    let billing = "$.account.addresses[?(@.isBilling==true)]";
    let group = format!("#ifgroup(#exists({billing}))");
    let read = |field: &str| json!(format!("#valueof({billing}.{field})"));
    let request = &entry(&made.overlay, "Account")["push"]["schemasTransformer"]["createRequest"];
    // Required, as it is; optional, under the group; an address object, whole under it; a
    // shipping address is not the billing one; a state and a country alone are no address.
    assert_eq!(
        request,
        &json!({
            "displayName": "#valueof($.account.name)",
            "city": read("city"),
            group.clone(): {
                "addressLine1": read("address1"),
                "postalCode": read("postCode"),
                "BillAddr": {
                    "Line1": read("address1"),
                    "City": read("city"),
                    "Country": read("countryName"),
                },
            },
        })
    );
}

#[test]
fn a_parent_s_path_parameter_is_a_server_variable_set_per_company() {
    let text = WRAPPED.replace(
        "  - url: https://{tenant}.ledger.example/api\n    variables:\n      tenant: {default: demo}\n",
        "  - url: https://ledger.example/api\n",
    );
    assert_ne!(text, WRAPPED);
    let made = scaffold(
        &vendor(&text),
        &Request::new("Account", "/{tenant}/Contacts/put", "ledger.yaml"),
    )
    .expect("an overlay");
    assert_eq!(
        entry(&made.overlay, "Account")["push"]["create"],
        "/{tenant}/Contacts/put"
    );
    let actions = made.overlay["actions"].as_array().expect("actions");
    assert_eq!(
        actions[1]["update"]["variables"]["tenant"]["default"],
        "TODO tenant"
    );
    assert_eq!(made.left[0].pointer, "/servers/0/variables/tenant/default");
}

#[test]
fn an_entry_the_description_has_already_is_refused_where_it_is() {
    let defined = format!("{BOOKS}synchronization:\n  Account: {{module: Accounts}}\n");
    let taken = refusal(
        &defined,
        &Request::new("Account", "/customers/post", "v.yaml"),
    );
    assert!(
        taken.message.contains("an entry `Account` already"),
        "{taken}"
    );
    assert!(
        taken
            .location
            .is_some_and(|l| l.starts_with("vendor.yaml:"))
    );
    let mut other = Request::new("Customer", "/customers/post", "v.yaml");
    other.module = Some("Accounts");
    assert!(scaffold(&vendor(&defined), &other).is_ok());
}

#[test]
fn a_body_that_is_one_value_is_written_as_its_json_text() {
    let text = |schema: &str| {
        format!(
            "openapi: 3.0.3\ninfo: {{title: T, version: '1'}}\nsecurity: [{{key: []}}]\npaths:\n  /things:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {schema}\n      responses:\n        '201': {{description: created}}\n"
        )
    };
    let request = Request::new("Account", "/things/post", "v.yaml");
    let body = |schema: &str| {
        let made = scaffold(&vendor(&text(schema)), &request).expect("an overlay");
        entry(&made.overlay, "Account")["push"]["schemasTransformer"]["createRequest"].clone()
    };
    assert_eq!(body("{type: string}"), json!("\"TODO body\""));
    assert_eq!(body("{type: integer}"), json!("0"));
    assert_eq!(body("{}"), json!({}));
}

#[test]
fn an_update_written_with_the_record_s_placeholder_keeps_its_other_parameters() {
    // `tenant` names no server variable here.
    let text = WRAPPED.replace(
        "  - url: https://{tenant}.ledger.example/api\n    variables:\n      tenant: {default: demo}\n",
        "  - url: https://ledger.example/api\n",
    );
    assert_ne!(text, WRAPPED);
    let mut request = Request::new("Account", "/{tenant}/Contacts/put", "ledger.yaml");
    request.update = Some("/{tenant}/Contacts/{IntegrationId}/post");
    let made = scaffold(&vendor(&text), &request).expect("an overlay");
    assert_eq!(
        entry(&made.overlay, "Account")["push"]["update"],
        "/{tenant}/Contacts/{IntegrationId}/post"
    );
}

#[test]
fn a_schema_that_requires_itself_is_written_once() {
    // Five required properties of the schema itself: written again at every level, the
    // template would have 5^12 objects.
    let text = r##"
openapi: 3.0.3
info: {title: Trees, version: "1"}
security: [{key: []}]
paths:
  /nodes:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Node"}
      responses:
        "201": {description: created}
components:
  schemas:
    Node:
      type: object
      required: [a, b, c, d, e]
      properties:
        a: {$ref: "#/components/schemas/Node"}
        b: {$ref: "#/components/schemas/Node"}
        c: {$ref: "#/components/schemas/Node"}
        d: {$ref: "#/components/schemas/Node"}
        e: {$ref: "#/components/schemas/Node"}
"##;
    let made = scaffold(
        &vendor(text),
        &Request::new("Account", "/nodes/post", "v.yaml"),
    )
    .expect("an overlay");
    let request = &entry(&made.overlay, "Account")["push"]["schemasTransformer"]["createRequest"];
    assert_eq!(request["a"], json!({}));
    assert_eq!(made.left.len(), 6, "{:?}", made.left);
}
