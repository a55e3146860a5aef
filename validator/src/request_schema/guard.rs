//! A body's structure proven once, its computed values checked one by one.
//!
//! Why: validating every rendered body as a whole (scanning its text, then walking the schema
//! over it) cost 13 % of a push against an instant server, where the budget is 3 %
//! (docs/benchmarks.md, "Request body validation"). Most of a request template is fixed: its
//! keys, its nesting and its constants are the same for every record. So when the engine
//! compiles a definition, the template's output shape ([`OutputShape`]) is walked against the
//! schema: required members present, no member the schema forbids, every constant valid. What
//! is left are the values computed from the record, and each is checked on its own, as it is
//! written, against the schema at its place: most by a few comparisons ([`ScalarRule`]: type,
//! length, enumeration, bounds), the rest by the schema compiled for that place.
//!
//! The guard only ever answers "proven valid"; anything it cannot prove (a schema keyword it
//! does not read, a string with escapes near its length limit, a value outside a rule) sends
//! the body to the whole-body check, which decides and explains. A template or schema the walk
//! does not follow (`allOf`, conditional groups over required members, computed keys) gets no
//! guard at all, and every body is checked whole as before.

use serde_json::Value;
use syncdef_transform::{OutputObserver, OutputShape};

use super::text::{Indexed, TextJson};

/// How many `$ref`s one place may chain before the walk gives up (a cycle).
const MAX_REF_CHAIN: usize = 32;

/// Keywords of JSON Schema 2020-12 (and legacy ones the `jsonschema` crate may honour) that can
/// make an instance invalid. Any other member of a schema object is an annotation or unknown,
/// which validation ignores; `format` is one (2020-12's default, how every validator here is
/// built: `formats_are_annotations_as_the_validators_are_built` pins it).
const ASSERTING: &[&str] = &[
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "$id",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
];

/// What an object's schema may say for the walk to follow it member by member.
const OBJECT_KEYWORDS: &[&str] = &["type", "properties", "required", "additionalProperties"];

/// The proof for one template and one request body schema: a check per computed part of the
/// template's output, in the order the template writes them.
pub struct BodyGuard {
    leaves: Box<[Leaf]>,
}

impl std::fmt::Debug for BodyGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodyGuard")
            .field("computed", &self.leaves.len())
            .finish_non_exhaustive()
    }
}

/// The check of one computed value.
enum Leaf {
    /// The schema allows any value here.
    Any,
    /// A scalar rule read by a few comparisons.
    Scalar(ScalarRule),
    /// The schema at this place, compiled on its own (text read in place).
    Schema(jsonschema::Validator<TextJson>),
}

impl BodyGuard {
    /// The guard of bodies shaped like `shape` under the converted schema document `doc` (its
    /// root a `$ref` to the body schema): `None` when the walk cannot prove the structure.
    pub(super) fn build(doc: &Value, shape: &OutputShape<'_>) -> Option<BodyGuard> {
        let map = doc.as_object()?;
        // The root only points at the body schema; the rest of the document holds `$ref`
        // targets at their own pointers.
        if map
            .keys()
            .any(|k| k != "$ref" && ASSERTING.contains(&k.as_str()))
        {
            return None;
        }
        let root = map.get("$ref")?.as_str()?.strip_prefix('#')?;
        let mut walk = Walk {
            doc,
            leaves: Vec::new(),
        };
        walk.place(root, shape)?;
        Some(BodyGuard {
            leaves: walk.leaves.into_boxed_slice(),
        })
    }

    /// A watch over one body as the template writes it.
    #[must_use]
    pub fn watch(&self) -> BodyWatch<'_> {
        BodyWatch {
            guard: self,
            next: 0,
            proven: true,
        }
    }
}

/// Follows one body's computed parts as they are written ([`OutputObserver`]).
pub struct BodyWatch<'g> {
    guard: &'g BodyGuard,
    next: usize,
    proven: bool,
}

impl BodyWatch<'_> {
    /// Whether every computed part was proven valid (and there were as many as the shape has):
    /// then the body fits the schema.
    #[must_use]
    pub fn proven(&self) -> bool {
        self.proven && self.next == self.guard.leaves.len()
    }
}

impl OutputObserver for BodyWatch<'_> {
    fn written(&mut self, out: &str, start: usize) {
        if self.proven {
            let text = out.get(start..).unwrap_or_default();
            self.proven = match self.guard.leaves.get(self.next) {
                Some(Leaf::Any) => true,
                Some(Leaf::Scalar(rule)) => rule.admits(text),
                Some(Leaf::Schema(schema)) => {
                    Indexed::new(text).is_some_and(|doc| schema.is_valid(doc.root()))
                }
                None => false,
            };
        }
        self.next += 1;
    }
}

