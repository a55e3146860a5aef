//! The concurrency token of an update whose operation requires `If-Match`: a
//! `preSynchronizationAction` that reads the record's current tag where the same path's GET
//! answers it (a field named like `ETag`, `@odata.etag`) and sends it in the header, as the
//! catalog's Business Central entry does. The action runs only when the record has an external
//! id, so a create is not held up by it.

use serde_json::{Value as Json, json};

use super::Left;
use super::merged::Merged;
use super::operation::Chosen;
use crate::extension::ParameterPlace;
use crate::node::Node;
use crate::openapi::OpenApi;
use crate::operation_ref::HttpMethod;

/// The header a concurrency token goes in.
pub(super) const HEADER: &str = "If-Match";

/// What an update requiring `If-Match` gets.
pub(super) enum Token {
    /// The action's name and the action.
    Read(&'static str, Json),
    /// Nothing reads it: what to do, at the update's reference.
    Unread(Left),
}

/// The token `update` needs, written into the entry at `at` (its reference's pointer); `None`
/// when its operation does not require `If-Match`.
pub(super) fn if_match(api: &OpenApi<'_>, update: &Chosen<'_>, at: &str) -> Option<Token> {
    let required = update
        .operation
        .sent_parameters(Some(update.path_item))
        .iter()
        .any(|p| {
            p.required && p.place == ParameterPlace::Header && p.place.same_name(p.name, HEADER)
        });
    if !required {
        return None;
    }
    let read = update
        .path_item
        .get(HttpMethod::Get.as_str())
        .and_then(|get| tag_field(api, get));
    let Some(field) = read else {
        return Some(Token::Unread(Left {
            pointer: at.to_owned(),
            value: json!(update.reference),
            note: format!(
                "the update requires `{HEADER}` and no GET of its path answers a tag: add a `preSynchronizationAction` that reads it (`in: Header`)"
            ),
        }));
    };
    let path = match update.reference.rsplit_once('/') {
        Some((path, _)) => format!("{path}/{}", HttpMethod::Get.as_str()),
        None => return None,
    };
    Some(Token::Read(
        "ETag",
        json!({
            "type": "ApiPath",
            "path": path,
            "schema": {"type": "String", "header": HEADER, "headerValue": field},
            "in": "Header",
        }),
    ))
}

/// The top-level field of `get`'s success answer that holds the record's tag.
fn tag_field<'d>(api: &OpenApi<'d>, get: Node<'d>) -> Option<&'d str> {
    let schema = super::response::success_schema(api, &api.operation(get))?;
    let merged = Merged::of(&schema);
    merged
        .properties
        .iter()
        .map(|(name, _)| *name)
        .find(|name| {
            name.to_ascii_lowercase()
                .trim_start_matches(['@', '_'])
                .ends_with("etag")
        })
}
