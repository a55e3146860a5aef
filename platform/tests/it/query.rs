//! The query builder: every operator, literal type and ordering rule, and every rejection.

use syncdef_platform::collections::{self, ALL};
use syncdef_platform::query::{
    Date, DateTime, Direction, Filter, Guid, OrderList, Query, QueryError,
};

fn filter_text(query: &Query) -> String {
    query
        .check()
        .expect("valid query")
        .filter_text()
        .map(str::to_owned)
        .unwrap_or_default()
}

fn accounts(filter: Filter) -> String {
    filter_text(&Query::new(&collections::ACCOUNTS).filter(filter))
}

fn rejection(query: &Query) -> String {
    let error: QueryError = query.check().expect_err("the query must be refused");
    error.to_string()
}

fn date(text: &str) -> Date {
    Date::parse(text).expect("valid date")
}

#[test]
fn comparison_operators() {
    assert_eq!(accounts(Filter::eq("code", "ICP1")), "code eq 'ICP1'");
    assert_eq!(accounts(Filter::ne("code", "ICP1")), "code ne 'ICP1'");
    assert_eq!(accounts(Filter::gt("creditLimit", 5)), "creditLimit gt 5");
    assert_eq!(accounts(Filter::ge("creditLimit", 5)), "creditLimit ge 5");
    assert_eq!(accounts(Filter::lt("creditLimit", 5)), "creditLimit lt 5");
    assert_eq!(accounts(Filter::le("creditLimit", 5)), "creditLimit le 5");
}

#[test]
fn text_functions() {
    assert_eq!(
        accounts(Filter::contains("name", "test")),
        "contains(name, 'test')"
    );
    assert_eq!(
        accounts(Filter::starts_with("name", "Ac")),
        "startswith(name, 'Ac')"
    );
    assert_eq!(
        accounts(Filter::ends_with("email", ".gr")),
        "endswith(email, '.gr')"
    );
}

#[test]
fn logical_operators_and_precedence() {
    let a = || Filter::eq("code", "A");
    let b = || Filter::eq("code", "B");
    let c = || Filter::eq("taxable", true);
    assert_eq!(accounts(a().and(b())), "code eq 'A' and code eq 'B'");
    assert_eq!(accounts(a().or(b())), "code eq 'A' or code eq 'B'");
    assert_eq!(
        accounts(a().or(b()).and(c())),
        "(code eq 'A' or code eq 'B') and taxable eq true"
    );
    assert_eq!(
        accounts(a().and(b()).or(c())),
        "code eq 'A' and code eq 'B' or taxable eq true"
    );
    assert_eq!(
        accounts(a().and(b().or(c()))),
        "code eq 'A' and (code eq 'B' or taxable eq true)"
    );
    assert_eq!(
        accounts(a().or(b().or(c()))),
        "code eq 'A' or (code eq 'B' or taxable eq true)"
    );
    assert_eq!(accounts(!a()), "not (code eq 'A')");
    assert_eq!(
        accounts(!Filter::contains("name", "x")),
        "not contains(name, 'x')"
    );
    assert_eq!(accounts(!(a().or(b()))), "not (code eq 'A' or code eq 'B')");
    assert_eq!(
        accounts(Filter::negate(a()).and(c())),
        "not (code eq 'A') and taxable eq true"
    );
}

#[test]
fn repeated_filter_calls_are_anded() {
    let query = Query::new(&collections::ACCOUNTS)
        .filter(Filter::eq("taxable", true))
        .filter(Filter::contains("name", "a"));
    assert_eq!(
        filter_text(&query),
        "taxable eq true and contains(name, 'a')"
    );
}

#[test]
fn literal_types() {
    assert_eq!(
        accounts(Filter::eq("name", "O'Brien's")),
        "name eq 'O''Brien''s'"
    );
    assert_eq!(accounts(Filter::eq("name", "")), "name eq ''");
    assert_eq!(accounts(Filter::eq("id", 42)), "id eq 42");
    assert_eq!(accounts(Filter::eq("id", -7i64)), "id eq -7");
    assert_eq!(
        accounts(Filter::gt("creditLimit", 1500.25)),
        "creditLimit gt 1500.25"
    );
    assert_eq!(
        accounts(Filter::eq("creditLimit", 0.1)),
        "creditLimit eq 0.1"
    );
    assert_eq!(
        accounts(Filter::eq("resellingEnabled", false)),
        "resellingEnabled eq false"
    );
    assert_eq!(
        accounts(Filter::gt("createdAt", date("2020-01-01"))),
        "createdAt gt datetime'2020-01-01'"
    );
    let at = date("2020-12-25")
        .at(20, 5, 8)
        .and_then(|t| t.with_millis(7))
        .expect("valid time");
    assert_eq!(
        accounts(Filter::gt("updatedAt", at)),
        "updatedAt gt datetime'2020-12-25T20:05:08.007'"
    );
    let parsed = DateTime::parse("2024-03-01T10:00:00Z").expect("timestamp");
    assert_eq!(
        accounts(Filter::ge("updatedAt", parsed)),
        "updatedAt ge datetime'2024-03-01T10:00:00.000'"
    );
    let guid = Guid::parse("3F2B1C4D-0000-4E5F-8A9B-0123456789AB").expect("guid");
    assert_eq!(
        filter_text(&Query::new(&collections::INVOICES).filter(Filter::eq("id", guid))),
        "id eq 3f2b1c4d-0000-4e5f-8a9b-0123456789ab"
    );
    // dateTime properties take bare dates too.
    assert_eq!(
        filter_text(
            &Query::new(&collections::BUNDLES).filter(Filter::lt("createdAt", date("2024-02-29")))
        ),
        "createdAt lt datetime'2024-02-29'"
    );
}

