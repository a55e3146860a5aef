//! Operation references matched against `paths` on the spanned tree: the one lookup the
//! validator and the engine share.

use proptest::prelude::*;
use syncdef_definitions::operation_ref::{HttpMethod, OperationRef};
use syncdef_definitions::path_match::Resolution;
use syncdef_definitions::{Definition, SourceFile};

const PATHS: &str = r##"openapi: 3.0.3
info: {title: paths, version: "1"}
paths:
  /v3/company/{realmId}/customer:
    post: {responses: {}}
  /v3/company/{realmId}/customer/{customerId}:
    get: {responses: {}}
    put: {responses: {}}
  /v3/company/{realmId}/customer/me:
    get: {responses: {}}
  /SalesInvoice:
    post: {responses: {}}
  "/SalesInvoice(No='{No}',Document_Type='{Document_Type}')":
    get: {responses: {}}
    put: {responses: {}}
  /companies({companyId})/customers({customerId}):
    patch: {responses: {}}
  /orgs/{org}/attestations/{attestation_id}:
    delete: {responses: {}}
  /orgs/{org}/attestations/{subject_digest}:
    get: {responses: {}}
  /shared/{id}:
    $ref: "#/paths/~1SalesInvoice"
  x-note: {}
synchronization: {}
"##;

fn definition() -> Definition {
    Definition::load(SourceFile::new("paths.yaml", PATHS)).unwrap_or_else(|e| panic!("{e:?}"))
}

fn parse(text: &str) -> OperationRef {
    OperationRef::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The template found and what fills each of its parameters, as written in the reference.
fn found(def: &Definition, text: &str) -> (String, Vec<(String, String)>) {
    match def.resolve(&parse(text)) {
        Resolution::Found { path, bindings, .. } => (
            path.template.to_owned(),
            bindings
                .iter()
                .map(|b| (b.param.to_owned(), text[b.range.clone()].to_owned()))
                .collect(),
        ),
        other => panic!("{text}: {other:?}"),
    }
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(p, v)| ((*p).to_owned(), (*v).to_owned()))
        .collect()
}

fn not_found(def: &Definition, text: &str) -> bool {
    matches!(def.resolve(&parse(text)), Resolution::NotFound)
}

#[test]
fn matches_placeholders_and_literals() {
    let def = definition();
    assert_eq!(
        found(&def, "/v3/company/{realmId}/customer/post"),
        (
            "/v3/company/{realmId}/customer".into(),
            pairs(&[("realmId", "{realmId}")])
        )
    );
    assert_eq!(
        found(&def, "/v3/company/{realmId}/customer/{IntegrationId}/get"),
        (
            "/v3/company/{realmId}/customer/{customerId}".into(),
            pairs(&[("realmId", "{realmId}"), ("customerId", "{IntegrationId}")])
        )
    );
    assert_eq!(
        found(&def, "/v3/company/société/customer/42/get").1,
        pairs(&[("realmId", "société"), ("customerId", "42")])
    );
}

#[test]
fn matches_odata_keys_and_composite_segments() {
    let def = definition();
    let text = "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')/put";
    assert_eq!(
        found(&def, text),
        (
            "/SalesInvoice(No='{No}',Document_Type='{Document_Type}')".into(),
            pairs(&[("No", "{IntegrationId}"), ("Document_Type", "Invoice")])
        )
    );
    assert_eq!(found(&def, "/SalesInvoice/post").0, "/SalesInvoice");
    assert_eq!(
        found(
            &def,
            "/companies({companyId})/customers({IntegrationId})/patch"
        ),
        (
            "/companies({companyId})/customers({customerId})".into(),
            pairs(&[
                ("companyId", "{companyId}"),
                ("customerId", "{IntegrationId}")
            ])
        )
    );
}

#[test]
fn a_parameter_takes_literal_text_and_placeholders_together() {
    let def = definition();
    assert_eq!(
        found(&def, "/v3/company/{realmId}/customer/C-{IntegrationId}/get").1,
        pairs(&[
            ("realmId", "{realmId}"),
            ("customerId", "C-{IntegrationId}")
        ])
    );
}

#[test]
fn the_query_string_is_not_part_of_the_path() {
    let def = definition();
    assert_eq!(
        found(
            &def,
            "/v3/company/{realmId}/customer?operation=delete&id={IntegrationId}/post"
        ),
        (
            "/v3/company/{realmId}/customer".into(),
            pairs(&[("realmId", "{realmId}")])
        )
    );
}

