//! Operation references: parsing, and matching against `paths` by template.

use syncdef_definitions::load::{Format, LoadOptions, load_as};
use syncdef_definitions::operation_ref::{
    HttpMethod, OperationRef, OperationRefErrorKind, PlaceholderKind,
};
use syncdef_definitions::path_match::{Binding, ParamBinding, Resolution, resolve};
use syncdef_definitions::{Definition, SourceFile};

fn parse(text: &str) -> OperationRef {
    OperationRef::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn parse_err(text: &str) -> OperationRefErrorKind {
    match OperationRef::parse(text) {
        Ok(r) => panic!("{text} parsed as {r}"),
        Err(e) => e.kind,
    }
}

#[test]
fn splits_at_the_last_slash() {
    let r = parse("/v3/company/{realmId}/customer/post");
    assert_eq!(r.path, "/v3/company/{realmId}/customer");
    assert_eq!(r.method, HttpMethod::Post);
    assert_eq!(
        &"/v3/company/{realmId}/customer/post"[r.method_range.clone()],
        "post"
    );
    let odata = parse("/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')/put");
    assert_eq!(
        odata.path,
        "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')"
    );
    assert_eq!(odata.method, HttpMethod::Put);
}

#[test]
fn placeholders_and_their_ranges() {
    let text = "/v3/company/{realmId}/customer/{IntegrationId}/{Account.IntegrationId}/get";
    let r = parse(text);
    let kinds: Vec<(&str, &PlaceholderKind, &str)> = r
        .placeholders
        .iter()
        .map(|p| (p.name.as_str(), &p.kind, &text[p.range.clone()]))
        .collect();
    assert_eq!(
        kinds,
        [
            ("realmId", &PlaceholderKind::Name, "{realmId}"),
            (
                "IntegrationId",
                &PlaceholderKind::IntegrationId,
                "{IntegrationId}"
            ),
            (
                "Account.IntegrationId",
                &PlaceholderKind::EntryIntegrationId {
                    entry: "Account".into()
                },
                "{Account.IntegrationId}"
            ),
        ]
    );
    let other = parse("/x/{Invoice.IntegrationId}/{Account.Name}/get");
    assert_eq!(
        other.placeholders[0].kind,
        PlaceholderKind::EntryIntegrationId {
            entry: "Invoice".into()
        }
    );
    assert_eq!(other.placeholders[1].kind, PlaceholderKind::Name);
}

#[test]
fn malformed_references() {
    assert_eq!(parse_err(""), OperationRefErrorKind::Empty);
    assert_eq!(parse_err("customer"), OperationRefErrorKind::MissingMethod);
    assert_eq!(
        parse_err("/v3/company/customer/"),
        OperationRefErrorKind::MissingMethod
    );
    assert_eq!(
        parse_err("/v3/company/{realmId}/customer"),
        OperationRefErrorKind::UnknownMethod
    );
    assert_eq!(
        parse_err("/v3/customer/{IntegrationId}"),
        OperationRefErrorKind::MissingMethod
    );
    assert_eq!(
        parse_err("/v3/customer/POST"),
        OperationRefErrorKind::UpperCaseMethod
    );
    assert_eq!(
        parse_err("/v3/customer/Post"),
        OperationRefErrorKind::UpperCaseMethod
    );
    assert_eq!(
        parse_err("/v3/customer/fetch"),
        OperationRefErrorKind::UnknownMethod
    );
    assert_eq!(parse_err("/post"), OperationRefErrorKind::EmptyPath);
    assert_eq!(
        parse_err("v3/customer/post"),
        OperationRefErrorKind::RelativePath
    );
    assert_eq!(
        parse_err("/v3/{realmId/customer/post"),
        OperationRefErrorKind::UnbalancedBrace
    );
    assert_eq!(
        parse_err("/v3/realmId}/customer/post"),
        OperationRefErrorKind::UnbalancedBrace
    );
    assert_eq!(
        parse_err("/v3/{}/customer/post"),
        OperationRefErrorKind::EmptyPlaceholder
    );
    let err = OperationRef::parse("/v3/customer/GET").err();
    assert_eq!(err.as_ref().map(|e| e.help.as_str()), Some("write `get`"));
    assert_eq!(err.map(|e| e.range), Some(13..16));
}

const PATHS: &str = r#"{
  "openapi": "3.0.3",
  "info": {"title": "paths", "version": "1"},
  "paths": {
    "/v3/company/{realmId}/customer": {"post": {"responses": {}}},
    "/v3/company/{realmId}/customer/{customerId}": {"get": {"responses": {}}},
    "/v3/company/{realmId}/customer/me": {"get": {"responses": {}}},
    "/SalesInvoice": {"post": {"responses": {}}},
    "/SalesInvoice(No='{No}',Document_Type='{Document_Type}')": {"get": {"responses": {}}, "put": {"responses": {}}},
    "/companies({companyId})/customers({customerId})": {"patch": {"responses": {}}}
  },
  "synchronization": {}
}"#;

