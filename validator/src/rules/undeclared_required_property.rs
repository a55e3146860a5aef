//! `UndeclaredRequiredProperty`: `required` names a property the schema does not declare.

use syncdef_definitions::Node;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;
use crate::typecheck::openapi::resolve;

declare_rule! {
    /// ## What it does
    /// Reports a name in a schema's `required` that is not one of its `properties` (nor of the
    /// schemas it combines with `allOf`, `anyOf` or `oneOf`), with the property meant when it
    /// is a near miss. A schema without `properties` is left alone (it may only add
    /// requirements), and so is a member of an `allOf` (its siblings may declare the name).
    ///
    /// It is an error whatever `additionalProperties` says: with `additionalProperties: false`
    /// no value can satisfy the schema; otherwise the property is required yet has no type,
    /// which is nearly always a misspelt name, and openapi-spec-validator refuses the document.
    ///
    /// ## Why is this bad?
    /// A body built from the schema never has the misspelt property, so the system refuses
    /// every request (or, with `additionalProperties: false`, every value is invalid); and the
    /// type checks of templates against the schema cannot see the property meant.
    ///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   type: object
    ///   required: [displayname]
    ///   properties:
    ///     displayName: {type: string}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// Customer:
    ///   type: object
    ///   required: [displayName]
    ///   properties:
    ///     displayName: {type: string}
    /// ```
    pub struct UndeclaredRequiredProperty {
        title: "`required` names a property the schema does not declare",
        severity: Error,
    }
}

/// How deep `allOf`/`anyOf`/`oneOf` are followed for declared names (cycles are SD107's).
const MAX_DEPTH: u32 = 16;

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let root = &ctx.doc.root();
    for schema in &ctx.openapi.schemas {
        let node = schema.node;
        let Some(required) = node.get("required").and_then(Node::as_array) else {
            continue;
        };
        if schema.in_all_of || node.get("properties").is_none() {
            continue;
        }
        let mut names = Vec::new();
        declared(*root, node, &mut names, 0);
        for (i, item) in required.iter().enumerate() {
            let Some(name) = item.as_str() else { continue };
            if names.contains(&name) || matches_pattern(&node, name) {
                continue;
            }
            let help = hint(name, names.iter().copied()).unwrap_or_else(|| {
                format!("declare `{name}` under `properties`, or remove it from `required`")
            });
            let d = sink
                .diagnostic(
                    Rule::UndeclaredRequiredProperty,
                    item.span,
                    format!("`{name}` is required but is not a property of the schema"),
                )
                .with_pointer(format!(
                    "{}/required/{i}",
                    ctx.openapi.pointer(schema.place)
                ))
                .with_help(help);
            sink.push(d);
        }
    }
}

/// The property names `schema` declares, its combined schemas' included.
fn declared<'n>(root: Node<'n>, schema: Node<'n>, names: &mut Vec<&'n str>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(schema) = resolve(root, Some(schema)) else {
        return;
    };
    if let Some(properties) = schema.get("properties").and_then(Node::as_object) {
        names.extend(properties.iter().map(|m| m.key.name));
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for member in schema.get(key).and_then(Node::as_array).unwrap_or_default() {
            declared(root, member, names, depth + 1);
        }
    }
}

/// Whether a `patternProperties` pattern of the schema (OpenAPI 3.1) declares `name`; an
/// invalid pattern is SD125's finding and counts as declaring it.
fn matches_pattern(schema: &Node, name: &str) -> bool {
    let Some(patterns) = schema.get("patternProperties").and_then(Node::as_object) else {
        return false;
    };
    patterns.iter().any(|m| {
        super::invalid_pattern::compile(m.key.name)
            .map_or(true, |re| re.is_valid(&serde_json::Value::from(name)))
    })
}
