//! The platform records templates read: a JSON Schema (draft 2020-12) of the records the
//! platform pushes (the vendor's Account object; the platform spec, part 2, for the modules
//! whose object is not documented), with a small typed API to walk it, and the filter
//! properties of the modules' collections ([`filters`]), which are not record fields, and the
//! modules themselves ([`modules`]: roots, routes, ids, child collections).
//!
//! The schema is a domain fact shared by the validator (type checking of template reads, `SD8xx`)
//! and the engine (sample records for dry-runs), so it lives here, below both. Print it with
//! `syncdef schema --records`; docs/platform-records.md explains the decisions (closed records,
//! fields whose type the spec does not show, the `x-syncdef-records` extension).

pub mod filters;
pub mod lines;
pub mod modules;

use std::sync::OnceLock;

use serde_json::{Map, Value};

/// The schema's text, as shipped.
pub const RECORDS_SCHEMA: &str = include_str!("records.schema.json");

/// The top-level key of a definition that extends the records (`x-syncdef-records`).
pub const EXTENSION_KEY: &str = "x-syncdef-records";

/// The record schema document, possibly extended by a definition.
#[derive(Clone, Debug)]
pub struct RecordSchemas {
    doc: Value,
}

/// The shipped schema, parsed once.
#[must_use]
pub fn builtin() -> &'static RecordSchemas {
    static BUILTIN: OnceLock<RecordSchemas> = OnceLock::new();
    BUILTIN.get_or_init(|| RecordSchemas {
        // The text is part of the binary and checked by a test; an empty schema (nothing
        // known, nothing reported) is the safe reading should it ever not parse.
        doc: serde_json::from_str(RECORDS_SCHEMA).unwrap_or(Value::Null),
    })
}

/// A problem in a definition's `x-syncdef-records`, with the JSON pointer below the extension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtensionProblem {
    /// Pointer relative to the extension object (`/Acount`).
    pub pointer: String,
    /// What is wrong and what to do.
    pub message: String,
}

/// The JSON types a schema may allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonType {
    /// `object`
    Object,
    /// `array`
    Array,
    /// `string`
    String,
    /// `integer`
    Integer,
    /// `number`
    Number,
    /// `boolean`
    Boolean,
    /// `null`
    Null,
}

impl JsonType {
    /// The JSON Schema name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::String => "string",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::Boolean => "boolean",
            JsonType::Null => "null",
        }
    }

    /// The type of a JSON Schema `type` name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<JsonType> {
        Some(match name {
            "object" => JsonType::Object,
            "array" => JsonType::Array,
            "string" => JsonType::String,
            "integer" => JsonType::Integer,
            "number" => JsonType::Number,
            "boolean" => JsonType::Boolean,
            "null" => JsonType::Null,
            _ => return None,
        })
    }

    /// The type of a value (whole numbers are `integer`).
    #[must_use]
    pub fn of(value: &Value) -> JsonType {
        match value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(n) if n.is_i64() || n.is_u64() => JsonType::Integer,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }
}

/// What a property lookup found.
#[derive(Clone, Copy, Debug)]
pub enum Property<'a> {
    /// Declared.
    Known(FieldSchema<'a>),
    /// Not declared, and the object is closed.
    Unknown,
    /// Not declared, but the object accepts any property (or is not known to be an object).
    Open,
}

/// A schema inside a [`RecordSchemas`] document.
#[derive(Clone, Copy, Debug)]
pub struct FieldSchema<'a> {
    doc: &'a Value,
    node: &'a Value,
}

impl RecordSchemas {
    /// The whole document (what `syncdef schema --records` prints, extensions included).
    #[must_use]
    pub fn document(&self) -> &Value {
        &self.doc
    }

