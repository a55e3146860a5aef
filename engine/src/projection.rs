//! Reading from a response only what its template reads.
//!
//! A create's answer is the whole new record (QuickBooks returns every field of the customer),
//! and the vendor's response templates read one or two members of it
//! (`{"id": "#valueof($.Customer.Id)", ...}`). When everything a template reads is known before
//! the answer arrives (each read a `#valueof` of member names from the root), the answer is
//! parsed into the members on those paths only; the rest is checked to be JSON and skipped
//! without being built. The audit trail, error messages and conflict rules read the whole body
//! through their own parse.

use std::fmt;

use serde::Deserialize;
use serde::de::value::SeqAccessDeserializer;
use serde::de::{
    self, DeserializeSeed, IgnoredAny, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use syncdef_transform::path::StepKind;
use syncdef_transform::{Map, PathContext, Template, Value};

/// The members of a response a template reads, as a tree from the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Projection(Members);

/// The members kept of one object, each with what is kept below it.
type Members = Vec<(Box<str>, Keep)>;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Keep {
    /// The whole value: a path ends here, or goes on with steps that are not member names.
    Whole,
    /// Only these members, when the value is an object.
    Members(Members),
}

impl Projection {
    /// What `template` reads, when all of it is known: every function a `#valueof`, every
    /// path read from the response's root starting with a member name. `None` otherwise
    /// (the response is then read whole).
    pub fn of(template: &Template) -> Option<Projection> {
        if template.calls().iter().any(|c| c.function != "valueof") {
            return None;
        }
        let mut root = Members::new();
        for read in template.paths() {
            if read.context != PathContext::Root {
                return None;
            }
            let mut steps = read.path.steps().iter().peekable();
            steps.next_if(|s| s.kind == StepKind::Root && !s.recursive);
            let mut names = Vec::new();
            for step in steps {
                match &step.kind {
                    StepKind::Member(name) if !step.recursive => names.push(name.as_ref()),
                    _ => break,
                }
            }
            if names.is_empty() {
                return None;
            }
            keep(&mut root, &names);
        }
        Some(Projection(root))
    }

    /// The response body with only the projected members: a body that is not JSON is refused
    /// as a whole parse would refuse it (except for numbers too large for a double in members
    /// skipped, which are not converted).
    pub fn parse(&self, bytes: &[u8]) -> Result<Value, serde_json::Error> {
        let mut reader = serde_json::Deserializer::from_slice(bytes);
        let value = Within(&self.0).deserialize(&mut reader)?;
        reader.end()?;
        Ok(value)
    }
}

/// Adds the path `names` (kept whole at its end) to `members`.
fn keep(members: &mut Members, names: &[&str]) {
    let Some((first, rest)) = names.split_first() else {
        return;
    };
    let at = if let Some(at) = members.iter().position(|(n, _)| n.as_ref() == *first) {
        at
    } else {
        let below = if rest.is_empty() {
            Keep::Whole
        } else {
            Keep::Members(Members::new())
        };
        members.push(((*first).into(), below));
        members.len() - 1
    };
    let below = &mut members[at].1;
    if rest.is_empty() {
        *below = Keep::Whole;
    } else if let Keep::Members(inner) = below {
        keep(inner, rest);
    }
}

/// Parses one value keeping `members` of it when it is an object (any other value whole).
struct Within<'p>(&'p Members);

impl<'de> DeserializeSeed<'de> for Within<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A value that is not an object is handed to `Value`'s own parse, so it is built exactly as
/// a whole parse builds it: a path of member names selects nothing in it, but it is what the
/// template sees.
macro_rules! whole {
    ($($visit:ident($t:ty)),*) => {$(
        fn $visit<E: de::Error>(self, v: $t) -> Result<Value, E> {
            Value::deserialize(v.into_deserializer())
        }
    )*};
}

impl<'de> Visitor<'de> for Within<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    whole!(
        visit_bool(bool),
        visit_i64(i64),
        visit_u64(u64),
        visit_f64(f64),
        visit_str(&str),
        visit_string(String)
    );

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Value::deserialize(().into_deserializer())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut kept = Map::new();
        while let Some(found) = access.next_key_seed(Known(self.0))? {
            match found {
                Some((name, Keep::Whole)) => {
                    kept.insert(name.into(), access.next_value::<Value>()?);
                }
                Some((name, Keep::Members(inner))) => {
                    kept.insert(name.into(), access.next_value_seed(Within(inner))?);
                }
                None => {
                    access.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Value::object(kept))
    }
}

/// Reads a member name: which kept member it is, if any.
struct Known<'p>(&'p Members);

impl<'de, 'p> DeserializeSeed<'de> for Known<'p> {
    type Value = Option<(&'p str, &'p Keep)>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'p> Visitor<'_> for Known<'p> {
    type Value = Option<(&'p str, &'p Keep)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
        Ok(self
            .0
            .iter()
            .find(|(kept, _)| kept.as_ref() == name)
            .map(|(kept, below)| (kept.as_ref(), below)))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use syncdef_transform::Settings;

