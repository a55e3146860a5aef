//! Whether a value fits an OpenAPI schema, decided by walking both trees where that is certain.
//!
//! Checking an example the usual way converts the schema and the closure of its `$ref`s to
//! JSON Schema and compiles a validator: on a description the size of GitHub's that is most of
//! a lint's time and memory, for examples that nearly all fit. This walk reads the schema
//! nodes in place and answers [`Verdict::Fits`] or [`Verdict::Breaks`] only where the answer
//! is the one the compiled validator of [`super::openapi::convert`]'s output gives; anything
//! else (a regular expression, a keyword it does not know, a number it cannot compare
//! exactly, a chain too deep) is [`Verdict::Unknown`], and the caller compiles. A property
//! test holds the two to the same answers.

mod reason;

use std::cell::{Cell, RefCell};

use syncdef_definitions::{Items, Member, Node, NodeIdentity, NodeKind, NumberValue};

use super::openapi::Direction;

/// What the walk could decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The value fits the schema.
    Fits,
    /// The value does not fit.
    Breaks,
    /// Not decided here: compile the schema to know.
    Unknown,
}

use Verdict::{Breaks, Fits, Unknown};

/// Schema nesting followed before giving up.
const MAX_DEPTH: u32 = 48;

/// Schema-and-value pairs visited per verdict before giving up: combinators over shared
/// schemas (`allOf: [$ref: A, $ref: A]` at every level) would otherwise grow exponentially.
const MAX_STEPS: u32 = 50_000;

/// Keywords that never change whether a value fits (annotations, and `format`, which the
/// validators this mirrors treat as one).
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "example",
    "examples",
    "default",
    "readOnly",
    "writeOnly",
    "deprecated",
    "externalDocs",
    "xml",
    "discriminator",
    "format",
    "nullable",
    "$comment",
];

/// Whether `value` fits `schema` (an OpenAPI schema of document `root`) on the `direction`
/// side of an exchange.
pub(crate) fn verdict(root: &Node, schema: &Node, value: &Node, direction: Direction) -> Verdict {
    Walk::new(*root, direction, false).fits(schema, value, 0)
}

/// How a value breaks its schema: the part at fault and the rule it breaks.
pub(crate) struct Mismatch<'v> {
    /// The node of the value at fault.
    pub node: Node<'v>,
    /// Its JSON pointer inside the value (`""` for the value itself).
    pub pointer: String,
    /// The rule broken, worded as [`crate::request_schema::describe`] words a compiled
    /// validator's error.
    pub reason: String,
}

/// The first way `value` breaks `schema`, when the walk decides that it does.
pub(crate) fn mismatch<'v>(
    root: &Node,
    schema: &Node,
    value: Node<'v>,
    direction: Direction,
) -> Option<Mismatch<'v>> {
    let walk = Walk::new(*root, direction, true);
    if walk.fits(schema, &value, 0) != Breaks {
        return None;
    }
    let (at, reason) = walk.cause.into_inner()?;
    // The cause was recorded by identity; find that node in the value to lend it out.
    let mut pointer = String::new();
    let node = find_node(value, at, &mut pointer)?;
    Some(Mismatch {
        node,
        pointer,
        reason,
    })
}

fn find_node<'v>(value: Node<'v>, at: NodeIdentity, pointer: &mut String) -> Option<Node<'v>> {
    if value.identity() == at {
        return Some(value);
    }
    let len = pointer.len();
    let children: Vec<(String, Node<'v>)> = match value.kind {
        NodeKind::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, n)| (i.to_string(), n))
            .collect(),
        NodeKind::Object(members) => members
            .iter()
            .map(|m| {
                (
                    syncdef_definitions::pointer::escape(m.key.name).into_owned(),
                    m.value,
                )
            })
            .collect(),
        _ => return None,
    };
    for (token, child) in children {
        pointer.push('/');
        pointer.push_str(&token);
        if let Some(found) = find_node(child, at, pointer) {
            return Some(found);
        }
        pointer.truncate(len);
    }
    None
}

struct Walk<'n> {
    root: Node<'n>,
    direction: Direction,
    steps: Cell<u32>,
    /// The schema-and-value pairs being decided: meeting one again is a cycle that consumes
    /// no value (`A: {allOf: [$ref: A]}`), which only the compiled validator can judge.
    open: RefCell<Vec<(NodeIdentity, NodeIdentity)>>,
    /// Whether to record why a value breaks (only when a mismatch is reported: the wording
    /// costs allocations the plain verdict does without).
    explain: bool,
    /// The first cause recorded: the value node at fault and the rule it breaks.
    cause: RefCell<Option<(NodeIdentity, String)>>,
}