    /// The template input: the object whose members are the record roots.
    #[must_use]
    pub fn input(&self) -> FieldSchema<'_> {
        FieldSchema::new(&self.doc, &self.doc)
    }

    /// The record under root `root` (`account`), if it is a record root of the schema.
    #[must_use]
    pub fn record(&self, root: &str) -> Option<FieldSchema<'_>> {
        match self.input().property(root) {
            Property::Known(s) => Some(s),
            _ => None,
        }
    }

    /// Names of the record definitions an extension may name (`Account`, `Address`, ...).
    pub fn definition_names(&self) -> impl Iterator<Item = &str> {
        self.doc
            .get("$defs")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|m| m.keys().map(String::as_str))
    }

    /// This schema with a definition's `x-syncdef-records` applied: each key names a record
    /// definition (`Account`, `Address`, `InvoiceItem`, ...); its `properties` are added (or
    /// replace the shipped ones), and `additionalProperties: true` opens the record.
    /// Problems are returned with the schema built from what was valid.
    #[must_use]
    pub fn extended(&self, extension: &Value) -> (RecordSchemas, Vec<ExtensionProblem>) {
        let mut doc = self.doc.clone();
        let mut problems = Vec::new();
        let Some(ext) = extension.as_object() else {
            problems.push(ExtensionProblem {
                pointer: String::new(),
                message: format!(
                    "`{EXTENSION_KEY}` must be an object naming record definitions (`Account`, `InvoiceItem`, ...)"
                ),
            });
            return (RecordSchemas { doc }, problems);
        };
        let names: Vec<String> = self.definition_names().map(str::to_owned).collect();
        for (name, patch) in ext {
            let pointer = format!("/{}", escape(name));
            let Some(def) = doc
                .get_mut("$defs")
                .and_then(|d| d.get_mut(name.as_str()))
                .and_then(Value::as_object_mut)
            else {
                let close = closest(name, names.iter().map(String::as_str));
                problems.push(ExtensionProblem {
                    pointer,
                    message: match close {
                        Some(s) => {
                            format!("`{name}` is not a record definition: did you mean `{s}`?")
                        }
                        None => format!(
                            "`{name}` is not a record definition; use one of: {}",
                            names.join(", ")
                        ),
                    },
                });
                continue;
            };
            apply_patch(def, patch, &pointer, &mut problems);
        }
        (RecordSchemas { doc }, problems)
    }

    /// A deterministic sample of the record under `root`: every declared property present,
    /// one item per array, booleans `true` (so billing-address filters select it), numbers 1,
    /// dates `2026-01-15T00:00:00Z`, other strings named after their field. A record inside
    /// itself (an account's `parentAccount`) is `null` there.
    #[must_use]
    pub fn sample(&self, root: &str) -> Option<Value> {
        self.record(root).map(|s| s.sample(None, &mut Vec::new()))
    }
}

fn apply_patch(
    def: &mut Map<String, Value>,
    patch: &Value,
    pointer: &str,
    problems: &mut Vec<ExtensionProblem>,
) {
    let Some(patch) = patch.as_object() else {
        problems.push(ExtensionProblem {
            pointer: pointer.to_owned(),
            message: "a record extension must be an object with `properties` and/or `additionalProperties`".into(),
        });
        return;
    };
    for (key, value) in patch {
        let at = format!("{pointer}/{}", escape(key));
        match (key.as_str(), value) {
            ("properties", Value::Object(props)) => {
                let target = def
                    .entry("properties")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Some(target) = target.as_object_mut() {
                    for (name, schema) in props {
                        if schema.is_object() || schema.is_boolean() {
                            target.insert(name.clone(), schema.clone());
                        } else {
                            problems.push(ExtensionProblem {
                                pointer: format!("{at}/{}", escape(name)),
                                message: "a field's schema must be a JSON Schema object, such as `{type: string}`".into(),
                            });
                        }
                    }
                }
            }
            ("additionalProperties", Value::Bool(b)) => {
                def.insert(key.clone(), Value::Bool(*b));
            }
            ("description", Value::String(_)) => {}
            _ => problems.push(ExtensionProblem {
                pointer: at,
                message: format!(
                    "`{key}` is not read here: a record extension has `properties` (an object of JSON Schemas) and `additionalProperties` (a boolean)"
                ),
            }),
        }
    }
}