/// The walk of a shape against the schema document.
struct Walk<'d> {
    doc: &'d Value,
    leaves: Vec<Leaf>,
}

impl<'d> Walk<'d> {
    /// The part of the output shaped `shape`, under the schema at `pointer`.
    fn place(&mut self, pointer: &str, shape: &OutputShape<'_>) -> Option<()> {
        let (pointer, schema) = self.resolve(pointer)?;
        match shape {
            OutputShape::Constant(value) => self.constant(&pointer, schema, value),
            OutputShape::Object(members) => self.object(&pointer, schema, members),
            OutputShape::Computed => {
                let leaf = self.leaf(&pointer, schema)?;
                self.leaves.push(leaf);
                Some(())
            }
            _ => None,
        }
    }

    /// The schema at `pointer`, through any chain of `$ref`-only schemas, with its pointer.
    fn resolve(&self, pointer: &str) -> Option<(String, &'d Value)> {
        let mut pointer = pointer.to_owned();
        for _ in 0..MAX_REF_CHAIN {
            let schema = self.doc.pointer(&pointer)?;
            let Some(target) = schema.get("$ref") else {
                return Some((pointer, schema));
            };
            // A `$ref` beside other assertions is not followed (the conversion drops siblings).
            let alone = schema
                .as_object()?
                .keys()
                .all(|k| k == "$ref" || !ASSERTING.contains(&k.as_str()));
            if !alone {
                return None;
            }
            target.as_str()?.strip_prefix('#')?.clone_into(&mut pointer);
        }
        None
    }

    /// An object the template always writes with these members.
    fn object(
        &mut self,
        pointer: &str,
        schema: &Value,
        members: &[(&str, OutputShape<'_>)],
    ) -> Option<()> {
        let distinct = members
            .iter()
            .enumerate()
            .all(|(i, (k, _))| members[..i].iter().all(|(other, _)| other != k));
        if !distinct {
            return None;
        }
        if schema == &Value::Bool(true) {
            for (_, m) in members {
                self.anything(m);
            }
            return Some(());
        }
        let map = schema.as_object()?;
        let followed = map
            .keys()
            .all(|k| OBJECT_KEYWORDS.contains(&k.as_str()) || !ASSERTING.contains(&k.as_str()));
        if !followed || !type_allows(map.get("type"), "object") {
            return None;
        }
        let required = map
            .get("required")
            .map_or(Some(&[][..]), |r| r.as_array().map(Vec::as_slice))?;
        let has = |name: &Value| members.iter().any(|(k, _)| Some(*k) == name.as_str());
        if !required.iter().all(has) {
            return None;
        }
        let properties = map.get("properties").and_then(Value::as_object);
        for (key, member) in members {
            let place = if properties.is_some_and(|p| p.contains_key(*key)) {
                format!("{pointer}/properties/{}", escape(key))
            } else if map.contains_key("additionalProperties") {
                format!("{pointer}/additionalProperties")
            } else {
                self.anything(member);
                continue;
            };
            self.place(&place, member)?;
        }
        Some(())
    }

    /// A part of the output the schema does not constrain: its computed parts are accepted.
    fn anything(&mut self, shape: &OutputShape<'_>) {
        match shape {
            OutputShape::Object(members) => members.iter().for_each(|(_, m)| self.anything(m)),
            OutputShape::Computed => self.leaves.push(Leaf::Any),
            _ => {}
        }
    }

    /// A constant: valid once, valid for every body.
    fn constant(
        &self,
        pointer: &str,
        schema: &Value,
        value: &syncdef_transform::Value,
    ) -> Option<()> {
        let text = value.to_json_compact();
        match self.leaf(pointer, schema)? {
            Leaf::Any => Some(()),
            Leaf::Scalar(rule) if rule.admits(&text) => Some(()),
            // Decided by the schema itself when the few comparisons do not prove it.
            _ => {
                let schema = self.compile(pointer)?;
                let doc = Indexed::new(&text)?;
                schema.is_valid(doc.root()).then_some(())
            }
        }
    }

    /// The check of a computed value under `schema` (at `pointer`).
    fn leaf(&self, pointer: &str, schema: &Value) -> Option<Leaf> {
        match schema {
            Value::Bool(true) => return Some(Leaf::Any),
            Value::Bool(false) => return None,
            _ => {}
        }
        let map = schema.as_object()?;
        if !map.keys().any(|k| ASSERTING.contains(&k.as_str())) {
            return Some(Leaf::Any);
        }
        if let Some(rule) = ScalarRule::of(map) {
            return Some(Leaf::Scalar(rule));
        }
        self.compile(pointer).map(Leaf::Schema)
    }

    /// The schema at `pointer`, compiled on its own within its document (for its `$ref`s).
    fn compile(&self, pointer: &str) -> Option<jsonschema::Validator<TextJson>> {
        // The pointer becomes a URI fragment: keep to characters that need no encoding.
        let plain = pointer
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/~_.-".contains(&b));
        if !plain {
            return None;
        }
        let mut doc = self.doc.clone();
        doc.as_object_mut()?
            .insert("$ref".into(), Value::String(format!("#{pointer}")));
        jsonschema::options_for::<TextJson>()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&doc)
            .ok()
    }
}

/// Whether a `type` keyword (absent, a name or a list of names) allows `name`.
fn type_allows(types: Option<&Value>, name: &str) -> bool {
    match types {
        None => true,
        Some(Value::String(t)) => t == name,
        Some(Value::Array(all)) => all.iter().any(|t| t.as_str() == Some(name)),
        Some(_) => false,
    }
}

/// RFC 6901 escaping of one reference token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The few assertions most request fields carry, read without a schema walk: the kinds the
/// value may be, the length of a string, an enumeration, numeric bounds.
#[derive(Debug, Default)]
pub(crate) struct ScalarRule {
    /// Allowed kinds, `None` for any.
    kinds: Option<Kinds>,
    max_length: Option<u64>,
    min_length: Option<u64>,
    /// The compact JSON text of each allowed value (`enum`, or `const` alone).
    one_of: Option<Vec<String>>,
    minimum: Option<f64>,
    maximum: Option<f64>,
    exclusive_minimum: Option<f64>,
    exclusive_maximum: Option<f64>,
}

/// The JSON kinds a `type` keyword allows.
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "one flag per JSON type, as the `type` keyword lists them; any combination is valid"
)]
struct Kinds {
    null: bool,
    boolean: bool,
    integer: bool,
    number: bool,
    string: bool,
    array: bool,
    object: bool,
}

