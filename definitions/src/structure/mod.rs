//! The structure of the OpenAPI part of a definition, checked over the spanned tree: every
//! problem reported, each at its node (a field's key, a value, the object missing a field),
//! with the field meant when a name is a near miss.
//!
//! Why not deserialization: a typed model (`openapiv3`) stops at the first error, and serde
//! reports errors inside untagged enums at the enclosing value; misspelt fields and values
//! outside an enumeration (`in: pth`, `type: boolen`) deserialize without complaint. The table
//! of object types (`table.rs`) is data, in the manner of Redocly's type tree; the walk
//! (`walk.rs`, `schema.rs`) is the same for every type. `openapi` selects the version's rules:
//! 3.0 (a closed set of schema keywords) or 3.1 (`webhooks`, optional `paths`, JSON Schema
//! 2020-12 schemas).

mod schema;
mod table;
mod walk;

use crate::model::{LoadProblem, ProblemKind};
use crate::node::Node;
use walk::{Version, Walk};

/// Every structural problem of the OpenAPI part of `root`; `skip` names the top-level keys
/// that are not OpenAPI's (`syncdef_definitions::model::SYNC_KEYS` for a definition).
#[must_use]
pub fn check(root: &Node, skip: &'static [&'static str]) -> Vec<LoadProblem> {
    let Some(members) = root.as_object() else {
        // The loader reports a document that is not an object.
        return Vec::new();
    };
    let version = match version(root) {
        Ok(version) => version,
        Err(problem) => return vec![problem],
    };
    let mut walk = Walk {
        version,
        skip,
        problems: Vec::new(),
    };
    let mut pointer = String::new();
    let place = members.first().map_or(root.span, |m| m.key.span);
    walk.object(root, &table::ROOT, &mut pointer, place);
    if version == Version::V31
        && !["paths", "components", "webhooks"]
            .iter()
            .any(|k| root.get(k).is_some())
    {
        walk.problems.push(LoadProblem::new(
            ProblemKind::OpenApi,
            place,
            "",
            "an OpenAPI 3.1 document needs at least one of `paths`, `components` and `webhooks`",
        ));
    }
    walk.problems
}

/// The version `openapi` declares: 3.0.x or 3.1.x; anything else is the one problem reported
/// (the rules to apply are unknown).
fn version(root: &Node) -> Result<Version, LoadProblem> {
    let Some(field) = root.get("openapi") else {
        // The root's required fields report it.
        return Ok(Version::V30);
    };
    let text = field.as_str().unwrap_or_default();
    let mut parts = text.split('.');
    let numeric = text.split('.').count() == 3
        && text
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    match (parts.next(), parts.next()) {
        (Some("3"), Some("0")) if numeric => Ok(Version::V30),
        (Some("3"), Some("1")) if numeric => Ok(Version::V31),
        _ => Err(LoadProblem::new(
            ProblemKind::OpenApi,
            field.span,
            "/openapi",
            format!(
                "`openapi: {}` is not a version syncdef reads: OpenAPI 3.0.x or 3.1.x",
                if text.is_empty() { "(not a string)" } else { text }
            ),
        )
        .help(if root.get("swagger").is_some() || text.starts_with('2') {
            "this is a Swagger 2.0 document: convert it to OpenAPI 3 (for example with swagger2openapi)"
        } else {
            "write the version of the OpenAPI Specification the document follows, such as `3.0.3` or `3.1.0`"
        })),
    }
}