impl<'n> Walk<'n> {
    fn new(root: Node<'n>, direction: Direction, explain: bool) -> Self {
        Walk {
            root,
            direction,
            steps: Cell::new(0),
            open: RefCell::new(Vec::new()),
            explain,
            cause: RefCell::new(None),
        }
    }

    /// Records `reason` at `value` unless a cause was recorded already.
    fn blame(&self, value: &Node, reason: impl FnOnce() -> String) {
        if self.explain && self.cause.borrow().is_none() {
            *self.cause.borrow_mut() = Some((value.identity(), reason()));
        }
    }

    /// Runs `judge` with what it records discarded: the alternatives of `anyOf`, `oneOf` and
    /// `not` are expected to break; only the combinator's own verdict is a cause.
    fn tentatively(&self, judge: impl FnOnce() -> Verdict) -> Verdict {
        let saved = self.cause.borrow_mut().take();
        let verdict = judge();
        *self.cause.borrow_mut() = saved;
        verdict
    }

    fn fits(&self, schema: &Node, value: &Node, depth: u32) -> Verdict {
        self.steps.set(self.steps.get() + 1);
        if depth > MAX_DEPTH || self.steps.get() > MAX_STEPS {
            return Unknown;
        }
        let pair = (schema.identity(), value.identity());
        if self.open.borrow().contains(&pair) {
            return Unknown;
        }
        self.open.borrow_mut().push(pair);
        let verdict = self.decide(schema, value, depth);
        self.open.borrow_mut().pop();
        verdict
    }

    fn decide(&self, schema: &Node, value: &Node, depth: u32) -> Verdict {
        let members = match &schema.kind {
            NodeKind::Object(members) => members,
            NodeKind::Bool(true) => return Fits,
            NodeKind::Bool(false) => {
                self.blame(value, || "false, no value is allowed here".to_owned());
                return Breaks;
            }
            _ => return Unknown,
        };
        if let Some(reference) = schema.get("$ref") {
            // OpenAPI 3.0 ignores a reference's siblings, and so does the conversion.
            return match reference.as_str().and_then(|r| r.strip_prefix('#')) {
                Some(pointer) => match self.root.pointer(pointer) {
                    Some(target) => self.fits(&target, value, depth + 1),
                    None => Unknown,
                },
                None => Unknown,
            };
        }
        let nullable = schema.get("nullable").and_then(Node::as_bool) == Some(true);
        let mut result = Fits;
        for member in members {
            let one = self.keyword(schema, &member, value, nullable, depth);
            result = all(result, one);
            if result == Breaks {
                // Breaking is certain whatever the other keywords say.
                return Breaks;
            }
        }
        result
    }

