//! The walk of a document against the object type table: every problem, each at its node.
//!
//! One root cause per node: a value of the wrong type is reported once and not walked into; an
//! unknown field is reported at its key (with the field meant, when it is a near miss) and its
//! value is not checked against a guess.

use super::table::{
    CALLBACK, Field, ObjectType, PATH_ITEM, PATHS, RESPONSE, RESPONSES, ROOT, SECURITY_REQUIRED,
    SECURITY_SCHEME, Since, Ty,
};
use crate::members::Members;
use crate::members::same;
use crate::model::keys::near_miss;
use crate::model::{LoadProblem, ProblemKind};
use crate::node::{Key, Member, Node, NodeKind, NumberValue};
use crate::pointer;
use crate::source::Span;

/// The OpenAPI version whose rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Version {
    V30,
    V31,
}

pub(super) struct Walk {
    pub version: Version,
    /// Top-level keys that are not OpenAPI's (the `synchronization` section); a near miss of
    /// one is the section misspelt, which the section's own check reports.
    pub skip: &'static [&'static str],
    pub problems: Vec<LoadProblem>,
}

impl Walk {
    pub(super) fn v31(&self) -> bool {
        self.version == Version::V31
    }

    pub(super) fn problem(
        &mut self,
        span: Span,
        pointer: &str,
        message: String,
        help: Option<String>,
    ) {
        let mut p = LoadProblem::new(ProblemKind::OpenApi, span, pointer, message);
        p.help = help;
        self.problems.push(p);
    }

    /// A value of `node`'s type where `expected` is.
    pub(super) fn wrong_type(&mut self, node: &Node, pointer: &str, expected: &str) {
        self.problem(
            node.span,
            pointer,
            format!("expected {expected}, found {}", a(node)),
            None,
        );
    }