impl Kinds {
    fn of(types: &Value) -> Option<Kinds> {
        let mut kinds = Kinds::default();
        let names: Vec<&str> = match types {
            Value::String(t) => vec![t.as_str()],
            Value::Array(all) => all.iter().map(Value::as_str).collect::<Option<_>>()?,
            _ => return None,
        };
        for name in names {
            let slot = match name {
                "null" => &mut kinds.null,
                "boolean" => &mut kinds.boolean,
                "integer" => &mut kinds.integer,
                "number" => &mut kinds.number,
                "string" => &mut kinds.string,
                "array" => &mut kinds.array,
                "object" => &mut kinds.object,
                _ => return None,
            };
            *slot = true;
        }
        Some(kinds)
    }
}

impl ScalarRule {
    /// The rule of a schema whose assertions are all scalar ones, well formed.
    pub(crate) fn of(map: &serde_json::Map<String, Value>) -> Option<ScalarRule> {
        let mut rule = ScalarRule::default();
        for (key, value) in map {
            match key.as_str() {
                "type" => rule.kinds = Some(Kinds::of(value)?),
                "maxLength" => rule.max_length = Some(value.as_u64()?),
                "minLength" => rule.min_length = Some(value.as_u64()?),
                "enum" => rule.one_of = Some(texts(value.as_array()?)),
                "minimum" => rule.minimum = Some(value.as_f64()?),
                "maximum" => rule.maximum = Some(value.as_f64()?),
                "exclusiveMinimum" => rule.exclusive_minimum = Some(value.as_f64()?),
                "exclusiveMaximum" => rule.exclusive_maximum = Some(value.as_f64()?),
                other if ASSERTING.contains(&other) => return None,
                _ => {}
            }
        }
        if let Some(constant) = map.get("const") {
            // `const` beside `enum` would need both: leave that to the schema.
            if rule.one_of.is_some() {
                return None;
            }
            rule.one_of = Some(texts(std::slice::from_ref(constant)));
        }
        Some(rule)
    }