    fn keyword(
        &self,
        schema: &Node,
        member: &Member,
        value: &Node,
        nullable: bool,
        depth: u32,
    ) -> Verdict {
        let arg = &member.value;
        let name = member.key.name;
        if name.starts_with("x-") || ANNOTATIONS.contains(&name) {
            return Fits;
        }
        let verdict = match name {
            "properties" => return self.properties_fit(arg, value, depth),
            "additionalProperties" => return self.additional_fit(schema, arg, value, depth),
            "items" => return self.items_fit(arg, value, depth),
            "allOf" => return self.all_of(arg, value, depth),
            "anyOf" => self.tentatively(|| self.each(arg, value, depth, any)),
            "oneOf" => self.one_of(arg, value, depth),
            "not" => self.tentatively(|| match self.fits(arg, value, depth + 1) {
                Fits => Breaks,
                Breaks => Fits,
                Unknown => Unknown,
            }),
            "type" => type_fits(arg, value, nullable),
            "enum" => enum_fits(arg, value, nullable),
            "const" => equal(arg, value),
            "required" => self.required_fits(schema, arg, value),
            "minLength" | "maxLength" => length_fits(name, arg, value),
            "minItems" | "maxItems" => {
                count_fits(name, arg, value.as_array().map(|items| items.len()))
            }
            "minProperties" | "maxProperties" => {
                count_fits(name, arg, value.as_object().map(|members| members.len()))
            }
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                bound_fits(schema, name, arg, value)
            }
            _ => Unknown,
        };
        if verdict == Breaks {
            self.blame(value, || {
                // 3.0's boolean flag makes `minimum` an exclusive bound.
                let flagged = |flag| schema.get(flag).and_then(Node::as_bool) == Some(true);
                let shown = match name {
                    "minimum" if flagged("exclusiveMinimum") => "exclusiveMinimum",
                    "maximum" if flagged("exclusiveMaximum") => "exclusiveMaximum",
                    other => other,
                };
                let required = |name: &str| self.required_fits_name(schema, name, value);
                reason::of(shown, arg, value, nullable, required)
            });
        }
        verdict
    }

    fn one_of(&self, schemas: &Node, value: &Node, depth: u32) -> Verdict {
        let mut fitting = 0;
        let verdict = self.tentatively(|| {
            self.each(schemas, value, depth, |verdicts| {
                fitting = verdicts.iter().filter(|v| **v == Fits).count();
                one(verdicts)
            })
        });
        if verdict == Breaks {
            self.blame(value, || reason::one_of(fitting));
        }
        verdict
    }

    fn all_of(&self, schemas: &Node, value: &Node, depth: u32) -> Verdict {
        // The first alternative that breaks records its own cause.
        self.each(schemas, value, depth, |vs| {
            vs.iter().copied().fold(Fits, all)
        })
    }

    fn properties_fit(&self, properties: &Node, value: &Node, depth: u32) -> Verdict {
        let Some(members) = value.as_object() else {
            return Fits;
        };
        if properties.as_object().is_none() {
            return Unknown;
        }
        let mut result = Fits;
        for member in members {
            if let Some(schema) = properties.get(member.key.name) {
                result = all(result, self.fits(&schema, &member.value, depth + 1));
                if result == Breaks {
                    return Breaks;
                }
            }
        }
        result
    }

    fn required_fits(&self, schema: &Node, required: &Node, value: &Node) -> Verdict {
        if value.as_object().is_none() {
            return Fits;
        }
        let Some(names) = required.as_array() else {
            return Unknown;
        };
        if has_duplicates(names) {
            // Names must be unique; validators differ on a list that repeats one.
            return Unknown;
        }
        if names.iter().any(|n| n.as_str().is_none()) {
            return Unknown;
        }
        let missing = names
            .iter()
            .filter_map(Node::as_str)
            .any(|name| !self.required_fits_name(schema, name, value));
        decided(!missing)
    }

    /// Whether the object `value` has the required member `name`, or need not have it on this
    /// side of the exchange (`readOnly` in requests, `writeOnly` in responses).
    fn required_fits_name(&self, schema: &Node, name: &str, value: &Node) -> bool {
        let skipped = match self.direction {
            Direction::Request => "readOnly",
            Direction::Response => "writeOnly",
        };
        let flagged = schema
            .get("properties")
            .and_then(|p| p.get(name))
            .and_then(|p| p.get(skipped))
            .and_then(Node::as_bool)
            == Some(true);
        flagged || value.get(name).is_some()
    }

    fn additional_fit(
        &self,
        schema: &Node,
        additional: &Node,
        value: &Node,
        depth: u32,
    ) -> Verdict {
        let Some(members) = value.as_object() else {
            return Fits;
        };
        if schema.get("patternProperties").is_some() {
            return Unknown;
        }
        let declared = schema.get("properties");
        let undeclared = || {
            members
                .iter()
                .filter(move |m| declared.is_none_or(|d| d.get(m.key.name).is_none()))
        };
        if additional.as_bool() == Some(false) {
            let names: Vec<&str> = undeclared().map(|m| m.key.name).collect();
            if names.is_empty() {
                return Fits;
            }
            self.blame(value, || reason::additional(&names));
            return Breaks;
        }
        let mut result = Fits;
        for member in undeclared() {
            result = all(result, self.fits(additional, &member.value, depth + 1));
            if result == Breaks {
                return Breaks;
            }
        }
        result
    }

    fn items_fit(&self, items: &Node, value: &Node, depth: u32) -> Verdict {
        let Some(elements) = value.as_array() else {
            return Fits;
        };
        if items.as_array().is_some() {
            // Tuple form (draft 4 style) means something else in 2020-12.
            return Unknown;
        }
        let mut result = Fits;
        for element in elements {
            result = all(result, self.fits(items, &element, depth + 1));
            if result == Breaks {
                return Breaks;
            }
        }
        result
    }

    fn each(
        &self,
        schemas: &Node,
        value: &Node,
        depth: u32,
        mut combine: impl FnMut(&[Verdict]) -> Verdict,
    ) -> Verdict {
        let Some(schemas) = schemas.as_array() else {
            return Unknown;
        };
        if schemas.is_empty() {
            return Unknown;
        }
        let verdicts: Vec<Verdict> = schemas
            .iter()
            .map(|s| self.fits(&s, value, depth + 1))
            .collect();
        combine(&verdicts)
    }
}

