//! The walk against the compiled validator it stands in for: on random schemas and values,
//! every answer the walk gives is the compiled schema's answer.

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Value, json};
use syncdef_definitions::{LoadOptions, SourceFile, Tree};

use super::{Verdict, mismatch, verdict};
use crate::typecheck::openapi::{Direction, convert_document};

fn load(value: &Value) -> Tree {
    let file = Arc::new(SourceFile::new("t.json", value.to_string()));
    syncdef_definitions::load::load_with(file, &LoadOptions::default())
        .expect("generated JSON loads")
        .tree
}

fn small_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..4).prop_map(Value::from),
        prop_oneof![Just(json!(0.5)), Just(json!(1.0)), Just(json!(-2.5))],
        prop_oneof![
            Just(json!("")),
            Just(json!("a")),
            Just(json!("abc")),
            Just(json!("é"))
        ],
    ];
    // Scalars as often as containers: most examples are scalars.
    let nested = leaf.clone().prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map(prop_oneof![Just("a"), Just("b"), Just("c")], inner, 0..3)
                .prop_map(|m| Value::Object(
                    m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
                )),
        ]
    });
    prop_oneof![leaf, nested]
}

fn bound() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-2i64..3).prop_map(Value::from),
        Just(json!(0.5)),
        Just(json!(true)),
        Just(json!(false)),
    ]
}

fn type_name() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("string")),
        Just(json!("integer")),
        Just(json!("number")),
        Just(json!("boolean")),
        Just(json!("array")),
        Just(json!("object")),
        Just(json!("null")),
        Just(json!(["string", "null"])),
        Just(json!(["integer", "string"])),
    ]
}

/// A leaf keyword of a schema, as (name, value).
fn leaf_keyword() -> impl Strategy<Value = (String, Value)> {
    let count = || (0u64..4).prop_map(Value::from);
    prop_oneof![
        type_name().prop_map(|t| ("type".to_owned(), t)),
        Just(("nullable".to_owned(), json!(true))),
        prop::collection::vec(small_value(), 1..3).prop_map(|v| ("enum".to_owned(), json!(v))),
        small_value().prop_map(|v| ("const".to_owned(), v)),
        prop::collection::vec(prop_oneof![Just("a"), Just("b"), Just("d")], 1..3)
            .prop_map(|r| ("required".to_owned(), json!(r))),
        count().prop_map(|n| ("minLength".to_owned(), n)),
        count().prop_map(|n| ("maxLength".to_owned(), n)),
        count().prop_map(|n| ("minItems".to_owned(), n)),
        count().prop_map(|n| ("maxItems".to_owned(), n)),
        count().prop_map(|n| ("maxProperties".to_owned(), n)),
        bound().prop_map(|b| ("minimum".to_owned(), b)),
        bound().prop_map(|b| ("maximum".to_owned(), b)),
        bound().prop_map(|b| ("exclusiveMinimum".to_owned(), b)),
        bound().prop_map(|b| ("exclusiveMaximum".to_owned(), b)),
        Just(("format".to_owned(), json!("date-time"))),
        Just(("pattern".to_owned(), json!("^a"))),
        Just(("readOnly".to_owned(), json!(true))),
        Just(("writeOnly".to_owned(), json!(true))),
        Just(("$ref".to_owned(), json!("#/components/schemas/T"))),
        Just(("$ref".to_owned(), json!("#/components/schemas/S"))),
    ]
    .boxed()
}

