//! The entry a careful author writes for a vendor's description: the POST to create through,
//! the `createRequest` filling the request schema's required properties, the `createResponse`
//! reading the id the answer gives, and the overlay's fixes of what the description leaves to
//! the caller (`setup`).

use serde_json::{Map, Value as Json, json};

use crate::schema_values::Resolver;
use crate::setup;

/// What the overlay's entry is made of.
pub struct Generated {
    /// The operation reference, `<path>/post`, the document's path placeholders filled.
    pub reference: String,
    /// The path template of the operation, as the document writes it.
    pub path: String,
    pub request: Json,
    /// The `createResponse`; `None` when the operation's answer declares no field that
    /// identifies the new record.
    pub response: Option<Json>,
    /// Overlay actions setting what the author of a definition sets over a vendor's
    /// description: the server the pushes go to, the credentials the operation takes.
    pub fixes: Vec<Json>,
}

/// The entry for a POST operation of `document` whose request body is JSON or a form: one
/// whose answer identifies the new record when there is one (a careful author creates
/// through an operation that says what it created), those with fewer path parameters first;
/// `None` when the document has none.
pub fn generate(document: &Json) -> Option<Generated> {
    let resolver = Resolver { document };
    let paths = document.get("paths")?.as_object()?;
    let mut candidates = Vec::new();
    for (path, item) in paths {
        let item = resolver.follow(item);
        let Some(operation) = item.get("post") else {
            continue;
        };
        let Some(body) = operation.get("requestBody").map(|b| resolver.follow(b)) else {
            continue;
        };
        let Some(content) = body.get("content").and_then(Json::as_object) else {
            continue;
        };
        let media = content
            .iter()
            .find(|(m, _)| is_json(m))
            .or_else(|| content.iter().find(|(m, _)| is_form(m)));
        let Some((_, media)) = media else { continue };
        let id = id_read(&resolver, operation);
        let tier = id.as_ref().map_or(ID_TIERS, |(tier, _)| *tier);
        let rank = (tier, path.matches('{').count());
        candidates.push((rank, path, item, operation, media, id));
    }
    candidates.sort_by_key(|c| c.0);
    let (_, path, item, operation, media, id) = candidates.into_iter().next()?;
    let reference = format!("{}/post", fill_path(&resolver, path, item, operation));
    let request = match media.get("schema") {
        Some(schema) => resolver.example(schema, 0, &mut Vec::new()),
        None => json!({}),
    };
    // A template written as a string is JSON text (a string schema's body is `"x"`).
    let request = match request {
        Json::String(_) => Json::String(request.to_string()),
        other => other,
    };
    let mut fixes = setup::servers(document);
    fixes.extend(setup::security(document, path, item, operation));
    let follow = |node: &Json| resolver.follow(node).clone();
    let value_of = |schema: &Json| resolver.example(schema, 0, &mut Vec::new());
    fixes.extend(setup::parameters(
        document, &follow, item, operation, &value_of,
    ));
    Some(Generated {
        reference,
        path: path.clone(),
        request,
        response: id.map(|(_, read)| json!({ "id": read })),
        fixes,
    })
}