fn has_duplicates(names: Items<'_>) -> bool {
    let mut sorted: Vec<Option<&str>> = names.iter().map(Node::as_str).collect();
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w[0] == w[1])
}

fn all(a: Verdict, b: Verdict) -> Verdict {
    match (a, b) {
        (Breaks, _) | (_, Breaks) => Breaks,
        (Unknown, _) | (_, Unknown) => Unknown,
        (Fits, Fits) => Fits,
    }
}

fn any(verdicts: &[Verdict]) -> Verdict {
    if verdicts.contains(&Fits) {
        Fits
    } else if verdicts.contains(&Unknown) {
        Unknown
    } else {
        Breaks
    }
}

fn one(verdicts: &[Verdict]) -> Verdict {
    if verdicts.contains(&Unknown) {
        return Unknown;
    }
    if verdicts.iter().filter(|v| **v == Fits).count() == 1 {
        Fits
    } else {
        Breaks
    }
}

/// The JSON Schema type of `value`, or `None` for a number whose integer-ness depends on how
/// the validator reads a fraction of zero (`1.0`).
fn type_of(value: &Node) -> Option<&'static str> {
    Some(match &value.kind {
        NodeKind::Null => "null",
        NodeKind::Bool(_) => "boolean",
        NodeKind::String(_) => "string",
        NodeKind::Array(_) => "array",
        NodeKind::Object(_) => "object",
        NodeKind::Number(n) => match n.value {
            NumberValue::PosInt(_) | NumberValue::NegInt(_) => "integer",
            NumberValue::Float(f) if f.is_finite() && f.fract() != 0.0 => "number",
            // `1.0` (integer or not, by validator) and YAML's `.inf`/`.nan` (no JSON value).
            NumberValue::Float(_) => return None,
        },
    })
}

fn type_fits(types: &Node, value: &Node, nullable: bool) -> Verdict {
    let Some(actual) = type_of(value) else {
        return Unknown;
    };
    let names: Vec<&str> = match &types.kind {
        NodeKind::String(s) => vec![&s.value],
        NodeKind::Array(items) => match items.iter().map(Node::as_str).collect::<Option<_>>() {
            Some(names) => names,
            None => return Unknown,
        },
        _ => return Unknown,
    };
    let admits = |name: &str| match name {
        "number" => actual == "number" || actual == "integer",
        "string" | "integer" | "boolean" | "array" | "object" | "null" => name == actual,
        _ => false,
    };
    if names.iter().any(|n| !is_type_name(n)) {
        return Unknown;
    }
    // The conversion adds `null` to a single type of a nullable schema.
    let null_added = nullable && types.as_str().is_some();
    if names.iter().any(|n| admits(n)) || (null_added && actual == "null") {
        Fits
    } else {
        Breaks
    }
}

fn is_type_name(name: &str) -> bool {
    matches!(
        name,
        "number" | "string" | "integer" | "boolean" | "array" | "object" | "null"
    )
}

fn enum_fits(allowed: &Node, value: &Node, nullable: bool) -> Verdict {
    let Some(allowed) = allowed.as_array() else {
        return Unknown;
    };
    if nullable && value.is_null() {
        return Fits;
    }
    let mut result = Breaks;
    for candidate in allowed {
        match equal(&candidate, value) {
            Fits => return Fits,
            Unknown => result = Unknown,
            Breaks => {}
        }
    }
    result
}

