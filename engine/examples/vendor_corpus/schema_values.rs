//! Values that fit a description's schemas: a constant of each type, strings drawn from their
//! `pattern`, numbers within their bounds, objects with their required properties.
//!
//! Not the values `syncdef new` writes (`syncdef_definitions::scaffold`), on purpose: those are
//! a starting point for a user, record fields read where one fits and elsewhere a placeholder
//! that shows it is still to decide (`TODO name`, an empty list, listed in `Scaffold::left`),
//! which a vendor may well refuse. This benchmark measures the engine and the linter over
//! bodies a careful author would have finished, so every value here must be one the schema
//! accepts (a draw from its `pattern`, a `oneOf` alternative that fits exactly one); the
//! scaffold's own output is measured apart, as it is (`scaffolded.rs`).

use serde_json::{Map, Value as Json, json};

/// Reads a document's schemas: `$ref`s followed, what they merge, values that fit them.
pub struct Resolver<'d> {
    pub document: &'d Json,
}

impl<'d> Resolver<'d> {
    /// `node` with its local `$ref`s followed.
    pub fn follow<'a>(&'a self, mut node: &'a Json) -> &'a Json
    where
        'd: 'a,
    {
        for _ in 0..32 {
            let Some(target) = node
                .get("$ref")
                .and_then(Json::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|pointer| self.document.pointer(&unescape_pointer(pointer)))
            else {
                break;
            };
            node = target;
        }
        node
    }