    /// Whether the compact JSON text `text` is proven to fit; `false` when it does not or
    /// when a few comparisons cannot tell.
    pub(crate) fn admits(&self, text: &str) -> bool {
        let Some(&first) = text.as_bytes().first() else {
            return false;
        };
        if let Some(all) = &self.one_of
            && !all.iter().any(|t| t == text)
        {
            return false;
        }
        match first {
            b'"' => self.string_admits(text),
            b'n' => self.kinds.is_none_or(|k| k.null),
            b't' | b'f' => self.kinds.is_none_or(|k| k.boolean),
            b'[' => self.kinds.is_none_or(|k| k.array),
            b'{' => self.kinds.is_none_or(|k| k.object),
            _ => self.number_admits(text),
        }
    }

    /// A string (`text` with its quotes): its length is bounded by its bytes first, which
    /// needs no scan; characters are counted only near a bound, and only without escapes.
    fn string_admits(&self, text: &str) -> bool {
        if !self.kinds.is_none_or(|k| k.string) {
            return false;
        }
        let bytes = text.len().saturating_sub(2) as u64;
        let chars = || text.chars().count().saturating_sub(2) as u64;
        // A decoded string has at most as many characters as its text has bytes, and at least
        // one per 12 bytes (`\ud83d\ude00` is one character).
        if let Some(max) = self.max_length
            && bytes > max
            && (text.contains('\\') || chars() > max)
        {
            return false;
        }
        if let Some(min) = self.min_length
            && bytes.div_ceil(12) < min
            && (text.contains('\\') || chars() < min)
        {
            return false;
        }
        true
    }

    /// A number (the text is a JSON number, as written by a JSON writer): bounds are proven
    /// only for a plain integer of at most 15 digits (exact as `f64`); any other form is left to
    /// the schema, unless only `number` is asked.
    fn number_admits(&self, text: &str) -> bool {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let integer =
            !digits.is_empty() && digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit());
        let unbounded = self.minimum.is_none()
            && self.maximum.is_none()
            && self.exclusive_minimum.is_none()
            && self.exclusive_maximum.is_none();
        if !integer {
            // Any JSON number is a `number`; whether `1.0` is an integer, or where a decimal
            // falls against a bound, is the schema's to say.
            return unbounded && self.kinds.is_none_or(|k| k.number);
        }
        if !self.kinds.is_none_or(|k| k.integer || k.number) {
            return false;
        }
        let Ok(n) = text.parse::<i64>() else {
            return false;
        };
        #[expect(
            clippy::cast_precision_loss,
            reason = "at most 15 digits, which an f64 holds exactly"
        )]
        let n = n as f64;
        self.minimum.is_none_or(|m| n >= m)
            && self.maximum.is_none_or(|m| n <= m)
            && self.exclusive_minimum.is_none_or(|m| n > m)
            && self.exclusive_maximum.is_none_or(|m| n < m)
    }
}