    /// A field `key` that object type `owner` (whose fields are `known`) does not have.
    pub(super) fn unknown_field(
        &mut self,
        key: &Key,
        pointer: &str,
        owner: &str,
        known: &[&'static str],
        members: Members<'_>,
    ) {
        let meant = near_miss(key.name, known, |k| members.iter().any(|m| m.key.name == k));
        let help = match meant {
            Some(meant) => format!("did you mean `{meant}`?"),
            None => "remove it, or prefix it with `x-` to make it an extension".to_owned(),
        };
        self.problem(
            key.span,
            pointer,
            format!("unknown field `{}` in {}", key.name, with_article(owner)),
            Some(help),
        );
    }

    /// The value at `place` (the span a missing field is reported at) of type `ty`.
    pub(super) fn value(&mut self, node: &Node, ty: Ty, pointer: &mut String, place: Span) {
        match ty {
            Ty::Any => {}
            Ty::Str => self.expect_str(node, pointer),
            Ty::Bool => self.expect_bool(node, pointer),
            Ty::OneOf(allowed) => match node.as_str() {
                Some(text) => self.expect_one_of(node, text, allowed, pointer),
                None => self.wrong_type(node, pointer, "a string"),
            },
            Ty::Obj(object) => self.object(node, object, pointer, place),
            Ty::RefOr(object) => {
                if node.as_object().is_some() && self.reference(node, pointer) {
                    return;
                }
                self.object(node, object, pointer, place);
            }
            Ty::Schema => self.schema(node, pointer),
            Ty::Map(inner) => self.map(node, pointer, |w, item, p| {
                let place = item.span;
                w.value(item, *inner, p, place);
            }),
            Ty::List(inner) => self.list(node, pointer, |w, item, p| {
                let place = item.span;
                w.value(item, *inner, p, place);
            }),
        }
    }

    /// A Reference Object, when `node` has `$ref`: checked, and `true` (not walked further).
    pub(super) fn reference(&mut self, node: &Node, pointer: &mut String) -> bool {
        let Some(target) = node.get("$ref") else {
            return false;
        };
        let len = pointer.len();
        pointer::push(pointer, "$ref");
        self.expect_str(&target, pointer);
        pointer.truncate(len);
        // 3.0 ignores whatever is beside `$ref`; 3.1 gives a Reference Object a `summary` and a
        // `description` (and JSON Schema keywords beside `$ref` in schemas): nothing to report.
        true
    }

    /// An object of type `object`; missing required fields are reported at `place`.
    pub(super) fn object(
        &mut self,
        node: &Node,
        object: &'static ObjectType,
        pointer: &mut String,
        place: Span,
    ) {
        let Some(members) = node.as_object() else {
            self.wrong_type(
                node,
                pointer,
                &format!("{} (an object)", with_article(object.name)),
            );
            return;
        };
        self.required(object, members, pointer, place);
        for m in members {
            let len = pointer.len();
            pointer::push(pointer, m.key.name);
            self.member(object, &m, members, pointer);
            pointer.truncate(len);
        }
        if std::ptr::eq(object, &raw const SECURITY_SCHEME) {
            self.security_scheme(node, pointer, place);
        }
    }

    /// The fields of `object` in this version.
    fn fields(&self, object: &'static ObjectType) -> impl Iterator<Item = &'static Field> + use<> {
        let v31 = self.v31();
        object
            .fields
            .iter()
            .filter(move |f| v31 || f.since == Since::Both)
    }

    fn required(&mut self, object: &ObjectType, members: Members<'_>, pointer: &str, place: Span) {
        let v30_only: &[&str] = if self.v31() {
            &[]
        } else {
            object.required_30_only
        };
        let missing: Vec<&str> = object
            .required
            .iter()
            .chain(v30_only)
            .filter(|name| !members.iter().any(|m| m.key.name == **name))
            .copied()
            .collect();
        if !missing.is_empty() {
            let names = missing.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>();
            self.problem(
                place,
                pointer,
                format!(
                    "{} needs {}",
                    with_article(object.name),
                    names.join(" and ")
                ),
                None,
            );
        }
    }

    /// One member of an object of type `object`.
    fn member(
        &mut self,
        object: &'static ObjectType,
        m: &Member,
        members: Members<'_>,
        pointer: &mut String,
    ) {
        let name = m.key.name;
        if let Some(field) = self.fields(object).find(|f| same(f.name, name)) {
            self.value(&m.value, field.ty, pointer, m.key.span);
            return;
        }
        if object.extensions && name.starts_with("x-") {
            return;
        }
        if std::ptr::eq(object, &raw const PATHS) && name.starts_with('/') {
            self.path_item(&m.value, pointer, m.key.span);
        } else if std::ptr::eq(object, &raw const RESPONSES) {
            self.value(&m.value, Ty::RefOr(&RESPONSE), pointer, m.key.span);
        } else if std::ptr::eq(object, &raw const CALLBACK) {
            self.path_item(&m.value, pointer, m.key.span);
        } else if std::ptr::eq(object, &raw const PATHS) {
            self.problem(
                m.key.span,
                pointer,
                format!("the path `{name}` does not start with `/`"),
                Some(format!("write it `/{name}`")),
            );
        } else if !(std::ptr::eq(object, &raw const ROOT) && self.is_skipped(name)) {
            let owner = object.name.trim_end_matches(" Object");
            let owner = format!("{owner} Object");
            let known: Vec<&'static str> = self.fields(object).map(|f| f.name).collect();
            self.unknown_field(&m.key, pointer, &owner, &known, members);
        }
    }

    /// Whether a top-level key is the synchronization section, or a near miss of it.
    fn is_skipped(&self, name: &str) -> bool {
        self.skip.contains(&name) || near_miss(name, self.skip, |_| false).is_some()
    }

    /// A Path Item: a `$ref` brings its fields from elsewhere; the fields beside it are still
    /// Path Item fields.
    fn path_item(&mut self, node: &Node, pointer: &mut String, place: Span) {
        self.object(node, &PATH_ITEM, pointer, place);
    }

    /// What each security scheme type requires beside `type`.
    fn security_scheme(&mut self, node: &Node, pointer: &str, place: Span) {
        let Some(kind) = node.get("type").and_then(Node::as_str) else {
            return;
        };
        if kind == "mutualTLS" && !self.v31() {
            let at = node.get("type").map_or(place, |t| t.span);
            self.problem(
                at,
                &format!("{pointer}/type"),
                "`mutualTLS` security schemes are OpenAPI 3.1".into(),
                Some("declare `openapi: 3.1.0`, or use another scheme type".into()),
            );
            return;
        }
        let Some((_, needed)) = SECURITY_REQUIRED.iter().find(|(t, _)| *t == kind) else {
            return;
        };
        let missing: Vec<String> = needed
            .iter()
            .filter(|n| node.get(n).is_none())
            .map(|n| format!("`{n}`"))
            .collect();
        if !missing.is_empty() {
            self.problem(
                place,
                pointer,
                format!(
                    "{} security scheme needs {}",
                    with_article(&format!("`{kind}`")),
                    missing.join(" and ")
                ),
                None,
            );
        }
    }

    pub(super) fn list(
        &mut self,
        node: &Node,
        pointer: &mut String,
        mut item: impl FnMut(&mut Self, &Node, &mut String),
    ) {
        let Some(items) = node.as_array() else {
            self.wrong_type(node, pointer, "an array");
            return;
        };
        for (i, value) in items.iter().enumerate() {
            let len = pointer.len();
            pointer::push_index(pointer, i);
            item(self, &value, pointer);
            pointer.truncate(len);
        }
    }

    pub(super) fn map(
        &mut self,
        node: &Node,
        pointer: &mut String,
        mut item: impl FnMut(&mut Self, &Node, &mut String),
    ) {
        let Some(members) = node.as_object() else {
            self.wrong_type(node, pointer, "an object");
            return;
        };
        for m in members {
            let len = pointer.len();
            pointer::push(pointer, m.key.name);
            item(self, &m.value, pointer);
            pointer.truncate(len);
        }
    }

    pub(super) fn expect_str(&mut self, node: &Node, pointer: &str) {
        if node.as_str().is_none() {
            self.wrong_type(node, pointer, "a string");
        }
    }

    pub(super) fn expect_bool(&mut self, node: &Node, pointer: &str) {
        if node.as_bool().is_none() {
            self.wrong_type(node, pointer, "`true` or `false`");
        }
    }

    pub(super) fn expect_count(&mut self, node: &Node, pointer: &str) {
        if !matches!(&node.kind, NodeKind::Number(n) if matches!(n.value, NumberValue::PosInt(_))) {
            self.wrong_type(node, pointer, "a non-negative integer");
        }
    }

    pub(super) fn expect_number(&mut self, node: &Node, pointer: &str) {
        match &node.kind {
            NodeKind::Number(n) if n.value.as_f64().is_finite() => {}
            NodeKind::Number(n) => self.problem(
                node.span,
                pointer,
                format!(
                    "the number `{}` is outside what a 64-bit float holds",
                    n.text
                ),
                Some("write a finite bound, or leave the keyword out".into()),
            ),
            _ => self.wrong_type(node, pointer, "a number"),
        }
    }

    pub(super) fn expect_values(&mut self, node: &Node, pointer: &str) {
        match node.as_array() {
            Some(items) if items.is_empty() => self.problem(
                node.span,
                pointer,
                "an `enum` with no value allows nothing".into(),
                Some("list the allowed values, or remove `enum`".into()),
            ),
            Some(_) => {}
            None => self.wrong_type(node, pointer, "an array of values"),
        }
    }

    /// A string that must be one of `allowed`.
    pub(super) fn expect_one_of(
        &mut self,
        node: &Node,
        text: &str,
        allowed: &[&'static str],
        pointer: &str,
    ) {
        if allowed.contains(&text) {
            return;
        }
        let meant = near_miss(text, allowed, |_| false);
        let list = allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>();
        let help = match meant {
            Some(m) => format!("did you mean `{m}`?"),
            None => format!("use one of {}", list.join(", ")),
        };
        self.problem(
            node.span,
            pointer,
            format!("`{text}` is not one of {}", list.join(", ")),
            Some(help),
        );
    }
}

/// `name` with its indefinite article (`an Operation Object`, a `` `http` `` scheme).
fn with_article(name: &str) -> String {
    let first = name.trim_start_matches('`').chars().next().unwrap_or('x');
    let article = if "aeiouAEIOU".contains(first) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

/// `node`'s kind with its article, for messages.
fn a(node: &Node) -> &'static str {
    node.kind.described()
}