    /// The properties of `schema` and the names it requires, `allOf` merged and the first
    /// `oneOf`/`anyOf` alternative taken.
    pub fn merged(
        &self,
        schema: &Json,
        depth: usize,
        seen: &mut Vec<String>,
    ) -> (Map<String, Json>, Vec<String>) {
        let mut properties = Map::new();
        let mut required = Vec::new();
        if depth > 24 {
            return (properties, required);
        }
        let reference = schema.get("$ref").and_then(Json::as_str).map(str::to_owned);
        if let Some(r) = &reference {
            if seen.contains(r) {
                return (properties, required);
            }
            seen.push(r.clone());
        }
        let schema = self.follow(schema);
        if let Some(own) = schema.get("properties").and_then(Json::as_object) {
            for (k, v) in own {
                properties.insert(k.clone(), v.clone());
            }
        }
        for name in schema
            .get("required")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(name) = name.as_str()
                && !required.iter().any(|r| r == name)
            {
                required.push(name.to_owned());
            }
        }
        let parts = self.merged_parts(schema);
        for part in parts {
            let (p, r) = self.merged(part, depth + 1, seen);
            for (k, v) in p {
                properties.entry(k).or_insert(v);
            }
            for name in r {
                if !required.contains(&name) {
                    required.push(name);
                }
            }
        }
        if reference.is_some() {
            seen.pop();
        }
        (properties, required)
    }

    /// The first alternative that is not `null`.
    pub fn first_alternative<'a>(&'a self, alternatives: &'a [Json]) -> Option<&'a Json> {
        alternatives
            .iter()
            .find(|a| self.follow(a).get("type").and_then(Json::as_str) != Some("null"))
            .or(alternatives.first())
    }

    pub fn properties(
        &self,
        schema: &Json,
        depth: usize,
        seen: &mut Vec<String>,
    ) -> Map<String, Json> {
        self.merged(schema, depth, seen).0
    }

    /// The first of the types `schema` (or what it merges) declares, `null` last.
    pub fn kind(&self, schema: &Json, depth: usize) -> Option<String> {
        if depth > 24 {
            return None;
        }
        let schema = self.follow(schema);
        match schema.get("type") {
            Some(Json::String(t)) => return Some(t.clone()),
            Some(Json::Array(types)) => {
                let first = types
                    .iter()
                    .filter_map(Json::as_str)
                    .find(|t| *t != "null")
                    .or(types.first().and_then(Json::as_str));
                return first.map(str::to_owned);
            }
            _ => {}
        }
        let parts = self.merged_parts(schema);
        parts.into_iter().find_map(|p| self.kind(p, depth + 1))
    }

    /// What `schema` merges: its `allOf`, and the first alternative of its `oneOf` and `anyOf`.
    pub fn merged_parts<'s>(&'s self, schema: &'s Json) -> Vec<&'s Json> {
        let mut parts: Vec<&Json> = schema
            .get("allOf")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .collect();
        for key in ["oneOf", "anyOf"] {
            if let Some(first) = schema
                .get(key)
                .and_then(Json::as_array)
                .and_then(|a| self.first_alternative(a))
            {
                parts.push(first);
            }
        }
        parts
    }

    /// The first of `enum` or `const` of `schema` or what it merges.
    pub fn constant(&self, schema: &Json, depth: usize) -> Option<Json> {
        if depth > 24 {
            return None;
        }
        let schema = self.follow(schema);
        if let Some(value) = schema.get("const") {
            return Some(value.clone());
        }
        if let Some(values) = schema.get("enum").and_then(Json::as_array) {
            return values
                .iter()
                .find(|v| !v.is_null())
                .or(values.first())
                .cloned();
        }
        let parts = self.merged_parts(schema);
        parts.into_iter().find_map(|p| self.constant(p, depth + 1))
    }

    /// A value of `schema`'s type with every required property, recursively.
    pub fn example(&self, schema: &Json, depth: usize, seen: &mut Vec<String>) -> Json {
        if let Some(value) = self.constant(schema, 0) {
            return value;
        }
        if let Some(value) = self.fitting_alternative(schema, depth, seen) {
            return value;
        }
        let resolved = self.follow(schema);
        let kind = self.kind(schema, 0).or_else(|| {
            let (p, _) = self.merged(schema, 0, &mut Vec::new());
            (!p.is_empty() || resolved.get("required").is_some()).then(|| "object".to_owned())
        });
        let facet = |name: &str| self.facet(schema, name, 0);
        match kind.as_deref() {
            Some("object") => {
                if depth > 16 {
                    return json!({});
                }
                let reference = schema.get("$ref").and_then(Json::as_str).map(str::to_owned);
                if let Some(r) = &reference {
                    if seen.contains(r) {
                        return json!({});
                    }
                    seen.push(r.clone());
                }
                let (properties, required) = self.merged(schema, 0, &mut Vec::new());
                let mut out = Map::new();
                for name in required {
                    let Some(property) = properties.get(&name) else {
                        out.insert(name, json!("x"));
                        continue;
                    };
                    if self.follow(property).get("readOnly") == Some(&Json::Bool(true)) {
                        continue;
                    }
                    out.insert(name, self.example(property, depth + 1, seen));
                }
                self.fill_to_min_properties(schema, &properties, &mut out, depth, seen);
                if reference.is_some() {
                    seen.pop();
                }
                Json::Object(out)
            }
            Some("array") => {
                // A required array is sent with an item: an empty one is no field of a form
                // at all, and says nothing to a JSON API either.
                let count = facet("minItems")
                    .and_then(|n| n.as_u64())
                    .unwrap_or(1)
                    .clamp(1, 3)
                    .min(facet("maxItems").and_then(|n| n.as_u64()).unwrap_or(3));
                let items = self.items(schema, 0);
                // An array of the schema being built (a collection of collections) ends here,
                // unless it must have items.
                let cyclic = items
                    .and_then(|i| i.get("$ref"))
                    .and_then(Json::as_str)
                    .is_some_and(|r| seen.iter().any(|s| s == r));
                if cyclic && facet("minItems").is_none() {
                    return json!([]);
                }
                let item = items.map_or(json!("x"), |i| self.example(i, depth + 1, seen));
                Json::Array(vec![item; usize::try_from(count).unwrap_or(0)])
            }
            Some("integer") => json!(number(&facet, true)),
            Some("number") => json!(number(&facet, false)),
            Some("boolean") => json!(true),
            Some("null") => Json::Null,
            _ => Json::String(self.string(schema)),
        }
    }

    /// For a `oneOf` of several alternatives, the value of the first alternative that fits
    /// exactly one of them (the first alternative's value may fit several, which `oneOf`
    /// refuses); `None` when the schema has no such choice or no alternative's value fits.
    pub fn fitting_alternative(
        &self,
        schema: &Json,
        depth: usize,
        seen: &mut Vec<String>,
    ) -> Option<Json> {
        let resolved = self.follow(schema);
        let alternatives = resolved.get("oneOf")?.as_array()?;
        if alternatives.len() < 2 || depth > 16 {
            return None;
        }
        let validator = self.validator(resolved)?;
        alternatives.iter().find_map(|alternative| {
            let mut variant = resolved.clone();
            variant["oneOf"] = Json::Array(vec![alternative.clone()]);
            let value = self.example(&variant, depth, seen);
            validator.is_valid(&value).then_some(value)
        })
    }

    /// A validator of `schema`, its `$ref`s read in the whole document (OpenAPI 3.0's schemas
    /// as draft 4, 3.1's as 2020-12).
    pub fn validator(&self, schema: &Json) -> Option<jsonschema::Validator> {
        let mut root = self.document.clone();
        let members = root.as_object_mut()?;
        members.insert("x-checked".to_owned(), schema.clone());
        members.insert("$ref".to_owned(), Json::from("#/x-checked"));
        let openapi_30 = self
            .document
            .get("openapi")
            .and_then(Json::as_str)
            .is_some_and(|v| v.starts_with("3.0"));
        let draft = if openapi_30 {
            jsonschema::Draft::Draft4
        } else {
            jsonschema::Draft::Draft202012
        };
        jsonschema::options()
            .with_draft(draft)
            .should_validate_formats(false)
            .build(&root)
            .ok()
    }

    /// `out` with optional properties (then members its `additionalProperties` allows) added
    /// until it has the schema's `minProperties`.
    pub fn fill_to_min_properties(
        &self,
        schema: &Json,
        properties: &Map<String, Json>,
        out: &mut Map<String, Json>,
        depth: usize,
        seen: &mut Vec<String>,
    ) {
        let wanted = self
            .facet(schema, "minProperties", 0)
            .and_then(|n| n.as_u64())
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0);
        for (name, property) in properties {
            if out.len() >= wanted {
                return;
            }
            let read_only = self.follow(property).get("readOnly") == Some(&Json::Bool(true));
            if !out.contains_key(name) && !read_only {
                out.insert(name.clone(), self.example(property, depth + 1, seen));
            }
        }
        let additional = self.facet(schema, "additionalProperties", 0);
        let value = match &additional {
            Some(Json::Bool(false)) => return,
            Some(Json::Object(_)) => additional
                .as_ref()
                .map_or(json!("x"), |a| self.example(a, depth + 1, seen)),
            _ => json!("x"),
        };
        let mut next = 1;
        while out.len() < wanted {
            out.insert(format!("key{next}"), value.clone());
            next += 1;
        }
    }

    pub fn items<'a>(&'a self, schema: &'a Json, depth: usize) -> Option<&'a Json>
    where
        'd: 'a,
    {
        if depth > 24 {
            return None;
        }
        let schema = self.follow(schema);
        if let Some(items) = schema.get("items") {
            return Some(items);
        }
        schema
            .get("allOf")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .find_map(|p| self.items(p, depth + 1))
    }

    /// The keyword `name` of `schema` or of what it merges with `allOf`.
    pub fn facet(&self, schema: &Json, name: &str, depth: usize) -> Option<Json> {
        if depth > 24 {
            return None;
        }
        let schema = self.follow(schema);
        if let Some(value) = schema.get(name) {
            return Some(value.clone());
        }
        schema
            .get("allOf")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .find_map(|p| self.facet(p, name, depth + 1))
    }

    /// A string for `schema`: by its format, checked against its `pattern` and lengths.
    pub fn string(&self, schema: &Json) -> String {
        let format = self.facet(schema, "format", 0);
        let by_format = match format.as_ref().and_then(Json::as_str) {
            Some("date") => "2026-01-01",
            Some("date-time") => "2026-01-01T00:00:00Z",
            Some("time") => "00:00:00Z",
            Some("email") => "user@example.com",
            Some("uri" | "url" | "uri-reference") => "https://example.com/",
            Some("uuid") => "00000000-0000-4000-8000-000000000000",
            Some("byte") => "eA==",
            Some("ipv4") => "192.0.2.1",
            Some("ipv6") => "2001:db8::1",
            Some("hostname") => "example.com",
            _ => "x",
        };
        let mut check = Map::new();
        for key in ["pattern", "minLength", "maxLength"] {
            if let Some(value) = self.facet(schema, key, 0) {
                check.insert(key.to_owned(), value);
            }
        }
        if check.is_empty() {
            return by_format.to_owned();
        }
        let check = Json::Object(check);
        let Ok(validator) = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&check)
        else {
            return by_format.to_owned();
        };
        let min = check.get("minLength").and_then(Json::as_u64).unwrap_or(0);
        let padded = |s: &str| {
            let mut s = s.to_owned();
            while (s.chars().count() as u64) < min {
                s.push(s.chars().last().unwrap_or('x'));
            }
            s
        };
        for candidate in [by_format].into_iter().chain(CANDIDATES) {
            let candidate = padded(candidate);
            if validator.is_valid(&Json::String(candidate.clone())) {
                return candidate;
            }
        }
        let pattern = check.get("pattern").and_then(Json::as_str);
        pattern
            .and_then(|p| {
                let min = usize::try_from(min).unwrap_or(usize::MAX);
                matching(p, min, &|text| validator.is_valid(&Json::from(text)))
            })
            .unwrap_or_else(|| padded(by_format))
    }
}

