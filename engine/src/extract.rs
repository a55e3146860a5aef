//! Reading the external system's answer: the response template's `{id, errors, success}`
//! (spec 2.6 rule 7, 7.1), the id's conversion, and error messages of failed answers.

use std::borrow::Cow;
use std::sync::OnceLock;

use bytes::Bytes;
use serde_json::Value as Json;
use syncdef_transform::{Template, Value};

use crate::error::{EngineError, ErrorClass};
use crate::error_shapes;
use crate::projection::Projection;
use crate::received::Received;

/// What the response template extracted.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Extracted {
    /// The external id, as a string.
    pub id: Option<String>,
    /// `errors`.
    pub errors: Vec<String>,
    /// `success` (true when the template does not say).
    pub success: bool,
    /// The template's whole output, for the audit trail.
    pub output: Option<Value>,
}

/// A response body, parsed as each reader needs it: straight into the template language's
/// [`Value`] for the response template, into [`Json`] (once, kept) for the audit trail and for
/// reading named fields, error messages and conflict codes. A create's answer is read by its
/// template only, so its body is parsed once, into the form the template reads, during the push.
///
/// Both parses use the same JSON reader, so a body is JSON for one exactly when it is for the
/// other; an empty body is `null`.
#[derive(Debug)]
pub(crate) struct ResponseBody {
    bytes: Bytes,
    json: OnceLock<Result<Json, String>>,
}

impl ResponseBody {
    pub fn new(bytes: impl Into<Bytes>) -> Self {
        ResponseBody {
            bytes: bytes.into(),
            json: OnceLock::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.bytes.iter().all(u8::is_ascii_whitespace)
    }

    /// The body as JSON, or why it is not JSON.
    pub fn json(&self) -> Result<&Json, &str> {
        self.json
            .get_or_init(|| {
                if self.is_empty() {
                    return Ok(Json::Null);
                }
                serde_json::from_slice(&self.bytes).map_err(|e| not_json(&e))
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// The body as a template reads it, or why it is not JSON.
    pub fn value(&self) -> Result<Value, String> {
        if let Some(parsed) = self.json.get() {
            return parsed.as_ref().map(Value::from).map_err(Clone::clone);
        }
        if self.is_empty() {
            return Ok(Value::Null);
        }
        Value::from_json_slice(&self.bytes).map_err(|e| not_json(&e))
    }

    /// The body as far as a template that reads only `projection` needs it (see
    /// [`Projection`]), or why it is not JSON; the whole body without a projection.
    pub fn value_for(&self, projection: Option<&Projection>) -> Result<Value, String> {
        match projection {
            Some(p) if self.json.get().is_none() && !self.is_empty() => {
                p.parse(&self.bytes).map_err(|e| not_json(&e))
            }
            _ => self.value(),
        }
    }

    /// The bytes as received.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

fn not_json(e: &serde_json::Error) -> String {
    format!("the response body is not JSON: {e}")
}

/// Applies `template` (if any) to the response body.
///
/// - `success` must be a boolean, or the string `"true"`/`"false"`; missing or null means true.
/// - `errors` is an array; strings are kept, other items written as JSON. A single string is one
///   error.
/// - `id` may be a string or a number; null or an empty string is no id.
pub(crate) fn extract(template: Option<&Template>, body: &Value) -> Result<Extracted, EngineError> {
    let Some(template) = template else {
        return Ok(Extracted {
            id: None,
            errors: Vec::new(),
            success: true,
            output: None,
        });
    };
    let out = template
        .apply(body)
        .map_err(|e| EngineError::configuration(format!("the response template failed: {e}")))?;
    // The three members are read from the output as it is; a member of a rarer kind is
    // converted to JSON, as the whole output would be, to be judged and shown.
    let member = |name: &str| out.get(name);
    let success = match member("success") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) if s.eq_ignore_ascii_case("true") => true,
        Some(Value::String(s)) if s.eq_ignore_ascii_case("false") => false,
        Some(other) => {
            return Err(EngineError::configuration(format!(
                "the response template gives `success: {}`; it must be true or false",
                Json::from(other)
            )));
        }
    };
    let errors = match member("errors") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => shown_errors(items.iter().filter_map(error_text)),
        Some(one) => shown_errors(error_text(one)),
    };
    let id = match member("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.is_empty() => None,
        Some(Value::String(s)) => Some(s.to_string()),
        Some(Value::Int(i)) => Some(i.to_string()),
        Some(v) => {
            let v = Json::from(v);
            Some(id_text(&v).ok_or_else(|| {
                EngineError::configuration(format!(
                    "the response template gives `id: {v}`; it must be a string or a number"
                ))
            })?)
        }
    };
    if let Some(id) = &id
        && matches!(syncdef_secrets::redact(id), Cow::Owned(_))
    {
        // Stored and sent back in URLs, an id is never masked: one holding a credential is
        // refused rather than kept.
        return Err(EngineError::new(
            ErrorClass::UnknownOutcome,
            "the response template extracted an id that contains a credential this process holds (the external system echoed it); the id is not stored: check the record in the external system and the template's `id`",
        ));
    }
    Ok(Extracted {
        id,
        errors,
        success,
        output: Some(out),
    })
}

/// The most error messages kept of one answer; the rest are counted in a last item.
const MAX_ERRORS: usize = 100;

/// The most bytes of one error message, its note included: a quarter of the bound of the
/// push's error message, which quotes them, so that the first ones keep their note saying how
/// large they were.
const MAX_ERROR_ITEM: usize = syncdef_secrets::MAX_SHOWN / 4;

/// Error messages as they may be shown and stored: each one's secrets redacted and its length
/// bounded to [`MAX_ERROR_ITEM`] ([`syncdef_secrets::shown_within`]), and at most
/// [`MAX_ERRORS`] of them. Every list of the external system's messages a push reports passes
/// through here.
fn shown_errors(messages: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut shown = Vec::new();
    let mut more = 0usize;
    for m in messages {
        if shown.len() == MAX_ERRORS {
            more += 1;
            continue;
        }
        shown.push(match syncdef_secrets::shown_within(&m, MAX_ERROR_ITEM) {
            Cow::Borrowed(_) => m,
            Cow::Owned(s) => s,
        });
    }
    if more > 0 {
        shown.push(format!("… and {more} more error messages not shown"));
    }
    shown
}

/// [`json_error_text`] of a template output's item, a string read without a JSON copy.
fn error_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => (!s.is_empty()).then(|| s.to_string()),
        other => json_error_text(&Json::from(other)),
    }
}