#[test]
fn ordering_rules() {
    let checked = Query::new(&collections::ACCOUNTS)
        .order_by("updatedAt", Direction::Asc)
        .order_by("name", Direction::Desc)
        .check()
        .expect("valid");
    assert_eq!(checked.orderby_text(), Some("updatedAt asc,name desc"));
    assert_eq!(checked.filter_text(), None);

    let contacts = Query::new(&collections::CONTACTS).order_by("accountName", Direction::Asc);
    assert_eq!(
        contacts.check().expect("valid").orderby_text(),
        Some("accountName asc")
    );

    let unlisted = Query::new(&collections::BUNDLES)
        .allow_unlisted_order()
        .order_by("createdAt", Direction::Desc);
    assert_eq!(
        unlisted.check().expect("valid").orderby_text(),
        Some("createdAt desc")
    );
}

#[test]
fn query_strings_are_escaped_and_paged() {
    let checked = Query::new(&collections::ACCOUNTS)
        .filter(Filter::eq("name", "a&b=c#d"))
        .order_by("name", Direction::Asc)
        .page_size(25)
        .check()
        .expect("valid");
    assert_eq!(
        checked.query_string(Some(3)),
        "$filter=name%20eq%20%27a%26b%3Dc%23d%27&$orderby=name%20asc&page=3&size=25"
    );
    assert_eq!(
        checked.query_string(None),
        "$filter=name%20eq%20%27a%26b%3Dc%23d%27&$orderby=name%20asc"
    );
}

#[test]
fn path_placeholders() {
    let items = Query::new(&collections::PRICELIST_ITEMS)
        .path_param("pricelistId", "12")
        .filter(Filter::gt("amount", 10));
    assert_eq!(
        items.check().expect("valid").path(),
        "/api/pricelists/12/items"
    );
    let fields = Query::new(&collections::ORG_CUSTOM_FIELDS).path_param("module", "invoices");
    assert_eq!(
        fields.check().expect("valid").path(),
        "/api/organization/invoices/customfields"
    );
    let escaped = Query::new(&collections::PRICELIST_PRICEGROUP_ITEMS)
        .path_param("pricelistId", "1/2")
        .path_param("pricegroupId", "g");
    assert_eq!(
        escaped.check().expect("valid").path(),
        "/api/pricelists/1%2F2/pricegroups/g"
    );
}

#[test]
fn rejects_unknown_properties_with_a_suggestion() {
    let query = Query::new(&collections::ACCOUNTS).filter(Filter::eq("nmae", "Acme"));
    insta::assert_snapshot!("unknown_property_typo", rejection(&query));
    let query =
        Query::new(&collections::ACCOUNTS).filter(Filter::eq("CreatedAt", date("2024-01-01")));
    insta::assert_snapshot!("unknown_property_case", rejection(&query));
    let query = Query::new(&collections::ACCOUNTS).filter(Filter::eq("zzz", 1));
    insta::assert_snapshot!("unknown_property_no_suggestion", rejection(&query));
}

#[test]
fn rejects_wrong_literal_types() {
    let cases = [
        (
            "int_given_decimal",
            Query::new(&collections::ACCOUNTS).filter(Filter::eq("id", 1.5)),
        ),
        (
            "numeric_given_string",
            Query::new(&collections::ACCOUNTS).filter(Filter::gt("creditLimit", "100")),
        ),
        (
            "string_given_number",
            Query::new(&collections::ACCOUNTS).filter(Filter::eq("code", 12)),
        ),
        (
            "boolean_given_string",
            Query::new(&collections::ACCOUNTS).filter(Filter::eq("taxable", "true")),
        ),
        (
            "date_given_string",
            Query::new(&collections::ACCOUNTS).filter(Filter::gt("updatedAt", "2024-01-01")),
        ),
        (
            "guid_given_string",
            Query::new(&collections::INVOICES)
                .filter(Filter::eq("id", "3f2b1c4d-0000-4e5f-8a9b-0123456789ab")),
        ),
        (
            "int_given_guid",
            Query::new(&collections::ACCOUNTS).filter(Filter::eq(
                "id",
                Guid::parse("3f2b1c4d-0000-4e5f-8a9b-0123456789ab").expect("guid"),
            )),
        ),
    ];
    for (name, query) in cases {
        insta::assert_snapshot!(name, rejection(&query));
    }
}