/// Strings a schema's `pattern` and lengths are tried with before one is drawn from the pattern:
/// the common shapes of codes, names and identifiers, readable in the overlay.
const CANDIDATES: [&str; 30] = [
    "x",
    "1",
    "A",
    "a",
    "xx",
    "abc",
    "ABC",
    "123",
    "a1",
    "A1",
    "x-1",
    "x_1",
    "US",
    "USD",
    "en",
    "en-US",
    "2026-01-01",
    "2026-01-01T00:00:00Z",
    "user@example.com",
    "https://example.com/",
    "00000000-0000-4000-8000-000000000000",
    "+15555550100",
    "0",
    "00",
    "000",
    "0000",
    "12345",
    "123456",
    "1234567890",
    "aaaaaaaa",
];

/// A string matching `pattern` that `fits` (the schema's lengths too): drawn from the strings
/// the pattern describes, by proptest's generator of strings from a regular expression, with a
/// fixed seed so that every run writes the same definition. `None` when the pattern uses what
/// that generator cannot read (look-around, back-references) or no draw fits.
fn matching(pattern: &str, min: usize, fits: &dyn Fn(&str) -> bool) -> Option<String> {
    use proptest::strategy::{Strategy as _, ValueTree as _};
    // ECMA-262's classes, which JSON Schema's `pattern` uses, are ASCII. The generator draws
    // no anchors, so they are left out (outside a class): what it draws is checked by `fits`.
    let mut core = String::with_capacity(pattern.len());
    let mut in_class = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('w') => core.push_str("[A-Za-z0-9_]"),
                Some('d') => core.push_str("[0-9]"),
                Some('s') => core.push_str("[ ]"),
                Some(other) => {
                    core.push('\\');
                    core.push(other);
                }
                None => core.push('\\'),
            },
            '^' | '$' if !in_class => {}
            '[' => {
                in_class = true;
                core.push(c);
            }
            ']' => {
                in_class = false;
                core.push(c);
            }
            _ => core.push(c),
        }
    }
    let strategy = proptest::string::string_regex(&core).ok()?;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    (0..64).find_map(|_| {
        let drawn = strategy.new_tree(&mut runner).ok()?.current();
        // A pattern is not anchored unless it says so: text after a match keeps it.
        let mut padded = drawn.clone();
        while padded.chars().count() < min {
            padded.push('x');
        }
        [drawn, padded].into_iter().find(|s| fits(s))
    })
}