/// The compact JSON text of each value.
fn texts(values: &[Value]) -> Vec<String> {
    values.iter().map(Value::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;
    use syncdef_transform::{Settings, Template};

    /// A converted document as the request check makes them: the root a `$ref` to the body.
    fn doc() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": "#/x-syncdef-root",
            "x-syncdef-root": {"$ref": "#/components/schemas/Customer"},
            "components": {"schemas": {
                "Customer": {
                    "type": "object",
                    "required": ["DisplayName"],
                    "additionalProperties": false,
                    "properties": {
                        "DisplayName": {"type": "string", "maxLength": 5, "minLength": 1},
                        "Kind": {"type": "string", "enum": ["a", "b"]},
                        "Count": {"type": ["integer", "null"], "minimum": 0, "exclusiveMaximum": 10},
                        "Code": {"type": "string", "pattern": "^[A-Z]+$"},
                        "Addr": {"$ref": "#/components/schemas/Addr"},
                        "Free": {"description": "anything"},
                        "Fixed": {"const": "x"}
                    }
                },
                "Addr": {
                    "type": "object",
                    "properties": {"Line1": {"type": "string", "maxLength": 3}}
                }
            }}
        })
    }

    const TEMPLATE: &str = r##"{
        "DisplayName": "#valueof($.name)",
        "Kind": "#valueof($.kind)",
        "Count": "#valueof($.count)",
        "Code": "#valueof($.code)",
        "Addr": {"Line1": "#valueof($.line)", "Other": "#valueof($.other)"},
        "Free": "#valueof($.free)",
        "Fixed": "x"
    }"##;

    fn template(text: &str) -> Template {
        Template::compile_str(text, &Settings::default()).expect("compiles")
    }

    fn whole(doc: &Value) -> jsonschema::Validator {
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(doc)
            .expect("compiles")
    }

    /// The body the template writes for `record`, and whether the guard proved it.
    fn render(guard: &BodyGuard, t: &Template, record: &Value) -> (String, bool) {
        let input = syncdef_transform::Value::from(record.clone());
        let mut out = String::new();
        let mut watch = guard.watch();
        t.apply_to_json_observed(&input, &mut out, &mut watch)
            .expect("applies");
        (out, watch.proven())
    }

    #[test]
    fn ordinary_records_are_proven_without_the_whole_body_check() {
        let doc = doc();
        let t = template(TEMPLATE);
        let guard = BodyGuard::build(&doc, &t.output_shape()).expect("a guard");
        let record = json!({"name": "Ann", "kind": "a", "count": 3, "code": "AB", "line": "x",
            "other": [1], "free": {"any": true}});
        let (body, proven) = render(&guard, &t, &record);
        assert!(proven, "{body}");
        assert!(whole(&doc).is_valid(&serde_json::from_str(&body).expect("json")));
    }

    #[test]
    fn each_broken_value_is_left_to_the_whole_body_check() {
        let doc = doc();
        let t = template(TEMPLATE);
        let guard = BodyGuard::build(&doc, &t.output_shape()).expect("a guard");
        let base = json!({"name": "Ann", "kind": "a", "count": 3, "code": "AB", "line": "x"});
        for (field, value) in [
            ("name", json!("toolong")),
            ("name", json!("")),
            ("name", json!(null)),
            ("kind", json!("c")),
            ("count", json!(10)),
            ("count", json!(-1)),
            ("count", json!("3")),
            ("code", json!("ab")),
            ("line", json!("long")),
        ] {
            let mut record = base.clone();
            record[field] = value.clone();
            let (body, proven) = render(&guard, &t, &record);
            assert!(!proven, "{field} = {value} was proven: {body}");
            assert!(!whole(&doc).is_valid(&serde_json::from_str(&body).expect("json")));
        }
    }

    #[test]
    fn structures_the_walk_cannot_prove_get_no_guard() {
        let doc = doc();
        for text in [
            // A required member missing, a member the schema forbids, a bad constant.
            r##"{"Kind": "#valueof($.kind)"}"##,
            r##"{"DisplayName": "#valueof($.name)", "Nope": 1}"##,
            r##"{"DisplayName": "#valueof($.name)", "Fixed": "y"}"##,
            r##"{"DisplayName": "#valueof($.name)", "Count": "3"}"##,
        ] {
            let t = template(text);
            assert!(
                BodyGuard::build(&doc, &t.output_shape()).is_none(),
                "{text} got a guard"
            );
        }
    }

    #[test]
    fn a_computed_object_is_checked_whole_by_the_schema_at_its_place() {
        let doc = doc();
        let t = template(r##"{"#ifgroup(#valueof($.b))": {"DisplayName": "#valueof($.name)"}}"##);
        let guard = BodyGuard::build(&doc, &t.output_shape()).expect("a guard");
        assert!(render(&guard, &t, &json!({"b": true, "name": "Ann"})).1);
        assert!(!render(&guard, &t, &json!({"b": false, "name": "Ann"})).1);
    }

    #[test]
    fn formats_are_annotations_as_the_validators_are_built() {
        let schema = json!({"type": "string", "format": "email"});
        assert!(whole(&schema).is_valid(&json!("not an email")));
        let rule = ScalarRule::of(schema.as_object().expect("an object")).expect("a scalar rule");
        assert!(rule.admits("\"not an email\""));
    }

    fn json_value() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            (-20i64..20).prop_map(|n| json!(n)),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| json!(f)),
            "[a-cA-C\\\\\"\u{e9}\u{1F600}\n]{0,8}".prop_map(Value::String),
            Just(json!([1, "a"])),
            Just(json!({"k": "v"})),
        ]
    }

    proptest! {
        /// Whatever the record, a body the guard proves is one the schema accepts.
        #[test]
        fn a_proven_body_is_always_valid(
            name in json_value(), kind in json_value(), count in json_value(),
            code in json_value(), line in json_value(), other in json_value(),
        ) {
            let doc = doc();
            let t = template(TEMPLATE);
            let guard = BodyGuard::build(&doc, &t.output_shape()).expect("a guard");
            let record = json!({"name": name, "kind": kind, "count": count, "code": code,
                "line": line, "other": other});
            let (body, proven) = render(&guard, &t, &record);
            let parsed: Value = serde_json::from_str(&body).expect("json");
            if proven {
                prop_assert!(whole(&doc).is_valid(&parsed), "proven but invalid: {}", body);
            }
        }
    }
}