/// The most similar candidate, when similar enough to be a likely typo.
fn closest<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    candidates
        .map(|c| {
            (
                strsim::jaro_winkler(&name.to_lowercase(), &c.to_lowercase()),
                c,
            )
        })
        .filter(|(score, _)| *score >= 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

impl<'a> FieldSchema<'a> {
    fn new(doc: &'a Value, node: &'a Value) -> Self {
        FieldSchema { doc, node }.resolved()
    }

    /// Follows local `$ref`s (bounded: the shipped schema has no cycles through `$ref` alone).
    fn resolved(self) -> Self {
        let mut node = self.node;
        for _ in 0..16 {
            match node.get("$ref").and_then(Value::as_str) {
                Some(r) => match r.strip_prefix('#').and_then(|p| self.doc.pointer(p)) {
                    Some(target) => node = target,
                    None => break,
                },
                None => break,
            }
        }
        FieldSchema {
            doc: self.doc,
            node,
        }
    }

    /// The schema as JSON.
    #[must_use]
    pub fn json(&self) -> &'a Value {
        self.node
    }

    /// A schema of another JSON Schema document (an external system's, converted from
    /// OpenAPI), walked with the same rules: local `$ref`s, `allOf`/`anyOf`/`oneOf` parts.
    #[must_use]
    pub fn in_document(doc: &'a Value, node: &'a Value) -> Self {
        FieldSchema::new(doc, node)
    }

    /// Another schema of the same document (a composition part, an item schema).
    #[must_use]
    pub fn sibling(&self, node: &'a Value) -> FieldSchema<'a> {
        FieldSchema::new(self.doc, node)
    }

    /// This schema and the parts of its `allOf`/`anyOf`/`oneOf`, recursively, resolved.
    fn parts(&self) -> Vec<FieldSchema<'a>> {
        let mut out = vec![*self];
        let mut i = 0;
        // Bounded: a composition cycle through `$ref` is reported by the loader.
        while i < out.len() && out.len() < 64 {
            let node = out[i].node;
            for key in ["allOf", "anyOf", "oneOf"] {
                for part in node
                    .get(key)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    out.push(FieldSchema::new(self.doc, part));
                }
            }
            i += 1;
        }
        out
    }

    /// The types `type` allows; empty when the schema does not say (any value). A schema
    /// without `type` takes its parts' (`allOf`: the first part that says; `anyOf`/`oneOf`:
    /// every part's, or nothing when one part allows anything).
    #[must_use]
    pub fn types(&self) -> Vec<JsonType> {
        self.types_at(0)
    }

    fn types_at(&self, depth: u32) -> Vec<JsonType> {
        match self.node.get("type") {
            Some(Value::String(s)) => return JsonType::from_name(s).into_iter().collect(),
            Some(Value::Array(a)) => {
                return a
                    .iter()
                    .filter_map(Value::as_str)
                    .filter_map(JsonType::from_name)
                    .collect();
            }
            _ => {}
        }
        if depth > 16 {
            return Vec::new();
        }
        if let Some(parts) = self.node.get("allOf").and_then(Value::as_array) {
            for part in parts {
                let t = FieldSchema::new(self.doc, part).types_at(depth + 1);
                if !t.is_empty() {
                    return t;
                }
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(parts) = self.node.get(key).and_then(Value::as_array) {
                let mut all = Vec::new();
                for part in parts {
                    let t = FieldSchema::new(self.doc, part).types_at(depth + 1);
                    if t.is_empty() {
                        // `{type: 'null'}` parts are common in converted schemas; any other
                        // part without a type allows anything.
                        return Vec::new();
                    }
                    for ty in t {
                        if !all.contains(&ty) {
                            all.push(ty);
                        }
                    }
                }
                if !all.is_empty() {
                    return all;
                }
            }
        }
        Vec::new()
    }

    /// The one non-null type, when the schema declares exactly one.
    #[must_use]
    pub fn value_type(&self) -> Option<JsonType> {
        let types: Vec<JsonType> = self
            .types()
            .into_iter()
            .filter(|t| *t != JsonType::Null)
            .collect();
        match types.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// Whether the schema's type is known and excludes arrays.
    #[must_use]
    pub fn is_not_array(&self) -> bool {
        let types = self.types();
        !types.is_empty() && !types.contains(&JsonType::Array)
    }

    /// Whether the schema's type is known and excludes objects.
    #[must_use]
    pub fn is_not_object(&self) -> bool {
        let types = self.types();
        !types.is_empty() && !types.contains(&JsonType::Object)
    }

    /// The description.
    #[must_use]
    pub fn description(&self) -> Option<&'a str> {
        self.node.get("description").and_then(Value::as_str)
    }

    /// Declared property `name`, read strictly: the declared `properties` (of the schema and
    /// its composition parts) are the contract, so a name none of them declares is
    /// [`Property::Unknown`], unless a part accepts other properties explicitly
    /// (`additionalProperties: true` or a schema), names it in `required`, or declares no
    /// property at all (a free-form object): those are [`Property::Open`]. This is what a
    /// reader wants: OpenAPI objects are open by default, but a read of a property nobody
    /// declared is a typo far more often than an undocumented field.
    #[must_use]
    pub fn property(&self, name: &str) -> Property<'a> {
        let parts = self.parts();
        for part in &parts {
            if let Some(p) = part.node.get("properties").and_then(|p| p.get(name)) {
                return Property::Known(FieldSchema::new(self.doc, p));
            }
        }
        let mut declares = false;
        for part in &parts {
            match part.node.get("additionalProperties") {
                Some(Value::Bool(true)) => return Property::Open,
                Some(extra @ Value::Object(_)) => {
                    return Property::Known(FieldSchema::new(self.doc, extra));
                }
                _ => {}
            }
            if part
                .node
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name)))
            {
                return Property::Open;
            }
            declares |= part
                .node
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty())
                || part.node.get("additionalProperties") == Some(&Value::Bool(false));
        }
        if declares {
            Property::Unknown
        } else {
            Property::Open
        }
    }

    /// Declared property names (of the schema and its composition parts), in schema order,
    /// without repeats.
    #[must_use]
    pub fn property_names(&self) -> Vec<&'a str> {
        let mut out: Vec<&'a str> = Vec::new();
        for part in self.parts() {
            let names = part.node.get("properties").and_then(Value::as_object);
            for name in names.into_iter().flat_map(|m| m.keys()) {
                if !out.contains(&name.as_str()) {
                    out.push(name);
                }
            }
        }
        out
    }

    /// The item schema of an array (of the schema or its first composition part that has one).
    #[must_use]
    pub fn items(&self) -> Option<FieldSchema<'a>> {
        self.parts().into_iter().find_map(|p| {
            p.node
                .get("items")
                .filter(|i| i.is_object())
                .map(|i| FieldSchema::new(self.doc, i))
        })
    }

    /// Follows a dotted path of property names (`accountCurrency.currency.name`); `None` when
    /// a name is not declared.
    #[must_use]
    pub fn at_dotted(&self, path: &str) -> Option<FieldSchema<'a>> {
        let mut at = *self;
        for name in path.split('.') {
            match at.property(name) {
                Property::Known(s) => at = s,
                _ => return None,
            }
        }
        Some(at)
    }

    /// The record definition (`$defs` key: `Account`, `Address`) this schema is, if it is one.
    #[must_use]
    pub fn definition(&self) -> Option<&'a str> {
        self.doc
            .get("$defs")?
            .as_object()?
            .iter()
            .find(|(_, def)| std::ptr::eq(*def, self.node))
            .map(|(name, _)| name.as_str())
    }

    /// `within` holds the schemas being sampled around this one: a schema met again is a
    /// recursive record (`parentAccount`), sampled as `null` so that the sample stays finite.
    fn sample(&self, name: Option<&str>, within: &mut Vec<&'a Value>) -> Value {
        if within.len() > 8 || within.iter().any(|n| std::ptr::eq(*n, self.node)) {
            return Value::Null;
        }
        within.push(self.node);
        let out = self.sample_within(name, within);
        within.pop();
        out
    }

    fn sample_within(&self, name: Option<&str>, within: &mut Vec<&'a Value>) -> Value {
        let types = self.types();
        let pick = types.iter().copied().find(|t| *t != JsonType::Null);
        let pick = match pick {
            Some(t) => t,
            None if self.node.get("properties").is_some() => JsonType::Object,
            None => JsonType::String,
        };
        match pick {
            JsonType::Object => {
                let mut out = Map::new();
                for key in self.property_names() {
                    if let Property::Known(s) = self.property(key) {
                        out.insert(key.to_owned(), s.sample(Some(key), within));
                    }
                }
                Value::Object(out)
            }
            JsonType::Array => match self.items() {
                Some(item) => Value::Array(vec![item.sample(name, within)]),
                None => Value::Array(Vec::new()),
            },
            JsonType::Boolean => Value::Bool(true),
            JsonType::Integer | JsonType::Number => Value::from(1),
            JsonType::Null => Value::Null,
            JsonType::String => Value::String(string_sample(
                name,
                self.node.get("format").and_then(Value::as_str),
            )),
        }
    }
}

