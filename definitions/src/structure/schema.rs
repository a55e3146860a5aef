//! Schema Objects: OpenAPI 3.0's dialect of JSON Schema (a closed set of keywords, `type` a
//! single name, `nullable`, boolean `exclusiveMinimum`), or in 3.1 JSON Schema 2020-12 itself
//! (`type` a name or a list of names, numeric `exclusiveMinimum`, boolean schemas, any other
//! keyword allowed as an annotation).

use super::walk::Walk;
use crate::node::{Node, NodeKind};

/// JSON Schema's type names.
pub(super) const TYPES: &[&str] = &["integer", "number", "string", "boolean", "array", "object"];

/// How a keyword's value is checked.
#[derive(Clone, Copy)]
enum Kw {
    Any,
    Str,
    Bool,
    Count,
    Number,
    /// A list of strings (`required`).
    Names,
    /// A non-empty list of values (`enum`).
    Values,
    /// The `type` keyword.
    Type,
    /// A schema.
    Schema,
    /// A list of schemas.
    Schemas,
    /// A map of schemas (`properties`).
    SchemaMap,
    /// A schema or a boolean (`additionalProperties`).
    SchemaOrBool,
    /// `exclusiveMinimum`/`exclusiveMaximum`: a boolean in 3.0, a number in 3.1.
    Exclusive,
    /// An object not checked further (`discriminator`, `xml`, `externalDocs`).
    Object,
}

/// OpenAPI 3.0's Schema Object keywords; in 3.1 these are checked and others allowed.
const KEYWORDS: &[(&str, Kw)] = &[
    ("title", Kw::Str),
    ("multipleOf", Kw::Number),
    ("maximum", Kw::Number),
    ("exclusiveMaximum", Kw::Exclusive),
    ("minimum", Kw::Number),
    ("exclusiveMinimum", Kw::Exclusive),
    ("maxLength", Kw::Count),
    ("minLength", Kw::Count),
    ("pattern", Kw::Str),
    ("maxItems", Kw::Count),
    ("minItems", Kw::Count),
    ("uniqueItems", Kw::Bool),
    ("maxProperties", Kw::Count),
    ("minProperties", Kw::Count),
    ("required", Kw::Names),
    ("enum", Kw::Values),
    ("type", Kw::Type),
    ("allOf", Kw::Schemas),
    ("oneOf", Kw::Schemas),
    ("anyOf", Kw::Schemas),
    ("not", Kw::Schema),
    ("items", Kw::Schema),
    ("properties", Kw::SchemaMap),
    ("additionalProperties", Kw::SchemaOrBool),
    ("description", Kw::Str),
    ("format", Kw::Str),
    ("default", Kw::Any),
    ("nullable", Kw::Bool),
    ("discriminator", Kw::Object),
    ("readOnly", Kw::Bool),
    ("writeOnly", Kw::Bool),
    ("xml", Kw::Object),
    ("externalDocs", Kw::Object),
    ("example", Kw::Any),
    ("deprecated", Kw::Bool),
];

/// Keywords 3.1 (JSON Schema 2020-12) adds that hold schemas, checked as schemas.
const KEYWORDS_31: &[(&str, Kw)] = &[
    ("$defs", Kw::SchemaMap),
    ("prefixItems", Kw::Schemas),
    ("contains", Kw::Schema),
    ("patternProperties", Kw::SchemaMap),
    ("dependentSchemas", Kw::SchemaMap),
    ("propertyNames", Kw::Schema),
    ("if", Kw::Schema),
    ("then", Kw::Schema),
    ("else", Kw::Schema),
    ("unevaluatedItems", Kw::SchemaOrBool),
    ("unevaluatedProperties", Kw::SchemaOrBool),
    ("const", Kw::Any),
    ("examples", Kw::Any),
];