fn json_error_text(v: &Json) -> Option<String> {
    match v {
        Json::Null => None,
        Json::String(s) if s.is_empty() => None,
        Json::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

fn id_text(v: &Json) -> Option<String> {
    match v {
        Json::String(s) => Some(s.clone()),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Some(i.to_string()),
            // A whole number written as a double (`67.0`) is the id 67.
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(format!("{f:.0}")),
            _ => Some(n.to_string()),
        },
        _ => None,
    }
}

/// The id as an `int64` when it is one: optional sign and ASCII digits only (QuickBooks' `"67"`).
/// Ids like `"INV-1"` or GUIDs stay strings only.
pub(crate) fn id_number(id: &str) -> Option<i64> {
    let digits = id.strip_prefix('-').unwrap_or(id);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    id.parse().ok()
}

/// Whether a 2xx answer's body says the step failed (spec 7.1): its `success` member is false
/// (or the string `"false"`), whatever the response template makes of it.
pub(crate) fn says_failed(body: &Json) -> bool {
    match body.get("success") {
        Some(Json::Bool(b)) => !b,
        Some(Json::String(s)) => s.eq_ignore_ascii_case("false"),
        _ => false,
    }
}

/// The external system's messages in a failed answer's JSON `body`, in the shapes of
/// [`ERROR_SHAPES`](crate::error_shapes::ERROR_SHAPES) (QuickBooks, Xero, Stripe, Business
/// Central and OData, Zuora, the spec's `errors`, RFC 9457 problem details, a top-level
/// message). Unknown shapes give nothing; the body is in the audit trail. Each message is
/// redacted and bounded ([`shown_errors`]).
pub(crate) fn error_messages(body: &Json) -> Vec<String> {
    shown_errors(error_shapes::messages(body, None))
}

/// The external system's messages in a failed `answer`: its JSON body read as its
/// `Content-Type` says (a problem document as one; any JSON type, whatever its parameters,
/// through the table of shapes), or the text of a `text/plain` body. Redacted and bounded.
pub(crate) fn answer_errors(answer: &Received) -> Vec<String> {
    let media = answer.response.header("content-type");
    match answer.body.json() {
        Ok(body) => shown_errors(error_shapes::messages(body, media)),
        Err(_) => shown_errors(error_shapes::text_message(answer.body.bytes(), media)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use syncdef_transform::Settings;

    #[test]
    fn ids() {
        assert_eq!(id_number("67"), Some(67));
        assert_eq!(id_number("-3"), Some(-3));
        assert_eq!(id_number("INV-1"), None);
        assert_eq!(id_number(""), None);
        assert_eq!(id_number("99999999999999999999"), None);
    }

    #[test]
    fn template_result() {
        let t = Template::compile_str(
            r##"{"id": "#valueof($.Customer.Id)", "success": true, "errors": []}"##,
            &Settings::default(),
        )
        .unwrap();
        let body = Value::from(json!({"Customer": {"Id": "67"}}));
        let e = extract(Some(&t), &body).unwrap();
        assert_eq!(e.id.as_deref(), Some("67"));
        assert!(e.success);
        let t = Template::compile(
            json!({"id": 7.0, "success": "false", "errors": ["no"]}),
            &Settings::default(),
        )
        .unwrap();
        let e = extract(Some(&t), &Value::Null).unwrap();
        assert_eq!(
            (e.id.as_deref(), e.success, e.errors),
            (Some("7"), false, vec!["no".to_owned()])
        );
    }

    /// Every rule of the doc comment of `extract`, one output each.
    #[test]
    fn template_results_follow_the_documented_rules() {
        let run = |output: serde_json::Value| {
            let t = Template::compile(output, &Settings::default()).unwrap();
            extract(Some(&t), &Value::Null)
                .map(|e| (e.id, e.success, e.errors))
                .map_err(|e| e.message)
        };
        let some = |s: &str| Some(s.to_owned());
        assert_eq!(run(json!({})), Ok((None, true, vec![])));
        assert_eq!(
            run(json!({"success": null, "id": ""})),
            Ok((None, true, vec![]))
        );
        assert_eq!(
            run(json!({"success": "TRUE", "id": 67})),
            Ok((some("67"), true, vec![]))
        );
        assert_eq!(
            run(json!({"success": false, "id": 67.5})),
            Ok((some("67.5"), false, vec![]))
        );
        assert_eq!(run(json!({"id": -2.0})), Ok((some("-2"), true, vec![])));
        assert_eq!(
            run(json!({"errors": "one"})),
            Ok((None, true, vec!["one".to_owned()]))
        );
        assert_eq!(
            run(json!({"errors": ["a", "", null, 3, {"code": 5}, [true]]})),
            Ok((
                None,
                true,
                ["a", "3", "{\"code\":5}", "[true]"]
                    .map(String::from)
                    .to_vec()
            ))
        );
        assert_eq!(
            run(json!({"success": "yes"})),
            Err(
                "the response template gives `success: \"yes\"`; it must be true or false"
                    .to_owned()
            )
        );
        assert_eq!(
            run(json!({"success": 1})),
            Err("the response template gives `success: 1`; it must be true or false".to_owned())
        );
        assert_eq!(
            run(json!({"id": true})),
            Err(
                "the response template gives `id: true`; it must be a string or a number"
                    .to_owned()
            )
        );
        assert_eq!(
            run(json!({"id": {"v": 1}})),
            Err(
                "the response template gives `id: {\"v\":1}`; it must be a string or a number"
                    .to_owned()
            )
        );
    }

    #[test]
    fn response_bodies() {
        for text in [
            r#"{"a": [1, 2.5, "x"], "b": null}"#,
            "",
            "  \n",
            "<html>",
            "{\"a\": 1e400}",
        ] {
            let body = ResponseBody::new(text.as_bytes().to_vec());
            let value = body.value();
            // The same answer from both readers, whichever runs first.
            assert_eq!(value.is_ok(), body.json().is_ok(), "{text}");
            assert_eq!(body.value().ok(), value.as_ref().ok().cloned(), "{text}");
            if let (Ok(v), Ok(j)) = (&value, body.json()) {
                assert_eq!(*v, Value::from(j), "{text}");
            }
        }
        assert!(ResponseBody::new(Vec::new()).json().unwrap().is_null());
        assert!(ResponseBody::new(b" ".to_vec()).value().unwrap().is_null());
        let e = ResponseBody::new(b"<html>".to_vec()).value().unwrap_err();
        assert!(e.starts_with("the response body is not JSON"), "{e}");
    }

    #[test]
    fn fault_messages() {
        let qb = json!({"Fault": {"Error": [{"Message": "Stale Object Error", "Detail": "You and Bob were working on this at the same time.", "code": "5010"}], "type": "ValidationFault"}});
        assert_eq!(
            error_messages(&qb),
            vec![
                "Stale Object Error: You and Bob were working on this at the same time. (code 5010)"
            ]
        );
        let odata = json!({"error": {"code": "BadRequest_InvalidToken", "message": "Could not validate the client concurrency token"}});
        assert_eq!(
            error_messages(&odata),
            vec!["Could not validate the client concurrency token (BadRequest_InvalidToken)"]
        );
        let bc = json!({"error": {"code": "Internal_EntityWithSameKeyExists", "message": "The record already exists. CorrelationId: 1."}});
        assert_eq!(
            error_messages(&bc),
            vec!["The record already exists. CorrelationId: 1. (Internal_EntityWithSameKeyExists)"]
        );
    }

    #[test]
    fn problem_details() {
        let problem = json!({"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.", "detail": "Your current balance is 30, but that costs 50.", "status": 403});
        assert_eq!(
            error_messages(&problem),
            vec!["You do not have enough credit.: Your current balance is 30, but that costs 50."]
        );
        assert_eq!(
            error_messages(&json!({"title": "Conflict", "status": 409})),
            vec!["Conflict"]
        );
        assert_eq!(
            error_messages(&json!({"detail": "only a detail"})),
            vec!["only a detail"]
        );
    }

    #[test]
    fn messages_are_redacted_and_bounded() {
        let _held = syncdef_secrets::Secret::new("extract-secret-9d1e");
        let body = json!({"errors": ["token extract-secret-9d1e refused", "x".repeat(100_000)]});
        let messages = error_messages(&body);
        assert_eq!(messages[0], "token *** refused");
        assert!(messages[1].len() <= MAX_ERROR_ITEM, "{}", messages[1].len());
        assert!(
            messages[1].ends_with("; 100000 bytes in all]"),
            "{}",
            &messages[1][65_000..]
        );
        let many = json!({"errors": vec!["e"; 250]});
        let messages = error_messages(&many);
        assert_eq!(messages.len(), MAX_ERRORS + 1);
        assert_eq!(
            messages[MAX_ERRORS],
            "… and 150 more error messages not shown"
        );
    }

    #[test]
    fn an_id_holding_a_credential_is_refused() {
        let _held = syncdef_secrets::Secret::new("id-secret-51f0");
        let t = Template::compile(json!({"id": "id-secret-51f0"}), &Settings::default()).unwrap();
        let e = extract(Some(&t), &Value::Null).unwrap_err();
        assert_eq!(e.class, ErrorClass::UnknownOutcome);
        assert!(!e.message.contains("id-secret-51f0"), "{}", e.message);
    }
}