fn string_sample(name: Option<&str>, format: Option<&str>) -> String {
    let name = name.unwrap_or("value");
    if format == Some("uuid") {
        return "00000000-0000-4000-8000-000000000001".into();
    }
    if name.ends_with("At") || name.ends_with("Date") || name == "from" || name == "to" {
        return "2026-01-15T00:00:00Z".into();
    }
    if name == "mnemonic" {
        return "EUR".into();
    }
    format!("sample {name}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_shipped_schema_parses_and_names_every_root() {
        let doc: Value = serde_json::from_str(RECORDS_SCHEMA).expect("valid JSON");
        assert_eq!(
            doc["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        for module in modules::MODULES {
            assert!(builtin().record(module.root).is_some(), "{}", module.root);
        }
    }

    /// The declared list `field` of `record`.
    fn list_at<'a>(record: &FieldSchema<'a>, field: &str, what: &str) -> FieldSchema<'a> {
        match record.property(field) {
            Property::Known(schema) if !schema.is_not_array() => schema,
            other => panic!("{what}: `{field}` is not declared as a list: {other:?}"),
        }
    }

    /// Templates read what the worker reads with a record under the field the module table
    /// names: the record schema must declare it, as a list, or lint would refuse the path.
    #[test]
    fn the_fields_read_with_a_record_are_declared_lists() {
        for module in modules::MODULES {
            let record = builtin().record(module.root).expect("record");
            for child in module.children {
                list_at(&record, child.field, module.name);
            }
            for attached in module.attached {
                let list = list_at(&record, attached.field, module.name);
                if let Some(each) = attached.each {
                    let element = list.items().expect("the list's elements");
                    list_at(&element, each.field, attached.field);
                }
            }
        }
    }

    #[test]
    fn walks_the_spec_fields() {
        let account = builtin().record("account").expect("account");
        let name = account
            .at_dotted("accountCurrency.currency.mnemonic")
            .expect("declared");
        assert_eq!(name.value_type(), Some(JsonType::String));
        assert!(matches!(account.property("nmae"), Property::Unknown));
        let addresses = match account.property("addresses") {
            Property::Known(s) => s,
            other => panic!("{other:?}"),
        };
        assert!(!addresses.is_not_array());
        let item = addresses.items().expect("items");
        assert!(matches!(item.property("isBilling"), Property::Known(_)));
        // A field whose type the vendor's text does not show has none, and says so.
        let state = item.at_dotted("addressState").expect("addressState");
        assert!(state.types().is_empty());
        assert!(
            state
                .description()
                .is_some_and(|d| d.contains("not checked"))
        );
        assert_eq!(item.definition(), Some("Address"));
        assert_eq!(account.definition(), Some("Account"));
        assert_eq!(addresses.definition(), None);
        let invoice = builtin().record("invoice").expect("invoice");
        assert!(
            invoice
                .at_dotted("billingAccount.accountCurrency.currency.name")
                .is_some()
        );
        assert!(matches!(
            builtin().record("case").expect("case").property("anything"),
            Property::Open
        ));
    }

    #[test]
    fn extensions_add_fields_and_report_typos() {
        let (schemas, problems) = builtin().extended(&json!({
            "Account": {"properties": {"salesArea": {"type": "string"}}},
            "Acount": {"properties": {}},
            "Address": {"additionalProperties": true, "colour": 1},
        }));
        let account = schemas.record("account").expect("account");
        assert!(matches!(account.property("salesArea"), Property::Known(_)));
        let address = account
            .at_dotted("addresses")
            .and_then(|a| a.items())
            .expect("items");
        assert!(matches!(address.property("anything"), Property::Open));
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert_eq!(problems[0].pointer, "/Acount");
        assert!(problems[0].message.contains("did you mean `Account`"));
        assert_eq!(problems[1].pointer, "/Address/colour");
    }

    #[test]
    fn samples_are_deterministic_and_complete() {
        let a = builtin().sample("account").expect("account");
        assert_eq!(a, builtin().sample("account").expect("account"));
        assert_eq!(a["addresses"][0]["isBilling"], true);
        assert_eq!(a["accountCurrency"]["currency"]["mnemonic"], "EUR");
        assert_eq!(a["createdAt"], "2026-01-15T00:00:00Z");
        // The account inside itself is not sampled again.
        assert_eq!(a["parentAccount"], Value::Null);
        assert_eq!(a["transactionCurrency"]["mnemonic"], "EUR");
        assert_eq!(a["industry"]["position"], 1);
        let i = builtin().sample("invoice").expect("invoice");
        assert_eq!(i["items"].as_array().map(Vec::len), Some(1));
        assert_eq!(i["id"], "00000000-0000-4000-8000-000000000001");
    }
}
