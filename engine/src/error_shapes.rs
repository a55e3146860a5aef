//! The shapes external systems write their reasons in when they refuse a request, in one
//! table: the engine reads a failed answer's messages through it, whether the answer is an
//! error status or a 2xx whose body says `success: false` (spec 7.1). Each row is tried in
//! order and the first that finds the body in its shape gives the messages; a body in no
//! known shape gives none (it is in the audit trail).

use serde_json::Value as Json;
use syncdef_definitions::openapi::{essence, is_json};

use crate::lookup::{field, scalar_text};

/// One way of writing why a request failed.
pub struct ErrorShape {
    /// Who writes it, and where (docs/engine.md lists every row by it).
    pub name: &'static str,
    /// The messages of a body written in this shape; `None` when the body is not.
    pub(crate) read: fn(&Json) -> Option<Vec<String>>,
}

/// The known shapes, most specific first: a shape that could match another's body (an
/// `error` object, a `message`) comes after the one that reads more of it.
pub const ERROR_SHAPES: &[ErrorShape] = &[
    ErrorShape {
        name: "QuickBooks: `Fault.Error[]` of `{Message, Detail, code}`",
        read: quickbooks_fault,
    },
    ErrorShape {
        name: "Xero: `Elements[].ValidationErrors[].Message`",
        read: xero_validation_errors,
    },
    ErrorShape {
        name: "Stripe: `error` of `{type, code, message, param}`",
        read: stripe_error,
    },
    ErrorShape {
        name: "Business Central and OData: `error` of `{code, message}`",
        read: odata_error,
    },
    ErrorShape {
        name: "Zuora: `reasons[]` of `{code, message}`",
        read: zuora_reasons,
    },
    ErrorShape {
        name: "the spec's create result: `errors`, an array (of strings, or objects with a `message`) or one string",
        read: errors_member,
    },
    ErrorShape {
        name: "RFC 9457 problem details (`application/problem+json`): `title: detail`",
        read: problem_details,
    },
    ErrorShape {
        name: "a top-level `detail`, `message`, `Message`, `error_description` or `error` string",
        read: top_level_message,
    },
];

/// The external system's messages in a failed answer's `body`, read through
/// [`ERROR_SHAPES`]; `media_type` is the answer's `Content-Type`, when it has one. A problem
/// document (`application/problem+json`, whatever its parameters) is read as one first,
/// since its extension members may look like another shape's.
pub(crate) fn messages(body: &Json, media_type: Option<&str>) -> Vec<String> {
    let problem = media_type.is_some_and(|m| essence(m) == "application/problem+json");
    if problem && let Some(found) = problem_details(body) {
        return found;
    }
    ERROR_SHAPES
        .iter()
        .find_map(|shape| (shape.read)(body))
        .unwrap_or_default()
}

