//! Plausible responses for dry-runs, derived once per operation from the definition: the
//! success response's example if it has one, otherwise a value built from its schema.

use openapiv3::{
    MediaType, OpenAPI, Operation, ReferenceOr, Response, Schema, SchemaKind, StatusCode, Type,
};
use serde_json::{Map, Value as Json, json};

use crate::transport::SampleResponse;

/// Deeper schemas are cut off: a sample is for reading, and recursive schemas must end.
const MAX_DEPTH: usize = 8;

/// The sample success response of `operation`.
pub(crate) fn sample(api: &OpenAPI, operation: &Operation) -> SampleResponse {
    let success = operation.responses.responses.iter().find_map(|(code, r)| {
        let status = match code {
            StatusCode::Code(c) if (200..300).contains(c) => *c,
            StatusCode::Range(2) => 200,
            _ => return None,
        };
        Some((status, r))
    });
    let Some((status, response)) = success else {
        return SampleResponse {
            status: 200,
            body: Json::Null,
            source: "none",
        };
    };
    let Some(response) = resolve_response(api, response) else {
        return SampleResponse {
            status,
            body: Json::Null,
            source: "none",
        };
    };
    let media = response
        .content
        .iter()
        .find(|(k, _)| k.contains("json"))
        .map(|(_, m)| m);
    let Some(media) = media else {
        return SampleResponse {
            status,
            body: Json::Null,
            source: "none",
        };
    };
    if let Some(example) = media_example(media) {
        return SampleResponse {
            status,
            body: example,
            source: "example",
        };
    }
    let body = media
        .schema
        .as_ref()
        .map_or(Json::Null, |s| from_schema_ref(api, s, None, 0));
    SampleResponse {
        status,
        body,
        source: "schema",
    }
}

fn media_example(media: &MediaType) -> Option<Json> {
    if let Some(e) = &media.example {
        return Some(e.clone());
    }
    media.examples.values().find_map(|e| match e {
        ReferenceOr::Item(e) => e.value.clone(),
        ReferenceOr::Reference { .. } => None,
    })
}

fn resolve_response<'a>(api: &'a OpenAPI, r: &'a ReferenceOr<Response>) -> Option<&'a Response> {
    match r {
        ReferenceOr::Item(r) => Some(r),
        ReferenceOr::Reference { reference } => {
            let name = reference.strip_prefix("#/components/responses/")?;
            match api.components.as_ref()?.responses.get(name)? {
                ReferenceOr::Item(r) => Some(r),
                ReferenceOr::Reference { .. } => None,
            }
        }
    }
}

fn resolve_schema<'a>(api: &'a OpenAPI, s: &'a ReferenceOr<Schema>) -> Option<&'a Schema> {
    let mut current = s;
    // A chain of references ends, or is cut off like a deep schema.
    for _ in 0..MAX_DEPTH {
        match current {
            ReferenceOr::Item(s) => return Some(s),
            ReferenceOr::Reference { reference } => {
                let name = reference.strip_prefix("#/components/schemas/")?;
                current = api.components.as_ref()?.schemas.get(name)?;
            }
        }
    }
    None
}

fn from_schema_ref(
    api: &OpenAPI,
    s: &ReferenceOr<Schema>,
    name: Option<&str>,
    depth: usize,
) -> Json {
    match resolve_schema(api, s) {
        Some(schema) => from_schema(api, schema, name, depth),
        None => Json::Null,
    }
}

fn boxed_ref(s: &ReferenceOr<Box<Schema>>) -> ReferenceOr<Schema> {
    match s {
        ReferenceOr::Item(b) => ReferenceOr::Item((**b).clone()),
        ReferenceOr::Reference { reference } => ReferenceOr::Reference {
            reference: reference.clone(),
        },
    }
}

fn from_schema(api: &OpenAPI, schema: &Schema, name: Option<&str>, depth: usize) -> Json {
    if let Some(example) = &schema.schema_data.example {
        return example.clone();
    }
    if let Some(default) = &schema.schema_data.default {
        return default.clone();
    }
    if depth >= MAX_DEPTH {
        return Json::Null;
    }
    match &schema.schema_kind {
        SchemaKind::Type(Type::Object(obj)) => {
            let mut out = Map::new();
            for (key, prop) in &obj.properties {
                out.insert(
                    key.clone(),
                    from_schema_ref(api, &boxed_ref(prop), Some(key), depth + 1),
                );
            }
            Json::Object(out)
        }
        SchemaKind::Type(Type::Array(arr)) => match &arr.items {
            Some(items) => Json::Array(vec![from_schema_ref(
                api,
                &boxed_ref(items),
                name,
                depth + 1,
            )]),
            None => json!([]),
        },
        SchemaKind::Type(Type::String(s)) => {
            if let Some(Some(first)) = s.enumeration.first() {
                return Json::String(first.clone());
            }
            let format = match &s.format {
                openapiv3::VariantOrUnknownOrEmpty::Item(f) => format!("{f:?}"),
                openapiv3::VariantOrUnknownOrEmpty::Unknown(f) => f.clone(),
                openapiv3::VariantOrUnknownOrEmpty::Empty => String::new(),
            };
            Json::String(string_sample(name, &format.to_ascii_lowercase()))
        }
        SchemaKind::Type(Type::Integer(_)) => json!(1),
        SchemaKind::Type(Type::Number(_)) => json!(1.0),
        SchemaKind::Type(Type::Boolean(_)) => json!(true),
        SchemaKind::AllOf { all_of } => {
            let mut out = Map::new();
            for part in all_of {
                if let Json::Object(m) = from_schema_ref(api, part, name, depth + 1) {
                    out.extend(m);
                }
            }
            Json::Object(out)
        }
        SchemaKind::OneOf { one_of: list } | SchemaKind::AnyOf { any_of: list } => list
            .first()
            .map_or(Json::Null, |s| from_schema_ref(api, s, name, depth + 1)),
        _ => Json::Null,
    }
}

/// Strings that read like what they name: ids are digit strings (QuickBooks ids are, and the
/// engine converts them), concurrency tokens look like versions, dates like dates.
fn string_sample(name: Option<&str>, format: &str) -> String {
    if format.contains("datetime") || format.contains("date-time") {
        return "2024-01-01T00:00:00Z".into();
    }
    if format == "date" {
        return "2024-01-01".into();
    }
    match name {
        Some(n) if n == "id" || n == "Id" || n.ends_with("Id") || n.ends_with("ID") => "1".into(),
        Some(n) if n.eq_ignore_ascii_case("synctoken") => "0".into(),
        Some(n) if n.to_ascii_lowercase().contains("etag") => "W/\"1\"".into(),
        Some(n) => format!("{n} (synthesized)"),
        None => "synthesized".into(),
    }
}