fn schema() -> impl Strategy<Value = Value> {
    let flat = prop::collection::vec(leaf_keyword(), 0..4)
        .prop_map(|kw| Value::Object(kw.into_iter().collect()));
    let flat = prop_oneof![8 => flat, 1 => any::<bool>().prop_map(Value::Bool)];
    let nested = flat.clone().prop_recursive(3, 24, 3, |inner| {
        (
            prop::collection::vec(leaf_keyword(), 0..3),
            prop::collection::btree_map(
                prop_oneof![Just("a"), Just("b"), Just("c")],
                inner.clone(),
                0..3,
            ),
            prop::option::of(prop_oneof![
                inner.clone().prop_map(|s| ("items", s)),
                inner.clone().prop_map(|s| ("additionalProperties", s)),
                inner.clone().prop_map(|s| ("not", s)),
            ]),
            prop::option::of((
                prop_oneof![Just("allOf"), Just("anyOf"), Just("oneOf")],
                prop::collection::vec(inner, 1..3),
            )),
        )
            .prop_map(|(leaves, properties, child, combined)| {
                let mut schema: serde_json::Map<String, Value> = leaves.into_iter().collect();
                if !properties.is_empty() {
                    let properties = properties.into_iter().map(|(k, v)| (k.to_owned(), v));
                    schema.insert("properties".into(), Value::Object(properties.collect()));
                }
                if let Some((key, s)) = child {
                    schema.insert(key.into(), s);
                }
                if let Some((key, list)) = combined {
                    schema.insert(key.into(), Value::Array(list));
                }
                Value::Object(schema)
            })
    });
    prop_oneof![flat, nested]
}

fn check(s: &Value, t: &Value, value: &Value) -> Result<(), TestCaseError> {
    let root_tree = load(&json!({"components": {"schemas": {"S": s, "T": t}}}));
    let root = root_tree.root();
    let value_node_tree = load(value);
    let value_node = value_node_tree.root();
    let schema = root.pointer("/components/schemas/S").expect("S");
    for direction in [Direction::Request, Direction::Response] {
        let answer = verdict(&root, &schema, &value_node, direction);
        if answer == Verdict::Unknown {
            continue;
        }
        if answer == Verdict::Breaks {
            // Every decided break has a cause, at a part of the value its pointer addresses.
            let found = mismatch(&root, &schema, value_node, direction);
            let found =
                found.ok_or_else(|| TestCaseError::fail(format!("no cause for {value}")))?;
            prop_assert_eq!(
                value_node
                    .pointer(&found.pointer)
                    .unwrap_or(value_node)
                    .identity(),
                found.node.identity()
            );
        }
        let doc = convert_document(&root, &schema, direction);
        let Ok(validator) = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&doc)
        else {
            continue;
        };
        let valid = validator.is_valid(value);
        prop_assert_eq!(
            answer == Verdict::Fits,
            valid,
            "{:?} for {} against {} ({:?})",
            answer,
            value,
            doc,
            direction
        );
    }
    Ok(())
}