/// The reason in an answer that is not JSON: the text of a `text/plain` body, trimmed (a
/// gateway's `Invalid API key`). Other media types (an HTML page) give none: their text is
/// markup, and the audit trail has it.
pub(crate) fn text_message(body: &[u8], media_type: Option<&str>) -> Option<String> {
    let media = media_type.map(essence)?;
    if media != "text/plain" || media_type.is_some_and(is_json) {
        return None;
    }
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

fn text(value: &Json, key: &str) -> Option<String> {
    value
        .get(key)
        .and_then(scalar_text)
        .filter(|t| !t.is_empty())
}

fn quickbooks_fault(body: &Json) -> Option<Vec<String>> {
    let Some(Json::Array(items)) = field(body, "Fault.Error") else {
        return None;
    };
    Some(
        items
            .iter()
            .map(|e| {
                let mut m = text(e, "Message").unwrap_or_default();
                if let Some(d) = text(e, "Detail").filter(|d| *d != m) {
                    if !m.is_empty() {
                        m.push_str(": ");
                    }
                    m.push_str(&d);
                }
                if let Some(c) = text(e, "code") {
                    m.push_str(&format!(" (code {c})"));
                }
                m
            })
            .collect(),
    )
}

fn xero_validation_errors(body: &Json) -> Option<Vec<String>> {
    let Some(Json::Array(elements)) = body.get("Elements") else {
        return None;
    };
    let found: Vec<String> = elements
        .iter()
        .filter_map(|e| e.get("ValidationErrors")?.as_array())
        .flatten()
        .filter_map(|v| text(v, "Message"))
        .collect();
    if found.is_empty() {
        // No validation error listed: the exception's own message, when there is one.
        return text(body, "Message").map(|m| vec![m]);
    }
    Some(found)
}

fn stripe_error(body: &Json) -> Option<Vec<String>> {
    let error = body.get("error")?;
    let message = text(error, "message")?;
    // Stripe's errors carry a `type`; an OData error has `code` and `message` only.
    let kind = text(error, "type")?;
    let code = text(error, "code").unwrap_or(kind);
    Some(vec![match text(error, "param") {
        Some(param) => format!("{message} ({code}, parameter `{param}`)"),
        None => format!("{message} ({code})"),
    }])
}

fn odata_error(body: &Json) -> Option<Vec<String>> {
    let message = field(body, "error.message").and_then(scalar_text)?;
    Some(vec![
        match field(body, "error.code").and_then(scalar_text) {
            Some(code) => format!("{message} ({code})"),
            None => message,
        },
    ])
}

fn zuora_reasons(body: &Json) -> Option<Vec<String>> {
    let Some(Json::Array(reasons)) = body.get("reasons") else {
        return None;
    };
    Some(
        reasons
            .iter()
            .filter_map(|r| {
                let message = text(r, "message").or_else(|| item_text(r))?;
                Some(match text(r, "code") {
                    Some(code) => format!("{message} (code {code})"),
                    None => message,
                })
            })
            .collect(),
    )
}

fn errors_member(body: &Json) -> Option<Vec<String>> {
    match body.get("errors")? {
        Json::Array(items) => Some(
            items
                .iter()
                .filter_map(|e| text(e, "message").or_else(|| item_text(e)))
                .collect(),
        ),
        Json::String(one) if !one.is_empty() => Some(vec![one.clone()]),
        _ => None,
    }
}

fn problem_details(body: &Json) -> Option<Vec<String>> {
    let title = text(body, "title")?;
    let mut found = vec![match text(body, "detail").filter(|d| *d != title) {
        Some(detail) => format!("{title}: {detail}"),
        None => title,
    }];
    // RFC 9457's own example of an extension: `errors` of `{detail, pointer}`.
    if let Some(Json::Array(errors)) = body.get("errors") {
        found.extend(errors.iter().filter_map(|e| {
            let detail = text(e, "detail")?;
            Some(match text(e, "pointer") {
                Some(at) => format!("{detail} (at {at})"),
                None => detail,
            })
        }));
    }
    Some(found)
}

fn top_level_message(body: &Json) -> Option<Vec<String>> {
    ["detail", "message", "Message", "error_description", "error"]
        .iter()
        .find_map(|k| text(body, k))
        .map(|m| vec![m])
}

/// An item of an error list as a message: a string as it is, anything else as JSON.
fn item_text(v: &Json) -> Option<String> {
    match v {
        Json::Null => None,
        Json::String(s) if s.is_empty() => None,
        Json::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(body: &Json) -> Vec<String> {
        messages(body, None)
    }

    /// Every row of the table, on a body of its shape as its vendor writes it, and the row
    /// that reads it.
    #[test]
    fn each_shape_is_read_by_its_row() {
        let cases: [(Json, usize, &[&str]); 12] = [
            (
                json!({"Fault": {"Error": [{"Message": "Duplicate Name Exists Error", "Detail": "The name supplied already exists. : Another customer is already using this name.", "code": "6240"}], "type": "ValidationFault"}}),
                0,
                &[
                    "Duplicate Name Exists Error: The name supplied already exists. : Another customer is already using this name. (code 6240)",
                ],
            ),
            (
                json!({"ErrorNumber": 10, "Type": "ValidationException", "Message": "A validation exception occurred", "Elements": [{"ContactID": "00000000-0000-0000-0000-000000000000", "ValidationErrors": [{"Message": "The contact name Acme is already assigned to another contact."}, {"Message": "Email address is invalid."}]}]}),
                1,
                &[
                    "The contact name Acme is already assigned to another contact.",
                    "Email address is invalid.",
                ],
            ),
            (
                json!({"ErrorNumber": 10, "Type": "ValidationException", "Message": "A validation exception occurred", "Elements": [{"ValidationErrors": []}]}),
                1,
                &["A validation exception occurred"],
            ),
            (
                json!({"error": {"type": "invalid_request_error", "code": "email_invalid", "message": "Invalid email address: acme", "param": "email"}}),
                2,
                &["Invalid email address: acme (email_invalid, parameter `email`)"],
            ),
            (
                json!({"error": {"type": "api_error", "message": "Something went wrong"}}),
                2,
                &["Something went wrong (api_error)"],
            ),
            (
                json!({"error": {"code": "Internal_EntityWithSameKeyExists", "message": "The record already exists. CorrelationId: 1."}}),
                3,
                &[
                    "The record already exists. CorrelationId: 1. (Internal_EntityWithSameKeyExists)",
                ],
            ),
            (
                json!({"success": false, "processId": "6D4A4B2C", "reasons": [{"code": 53_100_020, "message": "Account number exists"}, {"code": 53_100_320, "message": "Invalid currency"}]}),
                4,
                &[
                    "Account number exists (code 53100020)",
                    "Invalid currency (code 53100320)",
                ],
            ),
            (
                json!({"id": 0, "success": false, "errors": ["Duplicate name", "", null, 3, {"message": "Name taken", "code": 4}, {"field": "x"}]}),
                5,
                &["Duplicate name", "3", "Name taken", "{\"field\":\"x\"}"],
            ),
            (
                json!({"success": false, "errors": "Duplicate name"}),
                5,
                &["Duplicate name"],
            ),
            (
                json!({"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.", "detail": "Your current balance is 30, but that costs 50.", "status": 403}),
                6,
                &["You do not have enough credit.: Your current balance is 30, but that costs 50."],
            ),
            (
                json!({"message": "Rate limit exceeded"}),
                7,
                &["Rate limit exceeded"],
            ),
            (
                json!({"error": "invalid_grant", "error_description": "Token expired"}),
                7,
                &["Token expired"],
            ),
        ];
        for (body, row, expected) in cases {
            assert_eq!(read(&body), expected, "{body}");
            let first = ERROR_SHAPES
                .iter()
                .position(|shape| (shape.read)(&body).is_some());
            assert_eq!(
                first,
                Some(row),
                "{body} is read by `{}`",
                ERROR_SHAPES[row].name
            );
        }
        assert!(read(&json!({"id": 7})).is_empty());
        assert!(read(&json!([1, 2])).is_empty());
        assert!(read(&Json::Null).is_empty());
    }

    #[test]
    fn a_problem_document_is_read_as_one_whatever_its_parameters() {
        let body = json!({"type": "about:blank", "title": "Your request is not valid.", "errors": [{"detail": "must be a positive integer", "pointer": "#/age"}, {"detail": "must be 'green', 'red' or 'blue'", "pointer": "#/profile/color"}]});
        let expected = [
            "Your request is not valid.",
            "must be a positive integer (at #/age)",
            "must be 'green', 'red' or 'blue' (at #/profile/color)",
        ];
        for media in [
            "application/problem+json",
            "Application/Problem+JSON; charset=utf-8",
        ] {
            assert_eq!(messages(&body, Some(media)), expected, "{media}");
        }
        // Without its media type, its `errors` member is the spec's.
        assert_eq!(
            messages(&body, Some("application/json; charset=utf-8")),
            [
                "{\"detail\":\"must be a positive integer\",\"pointer\":\"#/age\"}",
                "{\"detail\":\"must be 'green', 'red' or 'blue'\",\"pointer\":\"#/profile/color\"}"
            ]
        );
    }

    #[test]
    fn a_plain_text_answer_is_its_own_reason() {
        assert_eq!(
            text_message(b" Invalid API key\n", Some("text/plain; charset=utf-8")),
            Some("Invalid API key".to_owned())
        );
        assert_eq!(text_message(b"<p>down</p>", Some("text/html")), None);
        assert_eq!(text_message(b"  ", Some("text/plain")), None);
        assert_eq!(text_message(b"down", None), None);
    }
}