/// A number between the schema's bounds, a multiple of its `multipleOf`.
fn number(facet: &dyn Fn(&str) -> Option<Json>, integer: bool) -> Json {
    let min = facet("minimum").and_then(|v| v.as_f64());
    let exclusive_min = facet("exclusiveMinimum");
    let max = facet("maximum").and_then(|v| v.as_f64());
    let mut value = match (min, &exclusive_min) {
        (Some(m), Some(Json::Bool(true))) => m + 1.0,
        (_, Some(Json::Number(n))) => n.as_f64().unwrap_or(0.0) + 1.0,
        (Some(m), _) => m,
        _ => 1.0,
    };
    if let Some(max) = max
        && value > max
    {
        value = max;
    }
    if let Some(step) = facet("multipleOf").and_then(|v| v.as_f64())
        && step > 0.0
    {
        value = (value / step).ceil() * step;
    }
    if integer || value.fract() == 0.0 {
        #[allow(clippy::cast_possible_truncation)]
        return json!(value.ceil() as i64);
    }
    json!(value)
}

/// A JSON pointer of a `$ref` with its percent-encoding undone (`%7B` in a path key).
fn unescape_pointer(pointer: &str) -> String {
    if !pointer.contains('%') {
        return pointer.to_owned();
    }
    let bytes = pointer.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(hex) = std::str::from_utf8(&bytes[i + 1..i + 3])
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| pointer.to_owned())
}