/// JSON equality as the validators read it, where it is certain: numbers compare by value, so
/// two numbers written differently (`1` and `1.0`) are left undecided.
#[expect(
    clippy::many_single_char_names,
    reason = "the two sides side by side: nodes `a`/`b`, numbers `x`/`y`, their values `p`/`q`"
)]
fn equal(a: &Node, b: &Node) -> Verdict {
    match (&a.kind, &b.kind) {
        (NodeKind::Null, NodeKind::Null) => Fits,
        (NodeKind::Bool(x), NodeKind::Bool(y)) => decided(x == y),
        (NodeKind::String(x), NodeKind::String(y)) => decided(x.value == y.value),
        (NodeKind::Number(x), NodeKind::Number(y)) => match (x.value, y.value) {
            (NumberValue::PosInt(p), NumberValue::PosInt(q)) => decided(p == q),
            (NumberValue::NegInt(p), NumberValue::NegInt(q)) => decided(p == q),
            (NumberValue::PosInt(_), NumberValue::NegInt(_))
            | (NumberValue::NegInt(_), NumberValue::PosInt(_)) => Breaks,
            _ if x.text == y.text => Fits,
            _ => Unknown,
        },
        (NodeKind::Array(x), NodeKind::Array(y)) => {
            if x.len() != y.len() {
                return Breaks;
            }
            x.iter().zip(y).map(|(p, q)| equal(&p, &q)).fold(Fits, all)
        }
        (NodeKind::Object(x), NodeKind::Object(y)) => {
            if x.len() != y.len() {
                return Breaks;
            }
            let mut result = Fits;
            for member in x {
                match y.get(member.key.name) {
                    Some(other) => result = all(result, equal(&member.value, &other.value)),
                    None => return Breaks,
                }
            }
            result
        }
        // A number against a non-number, or two different kinds.
        _ => Breaks,
    }
}

fn decided(yes: bool) -> Verdict {
    if yes { Fits } else { Breaks }
}

fn length_fits(keyword: &str, limit: &Node, value: &Node) -> Verdict {
    let Some(text) = value.as_str() else {
        return Fits;
    };
    count_fits(keyword, limit, Some(text.chars().count()))
}

/// `minLength`, `minItems`, `minProperties` and their `max` siblings against a count (`None`:
/// the value is of another kind, which these keywords do not constrain).
fn count_fits(keyword: &str, limit: &Node, count: Option<usize>) -> Verdict {
    let Some(count) = count else {
        return Fits;
    };
    let limit = match limit.kind {
        NodeKind::Number(n) => match n.value {
            NumberValue::PosInt(l) => l,
            _ => return Unknown,
        },
        _ => return Unknown,
    };
    let count = count as u64;
    decided(if keyword.starts_with("min") {
        count >= limit
    } else {
        count <= limit
    })
}

/// A numeric bound, with OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` read as
/// the conversion reads them.
fn bound_fits(schema: &Node, keyword: &str, limit: &Node, value: &Node) -> Verdict {
    let NodeKind::Number(actual) = &value.kind else {
        return Fits;
    };
    let (bound, flag) = match keyword {
        "minimum" | "exclusiveMinimum" => ("minimum", "exclusiveMinimum"),
        _ => ("maximum", "exclusiveMaximum"),
    };
    let (limit, exclusive) = if keyword == bound {
        // A boolean flag turns this bound exclusive (3.0).
        let exclusive = schema.get(flag).and_then(Node::as_bool) == Some(true);
        (limit, exclusive)
    } else {
        match limit.as_bool() {
            // 3.0's flag: read with its bound, above; without a bound it does nothing.
            Some(_) => return Fits,
            None => (limit, true),
        }
    };
    let NodeKind::Number(limit) = &limit.kind else {
        return Unknown;
    };
    let Some(order) = compare(actual.value, limit.value) else {
        return Unknown;
    };
    let below = bound == "maximum";
    let fits = match (below, exclusive) {
        (true, false) => order.is_le(),
        (true, true) => order.is_lt(),
        (false, false) => order.is_ge(),
        (false, true) => order.is_gt(),
    };
    decided(fits)
}

/// The order of two numbers where it is exact: integers as integers, anything else only when
/// both are floats that hold an integer-free value exactly.
fn compare(a: NumberValue, b: NumberValue) -> Option<std::cmp::Ordering> {
    let exact = |n: NumberValue| -> Option<i128> {
        match n {
            NumberValue::PosInt(p) => Some(i128::from(p)),
            NumberValue::NegInt(q) => Some(i128::from(q)),
            NumberValue::Float(_) => None,
        }
    };
    if let (Some(x), Some(y)) = (exact(a), exact(b)) {
        Some(x.cmp(&y))
    } else {
        let (x, y) = (a.as_f64(), b.as_f64());
        // f64 holds every integer up to 2^53 exactly; beyond, leave it to the validator.
        let safe = |f: f64| f.is_finite() && f.abs() < 9_007_199_254_740_992.0;
        if safe(x) && safe(y) {
            x.partial_cmp(&y)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests;
