//! The two shapes of a collection answer: a plain array, or the paging envelope of spec 2.5.
//!
//! The envelope's field names come from the spec but are UNVERIFIED against the live
//! platform (no public example exists). They are all in [`names`]: if the platform differs,
//! this is the one place to change.

use serde_json::{Map, Value};

/// Field names of the paging envelope.
pub mod names {
    /// Array of the page's records.
    pub const DATA: &str = "data";
    /// Object with the page numbers.
    pub const PAGING: &str = "paging";
    /// Current page number (in `paging`).
    pub const PAGE: &str = "page";
    /// Page size (in `paging`).
    pub const SIZE: &str = "size";
    /// Total number of records (in `paging`).
    pub const TOTAL_COUNT: &str = "totalCount";
    /// Total number of pages (in `paging`).
    pub const PAGE_COUNT: &str = "pageCount";
    /// Object with navigation links.
    pub const LINKS: &str = "links";
    /// The next page's link (in `links`); null on the last page.
    pub const NEXT: &str = "next";
    /// Absolute URL of a link.
    pub const URI: &str = "uri";
}

/// The numbers of a page, as far as the envelope gives them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageInfo {
    /// Current page number (from 1).
    pub page: Option<u64>,
    /// Page size.
    pub size: Option<u64>,
    /// Total number of records.
    pub total_count: Option<u64>,
    /// Total number of pages.
    pub page_count: Option<u64>,
}

/// A collection answer, whichever shape came back.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CollectionBody {
    /// The whole result as an array (no version header, version 1, or a non-paging endpoint).
    Array(Vec<Value>),
    /// One page of the envelope.
    Envelope {
        data: Vec<Value>,
        info: PageInfo,
        /// `links.next.uri`, if present and not null.
        next: Option<String>,
    },
}

/// A body of neither shape, handed back so the error can show it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ShapeError {
    pub(crate) reason: String,
    pub(crate) body: Value,
}

/// Reads either shape; `null` is an empty result (spec part 7: "returns an empty list").
pub(crate) fn parse_collection(body: Value) -> Result<CollectionBody, ShapeError> {
    match body {
        Value::Null => Ok(CollectionBody::Array(Vec::new())),
        Value::Array(items) => Ok(CollectionBody::Array(items)),
        Value::Object(mut object) => {
            let data = match object.remove(names::DATA) {
                Some(Value::Array(items)) => items,
                Some(Value::Null) => Vec::new(),
                Some(other) => {
                    object.insert(names::DATA.to_owned(), other);
                    return Err(ShapeError {
                        reason: format!("`{}` is not an array", names::DATA),
                        body: Value::Object(object),
                    });
                }
                None => {
                    return Err(ShapeError {
                        reason: format!(
                            "expected an array or a paging envelope with `{}`; got an object with keys {}",
                            names::DATA,
                            keys(&object)
                        ),
                        body: Value::Object(object),
                    });
                }
            };
            Ok(CollectionBody::Envelope {
                data,
                info: page_info(object.get(names::PAGING)),
                next: next_link(object.get(names::LINKS)),
            })
        }
        other => Err(ShapeError {
            reason: format!(
                "expected an array or a paging envelope, got {}",
                match other {
                    Value::Bool(_) => "a boolean",
                    Value::Number(_) => "a number",
                    _ => "a string",
                }
            ),
            body: other,
        }),
    }
}

fn keys(object: &Map<String, Value>) -> String {
    let keys: Vec<String> = object.keys().take(10).map(|k| format!("`{k}`")).collect();
    if keys.is_empty() {
        "none".to_owned()
    } else {
        keys.join(", ")
    }
}

fn page_info(paging: Option<&Value>) -> PageInfo {
    let number = |name: &str| paging.and_then(|p| p.get(name)).and_then(Value::as_u64);
    PageInfo {
        page: number(names::PAGE),
        size: number(names::SIZE),
        total_count: number(names::TOTAL_COUNT),
        page_count: number(names::PAGE_COUNT),
    }
}

/// `links.next.uri`; a bare string link is accepted too, in case the platform simplifies.
fn next_link(links: Option<&Value>) -> Option<String> {
    match links?.get(names::NEXT)? {
        Value::Object(link) => link
            .get(names::URI)
            .and_then(Value::as_str)
            .filter(|uri| !uri.is_empty())
            .map(str::to_owned),
        Value::String(uri) if !uri.is_empty() => Some(uri.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_shapes_and_null_are_read() {
        assert_eq!(
            parse_collection(json!([1, 2])),
            Ok(CollectionBody::Array(vec![json!(1), json!(2)]))
        );
        assert_eq!(
            parse_collection(Value::Null),
            Ok(CollectionBody::Array(vec![]))
        );
        let envelope = json!({
            "data": [{"id": 1}],
            "paging": {"page": 1, "size": 1, "offset": 0, "totalCount": 2, "pageCount": 2},
            "links": {"next": {"uri": "https://p.example/api/accounts?page=2&size=1", "method": "GET"}}
        });
        let CollectionBody::Envelope { data, info, next } =
            parse_collection(envelope).expect("envelope")
        else {
            panic!("expected an envelope");
        };
        assert_eq!(data, vec![json!({"id": 1})]);
        assert_eq!(info.page_count, Some(2));
        assert_eq!(
            next.as_deref(),
            Some("https://p.example/api/accounts?page=2&size=1")
        );
    }

    #[test]
    fn other_objects_are_refused_with_their_keys() {
        let error = parse_collection(json!({"items": []})).unwrap_err();
        assert!(error.reason.contains("`items`"), "{}", error.reason);
        assert_eq!(error.body, json!({"items": []}));
        assert!(parse_collection(json!("x")).is_err());
    }
}