fn api() -> openapiv3::OpenAPI {
    let doc = load_as(
        SourceFile::new("paths.json", PATHS).into(),
        Format::Json,
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}", e.render()));
    Definition::from_document(doc)
        .openapi
        .unwrap_or_else(|| panic!("not OpenAPI"))
}

fn found(api: &openapiv3::OpenAPI, text: &str) -> (String, Vec<ParamBinding>) {
    match resolve(api, &parse(text)) {
        Resolution::Found { path, bindings, .. } => (path.to_owned(), bindings),
        other => panic!("{text}: {other:?}"),
    }
}

fn bind(parameter: &str, value: Binding) -> ParamBinding {
    ParamBinding {
        parameter: parameter.into(),
        value,
    }
}

#[test]
fn matches_placeholders_and_literals() {
    let api = api();
    let (path, bindings) = found(&api, "/v3/company/{realmId}/customer/post");
    assert_eq!(path, "/v3/company/{realmId}/customer");
    assert_eq!(bindings, [bind("realmId", Binding::Placeholder(0))]);

    let (path, bindings) = found(&api, "/v3/company/{realmId}/customer/{IntegrationId}/get");
    assert_eq!(path, "/v3/company/{realmId}/customer/{customerId}");
    assert_eq!(
        bindings,
        [
            bind("realmId", Binding::Placeholder(0)),
            bind("customerId", Binding::Placeholder(1))
        ]
    );

    let (path, bindings) = found(&api, "/v3/company/1234/customer/42/get");
    assert_eq!(path, "/v3/company/{realmId}/customer/{customerId}");
    assert_eq!(
        bindings,
        [
            bind("realmId", Binding::Literal("1234".into())),
            bind("customerId", Binding::Literal("42".into()))
        ]
    );
}

#[test]
fn the_most_specific_path_wins() {
    let api = api();
    assert_eq!(
        found(&api, "/v3/company/{realmId}/customer/me/get").0,
        "/v3/company/{realmId}/customer/me"
    );
}

#[test]
fn matches_odata_keys() {
    let api = api();
    let (path, bindings) = found(
        &api,
        "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')/put",
    );
    assert_eq!(
        path,
        "/SalesInvoice(No='{No}',Document_Type='{Document_Type}')"
    );
    assert_eq!(
        bindings,
        [
            bind("No", Binding::Placeholder(0)),
            bind("Document_Type", Binding::Literal("Invoice".into()))
        ]
    );
    assert_eq!(found(&api, "/SalesInvoice/post").0, "/SalesInvoice");
    let (path, bindings) = found(
        &api,
        "/companies({companyId})/customers({IntegrationId})/patch",
    );
    assert_eq!(path, "/companies({companyId})/customers({customerId})");
    assert_eq!(
        bindings,
        [
            bind("companyId", Binding::Placeholder(0)),
            bind("customerId", Binding::Placeholder(1))
        ]
    );
}

#[test]
fn missing_method_and_did_you_mean() {
    let api = api();
    match resolve(&api, &parse("/v3/company/{realmId}/customer/put")) {
        Resolution::MethodMissing {
            path, available, ..
        } => {
            assert_eq!(path, "/v3/company/{realmId}/customer");
            assert_eq!(available, [HttpMethod::Post]);
        }
        other => panic!("{other:?}"),
    }
    match resolve(&api, &parse("/v3/company/{realmId}/costumer/post")) {
        Resolution::NotFound { candidates } => assert_eq!(
            candidates.first().copied(),
            Some("/v3/company/{realmId}/customer")
        ),
        other => panic!("{other:?}"),
    }
    // A literal never spans a `/`: one segment per parameter.
    assert!(matches!(
        resolve(&api, &parse("/v3/company/12/34/customer/post")),
        Resolution::NotFound { .. }
    ));
}