#[test]
fn rejects_meaningless_operators() {
    let query = Query::new(&collections::ACCOUNTS).filter(Filter::gt("taxable", true));
    insta::assert_snapshot!("order_comparison_on_boolean", rejection(&query));
    let guid = Guid::parse("3f2b1c4d-0000-4e5f-8a9b-0123456789ab").expect("guid");
    let query = Query::new(&collections::INVOICES).filter(Filter::le("id", guid));
    insta::assert_snapshot!("order_comparison_on_guid", rejection(&query));
    let query = Query::new(&collections::ACCOUNTS).filter(Filter::contains("creditLimit", "1"));
    insta::assert_snapshot!("text_function_on_numeric", rejection(&query));
    let query = Query::new(&collections::ACCOUNTS).filter(Filter::gt("creditLimit", f64::NAN));
    insta::assert_snapshot!("non_finite_number", rejection(&query));
}

#[test]
fn rejects_bad_ordering() {
    let query = Query::new(&collections::ACCOUNTS).order_by("updatedat", Direction::Asc);
    insta::assert_snapshot!("order_unknown_property", rejection(&query));
    let query = Query::new(&collections::ACCOUNTS).order_by("phone", Direction::Asc);
    insta::assert_snapshot!("order_not_orderable", rejection(&query));
    let query = Query::new(&collections::PAYMENTS).order_by("paymentDate", Direction::Desc);
    insta::assert_snapshot!("order_not_shown", rejection(&query));
    let query = Query::new(&collections::PAYMENTS)
        .allow_unlisted_order()
        .order_by("paymentDat", Direction::Desc);
    insta::assert_snapshot!("order_unlisted_unknown", rejection(&query));
    let query = Query::new(&collections::ACCOUNTS)
        .allow_unlisted_order()
        .order_by("phone", Direction::Asc);
    insta::assert_snapshot!("order_listed_stays_strict", rejection(&query));
    let query = Query::new(&collections::ACCOUNTS)
        .order_by("name", Direction::Asc)
        .order_by("name", Direction::Desc);
    insta::assert_snapshot!("order_duplicate", rejection(&query));
}

#[test]
fn rejects_bad_paths_and_page_sizes() {
    let query = Query::new(&collections::PRICELIST_ITEMS);
    insta::assert_snapshot!("path_missing_param", rejection(&query));
    let query = Query::new(&collections::PRICELIST_ITEMS)
        .path_param("pricelistId", "1")
        .path_param("priceListId", "1");
    insta::assert_snapshot!("path_unknown_param", rejection(&query));
    let query = Query::new(&collections::ORG_CUSTOM_FIELDS).path_param("module", "acounts");
    insta::assert_snapshot!("path_value_not_allowed", rejection(&query));
    let query = Query::new(&collections::ACCOUNTS).page_size(0);
    insta::assert_snapshot!("zero_page_size", rejection(&query));
}

#[test]
fn reports_every_problem_at_once() {
    let query = Query::new(&collections::INVOICES)
        .filter(Filter::eq("stauts", "Paid").and(Filter::gt("dueDate", "2024-01-01")))
        .order_by("billingToId", Direction::Asc);
    insta::assert_snapshot!("several_problems", rejection(&query));
}

#[test]
fn the_catalog_is_consistent() {
    assert_eq!(ALL.len(), 37, "every collection of spec tables 2.1 and 2.2");
    for collection in ALL {
        let names: Vec<&str> = collection.property_names().collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            names.len(),
            "duplicate property in {collection}"
        );
        if let OrderList::Listed(order) = collection.order {
            for property in order {
                assert!(
                    names.contains(property),
                    "{collection}: `{property}` orderable but not filterable"
                );
            }
        }
        let placeholders = collection.path.matches('{').count();
        assert_eq!(placeholders, collection.path_params.len(), "{collection}");
        for param in collection.path_params {
            assert!(
                collection.path.contains(&format!("{{{}}}", param.name)),
                "{collection}"
            );
        }
        assert_eq!(
            syncdef_platform::query::Collection::find(collection.path).map(|c| c.path),
            Some(collection.path)
        );
    }
}