    use super::*;

    fn template(text: &str) -> Template {
        Template::compile_str(text, &Settings::default()).unwrap()
    }

    fn projection(text: &str) -> Option<String> {
        Projection::of(&template(text)).map(|p| format!("{:?}", p.0))
    }

    #[test]
    fn known_reads_make_a_tree() {
        assert_eq!(
            projection(r##"{"id": "#valueof($.Customer.Id)", "success": true, "errors": []}"##),
            Some(r#"[("Customer", Members([("Id", Whole)]))]"#.to_owned())
        );
        // A path going on past member names keeps the value where the names end; a shorter
        // path read too keeps its end whole.
        assert_eq!(
            projection(
                r##"{"a": "#valueof($.a.b[0].c)", "b": "#valueof(x.y)", "c": "#valueof($.x)"}"##
            ),
            Some(r#"[("a", Members([("b", Whole)])), ("x", Whole)]"#.to_owned())
        );
        assert_eq!(projection(r#"{"success": true}"#), Some("[]".to_owned()));
    }

    #[test]
    fn unknown_reads_read_the_whole_answer() {
        for text in [
            r##"{"id": "#valueof($)"}"##,
            r##"{"id": "#valueof($..Id)"}"##,
            r##"{"id": "#valueof($[0].Id)"}"##,
            r##"{"id": "#valueof($.*)"}"##,
            r##"{"id": "#valueof(#concat($.a,b))"}"##,
            r##"{"id": "#ifcondition(#valueof($.a),1,#valueof($.b),x)"}"##,
            r##"{"#loop($.items)": {"id": "#valueof($.Id)"}}"##,
            r##"{"#scope($.Customer)": {"id": "#valueof($.Id)"}}"##,
        ] {
            assert_eq!(projection(text), None, "{text}");
        }
    }

    #[test]
    fn bodies_that_are_not_json_are_refused() {
        let p = Projection::of(&template(r##"{"id": "#valueof($.a)"}"##)).unwrap();
        for text in [
            r#"{"a": 1"#,
            r#"{"b": [1,}"#,
            r#"{"a": 1} x"#,
            "<html>",
            r#"{"b": tru}"#,
        ] {
            assert!(p.parse(text.as_bytes()).is_err(), "{text}");
        }
        let kept = p
            .parse(br#"{"b": {"c": [1, "x"]}, "a": {"d": 2.50}, "a": 7}"#)
            .unwrap();
        assert_eq!(kept.to_json_compact(), r#"{"a":7}"#);
    }

    /// JSON text over a few member names, nested objects and arrays, numbers of each kind.
    fn document() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            any::<i64>().prop_map(|i| i.to_string()),
            Just("18446744073709551615".to_owned()),
            Just("2.50".to_owned()),
            Just("1e-7".to_owned()),
            "[a-c\\\\\"]{0,3}".prop_map(|s| serde_json::to_string(&s).unwrap()),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec(("[a-c]|\\\\u0061", inner), 0..5).prop_map(|kv| {
                    let members: Vec<String> = kv
                        .into_iter()
                        .map(|(k, v)| format!("\"{k}\": {v}"))
                        .collect();
                    format!("{{{}}}", members.join(", "))
                }),
            ]
        })
    }

    proptest! {
        /// A template that reads only member paths gives from the projected answer exactly
        /// what it gives from the whole one.
        #[test]
        fn projected_answers_read_like_whole_ones(
            doc in document(),
            paths in prop::collection::vec(
                prop::collection::vec(prop_oneof!["[a-c]", Just("[0]".to_owned())], 1..4),
                1..4,
            ),
        ) {
            let members: Vec<String> = paths
                .iter()
                .enumerate()
                .map(|(i, steps)| {
                    let mut path = String::from("$");
                    for s in steps {
                        if !s.starts_with('[') {
                            path.push('.');
                        }
                        path.push_str(s);
                    }
                    format!("\"r{i}\": \"#valueof({path})\"")
                })
                .collect();
            let t = template(&format!("{{{}}}", members.join(", ")));
            let whole = Value::from_json_str(&doc).unwrap();
            match Projection::of(&t) {
                Some(p) => {
                    let projected = p.parse(doc.as_bytes()).unwrap();
                    prop_assert_eq!(
                        t.apply(&projected).map(|v| v.to_json_compact()).map_err(|e| e.to_string()),
                        t.apply(&whole).map(|v| v.to_json_compact()).map_err(|e| e.to_string())
                    );
                }
                // Only a path starting with an index has no projection.
                None => prop_assert!(paths.iter().any(|steps| steps[0] == "[0]")),
            }
        }
    }
}