/// Every single keyword the walk decides, against every kind of scalar and a few containers:
/// exhaustive where random generation would meet a simple case only by chance.
#[test]
fn every_keyword_alone_agrees_on_every_kind_of_value() {
    let values = [
        json!(null),
        json!(true),
        json!(0),
        json!(2),
        json!(-3),
        json!(0.5),
        json!(1.0),
        json!(""),
        json!("abc"),
        json!("é"),
        json!([]),
        json!([1, "a"]),
        json!({}),
        json!({"a": 1}),
        json!({"a": null, "b": "x"}),
    ];
    let mut keywords = vec![json!({"nullable": true, "type": "string"})];
    for name in [
        "string", "integer", "number", "boolean", "array", "object", "null",
    ] {
        keywords.push(json!({"type": name}));
        keywords.push(json!({"type": name, "nullable": true}));
        keywords.push(json!({"type": [name, "string"]}));
    }
    for (key, arguments) in [
        (
            "enum",
            vec![json!([1, "a"]), json!([null]), json!([[1, "a"], {"a": 1}])],
        ),
        (
            "const",
            vec![json!(2), json!("abc"), json!({"a": 1}), json!(1)],
        ),
        ("required", vec![json!(["a"]), json!(["a", "b"])]),
        ("minLength", vec![json!(1), json!(3)]),
        ("maxLength", vec![json!(0), json!(1)]),
        ("minItems", vec![json!(1)]),
        ("maxItems", vec![json!(1)]),
        ("minProperties", vec![json!(1)]),
        ("maxProperties", vec![json!(1)]),
        ("minimum", vec![json!(0), json!(0.5), json!(-3)]),
        ("maximum", vec![json!(0), json!(0.5), json!(2)]),
        ("exclusiveMinimum", vec![json!(0), json!(0.5), json!(true)]),
        ("exclusiveMaximum", vec![json!(0), json!(2), json!(true)]),
        (
            "additionalProperties",
            vec![json!(false), json!({"type": "integer"})],
        ),
        ("items", vec![json!({"type": "integer"}), json!(false)]),
        (
            "properties",
            vec![json!({"a": {"type": "integer"}, "b": {"readOnly": true}})],
        ),
        ("not", vec![json!({"type": "integer"})]),
        ("allOf", vec![json!([{"type": "integer"}, {"minimum": 1}])]),
        (
            "anyOf",
            vec![json!([{"type": "integer"}, {"type": "string"}])],
        ),
        (
            "oneOf",
            vec![json!([{"type": "number"}, {"type": "integer"}])],
        ),
    ] {
        for argument in arguments {
            keywords.push(json!({ key: argument }));
        }
    }
    keywords.push(json!({"minimum": 0, "exclusiveMinimum": true}));
    keywords.push(json!({"maximum": 2, "exclusiveMaximum": true}));
    keywords.push(json!({"required": ["b"], "properties": {"b": {"readOnly": true}}}));
    keywords.push(json!({"required": ["b"], "properties": {"b": {"writeOnly": true}}}));
    for schema in &keywords {
        for value in &values {
            check(schema, &json!({}), value).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn every_decided_answer_is_the_compiled_validators(
        s in schema(),
        t in schema(),
        value in small_value(),
    ) {
        check(&s, &t, &value)?;
    }
}

#[test]
fn decides_what_examples_usually_are() {
    let root_tree = load(&json!({"components": {"schemas": {
        "User": {
            "type": "object",
            "required": ["id", "login"],
            "properties": {
                "id": {"type": "integer", "readOnly": true},
                "login": {"type": "string", "minLength": 1},
                "site_admin": {"type": "boolean"},
                "email": {"type": "string", "nullable": true, "format": "email"},
                "plan": {"$ref": "#/components/schemas/Plan"}
            }
        },
        "Plan": {"type": "object", "properties": {"name": {"enum": ["free", "pro"]}}}
    }}}));
    let root = root_tree.root();
    let user = root.pointer("/components/schemas/User").expect("User");
    let fits_tree = load(&json!({"login": "octocat", "email": null, "plan": {"name": "pro"}}));
    let fits = fits_tree.root();
    assert_eq!(
        verdict(&root, &user, &fits, Direction::Request),
        Verdict::Fits
    );
    // In a response the read-only id is required.
    assert_eq!(
        verdict(&root, &user, &fits, Direction::Response),
        Verdict::Breaks
    );
    let wrong_plan_tree = load(&json!({"login": "octocat", "plan": {"name": "team"}}));
    let wrong_plan = wrong_plan_tree.root();
    assert_eq!(
        verdict(&root, &user, &wrong_plan, Direction::Request),
        Verdict::Breaks
    );
    let with_pattern_tree = load(&json!({"type": "string", "pattern": "^[A-Z]{3}$"}));
    let with_pattern = with_pattern_tree.root();
    assert_eq!(
        verdict(
            &root,
            &with_pattern,
            &load(&json!("EUR")).root(),
            Direction::Request
        ),
        Verdict::Unknown
    );
}

#[test]
fn shared_schemas_under_combinators_are_not_walked_exponentially() {
    // Every level refers twice to the next: 2^40 paths through 40 schemas.
    let mut schemas = serde_json::Map::new();
    for level in 0..40 {
        let next = format!("#/components/schemas/L{}", level + 1);
        schemas.insert(
            format!("L{level}"),
            json!({"allOf": [{"$ref": next}, {"$ref": next}]}),
        );
    }
    schemas.insert("L40".into(), json!({"type": "string"}));
    let root_tree = load(&json!({"components": {"schemas": schemas}}));
    let root = root_tree.root();
    let top = root.pointer("/components/schemas/L0").expect("L0");
    let answer = verdict(&root, &top, &load(&json!("a")).root(), Direction::Request);
    assert_ne!(answer, Verdict::Breaks);
}