fn is_json(media: &str) -> bool {
    let essence = media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

fn is_form(media: &str) -> bool {
    media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .eq_ignore_ascii_case("application/x-www-form-urlencoded")
}

/// `path` with each `{placeholder}` replaced by a constant of its parameter's type: a literal
/// the reference's path matches the template with.
fn fill_path(resolver: &Resolver, path: &str, item: &Json, operation: &Json) -> String {
    let parameters: Vec<&Json> = [item, operation]
        .iter()
        .filter_map(|o| o.get("parameters").and_then(Json::as_array))
        .flatten()
        .map(|p| resolver.follow(p))
        .collect();
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        out.push_str(&rest[..open]);
        let name = &rest[open + 1..close];
        let schema = parameters
            .iter()
            .find(|p| {
                p.get("name").and_then(Json::as_str) == Some(name)
                    && p.get("in").and_then(Json::as_str) == Some("path")
            })
            .and_then(|p| p.get("schema"));
        let value = schema.map(|s| resolver.example(s, 0, &mut Vec::new()));
        let text = match value {
            Some(Json::String(s)) => s,
            Some(Json::Number(n)) => n.to_string(),
            Some(Json::Bool(b)) => b.to_string(),
            _ => "1".to_owned(),
        };
        let safe = !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c))
            && text != "."
            && text != "..";
        out.push_str(if safe { &text } else { "1" });
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// How an author reads the new record's id from the operation's success answer (its first
/// 2xx with a JSON body): `#valueof(...)` of the answer itself when it is a scalar, else of
/// the first field, at the top or one object down, whose name says it identifies the record
/// (`id`, `uuid`, a name ending in `id`, then `name`, `key`, `number`, `reference`, ...) and
/// whose value is a string or a number. `None` when it declares none.
fn id_read(resolver: &Resolver, operation: &Json) -> Option<(usize, String)> {
    let responses = operation.get("responses")?.as_object()?;
    let (_, response) = responses
        .iter()
        .filter(|(code, _)| code.starts_with('2'))
        .min_by_key(|(code, _)| (*code).clone())?;
    let response = resolver.follow(response);
    let content = response.get("content")?.as_object()?;
    let (_, media) = content.iter().find(|(m, _)| is_json(m))?;
    let schema = media.get("schema")?;
    // Where the description shows the answer, the id is read from a field the example has:
    // a dry-run answers with the example, and so, the author trusts, does the system.
    let example = answer_example(resolver, media, schema);
    let shown = |path: &str| {
        example.as_ref().is_none_or(|example| {
            let value = path
                .split('.')
                .filter(|step| !step.is_empty())
                .try_fold(example, |node, step| node.get(step));
            value.is_some_and(|v| v.as_str().is_some_and(|t| !t.is_empty()) || v.is_number())
        })
    };
    let scalar = |schema: &Json| {
        !matches!(
            resolver.kind(schema, 0).as_deref(),
            Some("object" | "array" | "boolean" | "null")
        ) && resolver.properties(schema, 0, &mut Vec::new()).is_empty()
    };
    if resolver.kind(schema, 0).is_some() && scalar(schema) && shown("") {
        return Some((0, "#valueof($)".to_owned()));
    }
    let properties = resolver.properties(schema, 0, &mut Vec::new());
    let nested: Vec<(String, Map<String, Json>)> = properties
        .iter()
        .filter(|(name, _)| {
            plain_name(name) && !ENVELOPES.contains(&name.to_ascii_lowercase().as_str())
        })
        .map(|(name, schema)| {
            (
                name.clone(),
                resolver.properties(schema, 0, &mut Vec::new()),
            )
        })
        .collect();
    for tier in 0..ID_TIERS {
        let found = |properties: &Map<String, Json>, prefix: &str| {
            properties
                .iter()
                .find(|(name, schema)| {
                    plain_name(name)
                        && id_tier(name) == Some(tier)
                        && scalar(schema)
                        && shown(&format!("{prefix}{name}"))
                })
                .map(|(name, _)| name.clone())
        };
        if let Some(name) = found(&properties, "") {
            return Some((tier, format!("#valueof($.{name})")));
        }
        for (outer, inner) in &nested {
            if let Some(name) = found(inner, &format!("{outer}.")) {
                return Some((tier, format!("#valueof($.{outer}.{name})")));
            }
        }
    }
    None
}

/// The answer the description shows for a media type, as a dry-run answers: its `example`,
/// its first `examples` value, or its schema's `example` or `default`; an example written as
/// JSON text read as that JSON.
fn answer_example(resolver: &Resolver, media: &Json, schema: &Json) -> Option<Json> {
    let example = media
        .get("example")
        .or_else(|| {
            let examples = media.get("examples")?.as_object()?;
            let (_, first) = examples.iter().next()?;
            resolver.follow(first).get("value")
        })
        .or_else(|| {
            let schema = resolver.follow(schema);
            schema.get("example").or_else(|| schema.get("default"))
        })?;
    match example {
        Json::String(text) => Some(serde_json::from_str(text).unwrap_or_else(|_| example.clone())),
        _ => Some(example.clone()),
    }
}

/// Members of an answer that hold no record: its failure report, paging, links.
const ENVELOPES: [&str; 8] = [
    "error",
    "errors",
    "meta",
    "links",
    "_links",
    "paging",
    "pagination",
    "warnings",
];

/// How many kinds of identifying names [`id_tier`] tells apart.
const ID_TIERS: usize = 4;

/// How surely a field's name says it identifies the record, surest first: `id` itself, a
/// name ending in `id`, a name or key, a number or reference.
fn id_tier(name: &str) -> Option<usize> {
    let lower = name.to_ascii_lowercase();
    let lower = lower.trim_start_matches('_');
    // A request's outcome, not the record: `resultCode`, `statusCode`, `errorCode`.
    let outcomes = ["result", "status", "error", "response", "return"];
    if outcomes.iter().any(|o| lower.starts_with(o)) {
        return None;
    }
    if matches!(lower, "id" | "uuid" | "uid" | "guid") {
        return Some(0);
    }
    if lower.ends_with("id") && !lower.ends_with("valid") && !lower.ends_with("paid") {
        return Some(1);
    }
    if matches!(lower, "name" | "key" | "slug" | "handle") {
        return Some(2);
    }
    let references = [
        "number",
        "reference",
        "ref",
        "code",
        "href",
        "self",
        "uri",
        "url",
        "location",
    ];
    references
        .iter()
        .any(|end| {
            lower == *end
                || lower.ends_with(&format!("_{end}"))
                || name.ends_with(&capitalised(end))
        })
        .then_some(3)
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// Whether a member name can be written after a `.` in a JSONPath.
fn plain_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
