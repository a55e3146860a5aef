//! The response template of a starting definition (`createResponse`, `updateResponse`): the
//! external id, `success` and `errors` read from where the operation's success answer declares
//! them (spec 2.6 rule 7). An answer without a `success` of its own succeeds when it carries the
//! id, as the catalog's definitions read theirs.

use serde_json::{Map, Value as Json, json};

use super::Left;
use super::merged::Merged;
use crate::openapi::{OpenApi, Operation, Schema, is_json};

/// A response template and what it could not decide.
pub(super) struct ResponseTemplate {
    pub template: Json,
    pub left: Option<Left>,
}

/// A scalar property of the answer, by the JSONPath (without `$.`) that reads it.
struct Found {
    path: String,
    name: String,
}

/// The response template of `operation` of document `api`, written at JSON pointer `at`.
pub(super) fn response_template(
    api: &OpenApi<'_>,
    operation: &Operation<'_>,
    at: &str,
) -> ResponseTemplate {
    let schema = success_schema(api, operation);
    let merged = schema.as_ref().map(Merged::of).unwrap_or_default();
    let scalars = scalars(&merged);
    let id = find(&scalars, is_id).or_else(|| find(&scalars, ends_in_id));
    let mut template = Map::new();
    let mut left = None;
    if let Some(found) = &id {
        template.insert("id".into(), json!(format!("#valueof($.{})", found.path)));
    } else {
        template.insert("id".into(), json!("#valueof($.id)"));
        left = Some(Left {
            pointer: format!("{at}/id"),
            value: json!("#valueof($.id)"),
            note: "the success answer declares no id: write where the new record's id is".into(),
        });
    }
    let declared = |wanted: &str| {
        merged
            .properties
            .iter()
            .find(|(name, _)| *name == wanted)
            .map(|(_, schema)| Merged::of(schema).kind)
    };
    if declared("success") == Some(Some("boolean")) {
        template.insert("success".into(), json!("#valueof($.success)"));
    } else if let Some(found) = &id {
        template.insert(
            "success".into(),
            json!(format!("#exists($.{})", found.path)),
        );
    }
    match declared("errors") {
        Some(Some("array")) => {
            template.insert("errors".into(), json!("#valueof($.errors)"));
        }
        Some(Some("string")) => {
            template.insert("errors".into(), json!(["#valueof($.errors)"]));
        }
        _ => {}
    }
    ResponseTemplate {
        template: Json::Object(template),
        left,
    }
}

/// The JSON schema of the first success answer that has one: of its first JSON media type
/// with a schema (a description may list `application/json` with an example only, and
/// `application/json; charset=utf-8` with the schema).
pub(super) fn success_schema<'d>(
    api: &OpenApi<'d>,
    operation: &Operation<'d>,
) -> Option<Schema<'d>> {
    operation
        .success_responses()
        .into_iter()
        .find_map(|response| {
            let content = response.get("content")?.as_object()?;
            content
                .iter()
                .filter(|media| is_json(media.key.name))
                .find_map(|media| media.value.get("schema"))
        })
        .map(|node| api.schema(node))
}

/// The answer's scalar properties: its own, then those of each object it holds and of the
/// first item of each list of objects it holds.
fn scalars(answer: &Merged<'_>) -> Vec<Found> {
    let mut out = Vec::new();
    let own = |merged: &Merged<'_>, prefix: &str, out: &mut Vec<Found>| {
        for (name, schema) in &merged.properties {
            let kind = Merged::of(schema).kind;
            if matches!(kind, Some("string" | "integer" | "number")) && is_simple(name) {
                out.push(Found {
                    path: format!("{prefix}{name}"),
                    name: (*name).to_owned(),
                });
            }
        }
    };
    own(answer, "", &mut out);
    for (name, schema) in &answer.properties {
        if !is_simple(name) {
            continue;
        }
        let inner = Merged::of(schema);
        match inner.kind {
            Some("object") => own(&inner, &format!("{name}."), &mut out),
            Some("array") => {
                if let Some(items) = inner.items {
                    own(&Merged::of(&items), &format!("{name}[0]."), &mut out);
                }
            }
            _ => {}
        }
    }
    out
}

fn find(scalars: &[Found], test: fn(&str) -> bool) -> Option<&Found> {
    scalars.iter().find(|found| test(&found.name))
}

/// `id`, `Id`, `ID`, `_id`, `uuid`, `guid`, `sid` (Twilio's).
fn is_id(name: &str) -> bool {
    let bare = name.trim_start_matches('_').to_ascii_lowercase();
    matches!(bare.as_str(), "id" | "uuid" | "guid" | "sid")
}

/// A name ending in a separate word that identifies: `ContactID`, `accountId`, `account_id`,
/// an Amazon resource name (`PredictorArn`, `GatewayARN`), a Twilio `account_sid`.
fn ends_in_id(name: &str) -> bool {
    ["Id", "ID", "_id", "Arn", "ARN", "_arn", "Sid", "_sid"]
        .iter()
        .any(|end| name.len() > end.len() && name.ends_with(end))
}

/// A name a JSONPath reads after a dot: letters, digits and `_`, not starting with a digit.
fn is_simple(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::{ends_in_id, is_id};

    #[test]
    fn ids_by_their_names() {
        for id in ["id", "Id", "ID", "_id", "uuid", "sid"] {
            assert!(is_id(id), "{id}");
        }
        for id in [
            "ContactID",
            "accountId",
            "account_id",
            "PredictorArn",
            "GatewayARN",
            "account_sid",
        ] {
            assert!(ends_in_id(id), "{id}");
        }
        for other in ["paid", "valid", "Id", "barn", "consider"] {
            assert!(!ends_in_id(other), "{other}");
        }
    }
}