impl Walk {
    /// The Schema Object (or Reference Object) `node`.
    pub(super) fn schema(&mut self, node: &Node, pointer: &mut String) {
        if self.v31() && matches!(node.kind, NodeKind::Bool(_)) {
            return;
        }
        let Some(members) = node.as_object() else {
            self.wrong_type(node, pointer, "a Schema Object (an object)");
            return;
        };
        if self.reference(node, pointer) {
            return;
        }
        let known: Vec<&'static str> = KEYWORDS.iter().map(|(k, _)| *k).collect();
        for m in members {
            let name = m.key.name;
            let kw = KEYWORDS
                .iter()
                .chain(if self.v31() { KEYWORDS_31 } else { &[] })
                .find(|(k, _)| *k == name)
                .map(|(_, kw)| *kw);
            let len = pointer.len();
            crate::pointer::push(pointer, name);
            match kw {
                // 3.1 schemas are JSON Schema, where `nullable` is an annotation without effect
                // (a finding for a rule about meaning, not about structure).
                Some(_) if self.v31() && name == "nullable" => {}
                Some(kw) => self.keyword(name, kw, &m.value, pointer),
                // 3.1 schemas are JSON Schema: an unknown keyword is an annotation.
                None if self.v31() || name.starts_with("x-") => {}
                None => self.unknown_field(&m.key, pointer, "Schema Object", &known, members),
            }
            pointer.truncate(len);
        }
    }

    fn keyword(&mut self, name: &str, kw: Kw, value: &Node, pointer: &mut String) {
        match kw {
            Kw::Any => {}
            Kw::Str => self.expect_str(value, pointer),
            Kw::Bool => self.expect_bool(value, pointer),
            Kw::Count => self.expect_count(value, pointer),
            Kw::Number => self.expect_number(value, pointer),
            Kw::Names => self.list(value, pointer, |w, item, p| w.expect_str(item, p)),
            Kw::Values => self.expect_values(value, pointer),
            Kw::Type => self.schema_type(value, pointer),
            Kw::Schema => self.schema(value, pointer),
            Kw::Schemas => self.list(value, pointer, Walk::schema),
            Kw::SchemaMap => self.map(value, pointer, Walk::schema),
            Kw::SchemaOrBool => {
                if !matches!(value.kind, NodeKind::Bool(_)) {
                    self.schema(value, pointer);
                }
            }
            Kw::Exclusive => {
                if self.v31() {
                    self.expect_number(value, pointer);
                } else {
                    self.expect_bool(value, pointer);
                }
            }
            Kw::Object => {
                if value.as_object().is_none() {
                    self.wrong_type(value, pointer, &format!("an object (`{name}`)"));
                }
            }
        }
    }

    /// `type`: one name in 3.0; a name or a list of distinct names in 3.1 (`null` included).
    fn schema_type(&mut self, value: &Node, pointer: &mut String) {
        let v31 = self.v31();
        let allowed: Vec<&'static str> = if v31 {
            TYPES.iter().copied().chain(["null"]).collect()
        } else {
            TYPES.to_vec()
        };
        match &value.kind {
            NodeKind::String(s) => self.expect_one_of(value, s.value, &allowed, pointer),
            NodeKind::Array(items) if v31 => {
                for (i, item) in items.iter().enumerate() {
                    let len = pointer.len();
                    crate::pointer::push_index(pointer, i);
                    match item.as_str() {
                        Some(name) => self.expect_one_of(&item, name, &allowed, pointer),
                        None => self.wrong_type(&item, pointer, "a type name"),
                    }
                    pointer.truncate(len);
                }
            }
            NodeKind::Array(_) => self.problem(
                value.span,
                pointer,
                "a list of types is JSON Schema 2020-12, which OpenAPI 3.0 schemas are not".into(),
                Some("use one type with `nullable: true`, or declare `openapi: 3.1.0`".into()),
            ),
            _ => self.wrong_type(value, pointer, "a type name"),
        }
    }
}