#[test]
fn the_most_specific_path_wins_before_the_method_is_looked_up() {
    let def = definition();
    assert_eq!(
        found(&def, "/v3/company/{realmId}/customer/me/get").0,
        "/v3/company/{realmId}/customer/me"
    );
    // `{customerId}` has `put`, but `/me` is the path the server routes `me` to: the reference
    // is reported, not sent to another path.
    match def.resolve(&parse("/v3/company/{realmId}/customer/me/put")) {
        Resolution::MethodMissing { path } => {
            assert_eq!(path.template, "/v3/company/{realmId}/customer/me");
            assert_eq!(path.methods(), [HttpMethod::Get]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn equally_specific_paths_go_to_the_one_with_the_method() {
    // GitHub's description has such pairs (OpenAPI calls them identical and invalid): each
    // method finds the path that has it, and a method neither has is reported on the first.
    let def = definition();
    let (get, _) = found(&def, "/orgs/{org}/attestations/{IntegrationId}/get");
    assert_eq!(get, "/orgs/{org}/attestations/{subject_digest}");
    let (delete, _) = found(&def, "/orgs/{org}/attestations/{IntegrationId}/delete");
    assert_eq!(delete, "/orgs/{org}/attestations/{attestation_id}");
    match def.resolve(&parse("/orgs/{org}/attestations/{IntegrationId}/put")) {
        Resolution::MethodMissing { path } => {
            assert_eq!(path.template, "/orgs/{org}/attestations/{attestation_id}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn what_never_matches() {
    let def = definition();
    // A parameter's text never spans a `/`, not even inside a placeholder.
    assert!(not_found(&def, "/v3/company/12/34/customer/post"));
    assert!(not_found(&def, "/v3/company/{realm/Id}/customer/post"));
    // A parameter is never empty.
    assert!(not_found(&def, "/v3/company//customer/post"));
    // A trailing slash is one more (empty) segment.
    assert!(not_found(&def, "/SalesInvoice//post"));
    // Literal text is compared byte for byte: no case folding, no percent-decoding.
    assert!(not_found(&def, "/salesinvoice/post"));
    assert!(not_found(&def, "/v3/company/{realmId}/cust%6Fmer/post"));
    // Keys of `paths` that are not paths.
    assert!(not_found(&def, "/x-note/get"));
}

#[test]
fn a_path_item_given_by_ref_is_matched_as_written() {
    // The `$ref` is not followed: the path matches, and has no operation of its own.
    let def = definition();
    match def.resolve(&parse("/shared/{IntegrationId}/post")) {
        Resolution::MethodMissing { path } => {
            assert_eq!(path.template, "/shared/{id}");
            assert!(path.methods().is_empty());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn matches_carry_spans() {
    let def = definition();
    match def.resolve(&parse(
        "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')/put",
    )) {
        Resolution::Found {
            path, operation, ..
        } => {
            assert_eq!(
                def.source.slice(path.key_span),
                "\"/SalesInvoice(No='{No}',Document_Type='{Document_Type}')\""
            );
            assert_eq!(def.source.describe(path.key_span), "paths.yaml:13:3");
            assert_eq!(def.source.slice(operation.span), "{responses: {}}");
            let (_, key) = path.operation(HttpMethod::Put).expect("put");
            assert_eq!(def.source.describe(key), "paths.yaml:15:5");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_index_lists_every_key_in_document_order() {
    let def = definition();
    let paths = def.paths();
    let templates: Vec<&str> = paths.entries().map(|e| e.template).collect();
    assert_eq!(templates.len(), 10);
    assert_eq!(templates[0], "/v3/company/{realmId}/customer");
    assert_eq!(templates[9], "x-note");
}

/// Text a parameter may take: no `/`, `?` or braces, and starting with `Z`, which no literal
/// segment of [`PATHS`] does (so no more specific path can match instead).
fn filler() -> impl Strategy<Value = String> {
    prop_oneof![
        "Z[A-Za-z0-9_.~-]{0,8}",
        Just("{IntegrationId}".to_owned()),
        "Z[a-z0-9]{0,3}".prop_map(|s| format!("{s}{{Account.IntegrationId}}")),
    ]
}

proptest! {
    /// Filling each parameter of a template with any text it may take resolves to that
    /// template, and each binding is the text put there.
    #[test]
    fn filled_templates_resolve_to_themselves(
        which in 0usize..6,
        fillers in proptest::collection::vec(filler(), 4),
    ) {
        let def = definition();
        let (template, method) = [
            ("/v3/company/{realmId}/customer", "post"),
            ("/v3/company/{realmId}/customer/{customerId}", "put"),
            ("/SalesInvoice(No='{No}',Document_Type='{Document_Type}')", "get"),
            ("/companies({companyId})/customers({customerId})", "patch"),
            ("/orgs/{org}/attestations/{attestation_id}", "delete"),
            ("/SalesInvoice", "post"),
        ][which];
        let mut text = String::new();
        let mut used = Vec::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let close = open + rest[open..].find('}').expect("closed");
            text.push_str(&rest[..open]);
            let value = &fillers[used.len()];
            used.push((rest[open + 1..close].to_owned(), value.clone()));
            text.push_str(value);
            rest = &rest[close + 1..];
        }
        text.push_str(rest);
        text.push('/');
        text.push_str(method);
        prop_assert_eq!(found(&def, &text), (template.to_owned(), used));
    }
}
