//! Reading a named field from an external system's JSON answer (`Customer.SyncToken`,
//! `@odata.etag`) as the engine reads action values, tokens and error reports, and the stand-in
//! a dry-run uses for a value its synthesised answer lacks: the linter renders templates with
//! the same values.

use serde_json::Value as Json;

/// The value at `name` in `value`. A dot separates nested members, but a member whose own name
/// contains dots wins: Business Central's `@odata.etag` is one member, not `@odata` then `etag`.
/// At each level the longest member name that matches a prefix of the rest is taken, so
/// `Customer.SyncToken` reads `{"Customer": {"SyncToken": "0"}}`.
#[must_use]
pub fn field<'a>(value: &'a Json, name: &str) -> Option<&'a Json> {
    let obj = value.as_object()?;
    if let Some(v) = obj.get(name) {
        return Some(v);
    }
    // Try every dot as the split point, longest head first.
    let dots: Vec<usize> = name.match_indices('.').map(|(i, _)| i).collect();
    dots.into_iter().rev().find_map(|i| {
        let (head, rest) = (&name[..i], &name[i + 1..]);
        obj.get(head).and_then(|inner| field(inner, rest))
    })
}

/// The text of a scalar read from a response: strings as they are, numbers and booleans in
/// JSON form. Objects, arrays and null give nothing: they cannot go in a header or token.
#[must_use]
pub fn scalar_text(value: &Json) -> Option<String> {
    match value {
        Json::String(s) => Some(s.clone()),
        Json::Number(n) => Some(n.to_string()),
        Json::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The JSON object or array a string holds, when it holds one: descriptions that write their
/// examples as JSON text (`"{\"Id\": 1}"`). Read the same way by the dry-run's sample answers
/// and by the linter's check of examples.
#[must_use]
pub fn json_text(text: &str) -> Option<Json> {
    if !matches!(text.trim_start().chars().next(), Some('{' | '[')) {
        return None;
    }
    serde_json::from_str::<Json>(text)
        .ok()
        .filter(|value| value.is_object() || value.is_array())
}

/// What a dry-run puts where an action reads `source` from a synthesised answer that lacks it.
#[must_use]
pub fn stand_in(source: &str, action: &str) -> String {
    format!("<{source} from {action}>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_and_dotted_names() {
        let v = json!({"Customer": {"SyncToken": "3"}, "@odata.etag": "W/\"x\"", "a": {"b.c": 1}});
        assert_eq!(field(&v, "Customer.SyncToken"), Some(&json!("3")));
        assert_eq!(field(&v, "@odata.etag"), Some(&json!("W/\"x\"")));
        assert_eq!(field(&v, "a.b.c"), Some(&json!(1)));
        assert_eq!(field(&v, "Customer.Missing"), None);
        assert_eq!(field(&json!([1]), "x"), None);
    }
}
