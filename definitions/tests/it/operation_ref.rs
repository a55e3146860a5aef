//! Operation references: parsing (matching against `paths` is in `path_match.rs`).

use syncdef_definitions::operation_ref::{
    HttpMethod, OperationRef, OperationRefErrorKind, PlaceholderKind,
};

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

#[test]
fn each_method_has_its_reference_and_request_line_spelling() {
    for m in HttpMethod::ALL {
        assert_eq!(m.as_upper_str(), m.as_str().to_ascii_uppercase());
        assert_eq!(HttpMethod::from_lower(m.as_str()), Some(m));
    }
}
