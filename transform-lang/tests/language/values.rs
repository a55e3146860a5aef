//! Number output and JSON I/O of `Value`.

use syncdef_transform::Value;

fn roundtrip(text: &str) -> String {
    Value::from_json_str(text).unwrap().to_json_compact()
}

#[test]
fn numbers_print_like_newtonsoft() {
    assert_eq!(
        roundtrip("[1,1.0,1.5,-0.25,1e20,1.5e-7,123456789012345678]"),
        "[1,1.0,1.5,-0.25,1E+20,1.5E-07,123456789012345678]"
    );
}

#[test]
fn strings_escape_like_newtonsoft() {
    assert_eq!(
        roundtrip(r#"["a\"b\\c\n\u0001é\u2028"]"#),
        "[\"a\\\"b\\\\c\\n\\u0001é\\u2028\"]"
    );
}

#[test]
fn keys_keep_insertion_order_and_duplicates_replace() {
    assert_eq!(roundtrip(r#"{"b":1,"a":2,"b":3}"#), r#"{"b":3,"a":2}"#);
}

#[test]
fn pretty_output() {
    let v = Value::from_json_str(r#"{"a":[1,{"b":null}],"c":{},"d":[]}"#).unwrap();
    assert_eq!(
        v.to_json_pretty(),
        "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}"
    );
}

#[test]
fn serde_json_conversions_round_trip() {
    let j = serde_json::json!({"z": 1, "a": [true, null, 2.5, "s"]});
    let v = Value::from(&j);
    assert_eq!(v.to_json_compact(), r#"{"z":1,"a":[true,null,2.5,"s"]}"#);
    assert_eq!(serde_json::Value::from(&v), j);
}

#[test]
fn cloning_shares() {
    let v = Value::from_json_str(r#"{"a":[1,2,3]}"#).unwrap();
    let w = v.clone();
    match (&v, &w) {
        (Value::Object(a), Value::Object(b)) => assert!(std::sync::Arc::ptr_eq(a, b)),
        _ => unreachable!(),
    }
    assert_eq!(std::mem::size_of::<Value>(), 24);
}

#[test]
fn deep_records_are_rejected_not_overflowed() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    assert!(Value::from_json_str(&deep).is_err());
}

#[test]
fn reader_rejects_what_json_rejects() {
    let mut reader = syncdef_transform::ValueReader::new();
    assert!(reader.read("{\"a\":1} x").is_err());
    assert!(reader.read("{'a':1}").is_err());
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    assert!(reader.read(&deep).is_err());
    assert_eq!(
        reader.read("{\"a\":1,\"a\":2}").unwrap().to_json_compact(),
        "{\"a\":2}"
    );
}

#[test]
fn a_shaped_object_reads_and_changes_like_one_built_key_by_key() {
    use std::sync::Arc;
    use syncdef_transform::value::{Map, Shape};
    let keys = || ["account", "externalId"].map(Arc::<str>::from);
    assert!(Shape::new([Arc::from("a"), Arc::from("b"), Arc::from("a")]).is_none());
    let shape = Shape::new(keys()).unwrap();
    assert_eq!(shape.keys(), keys());
    assert!(Map::with_shape(&shape, vec![Value::Null]).is_none());
    let mut shaped = Map::with_shape(&shape, vec![Value::from("acme"), Value::Null]).unwrap();
    let mut built = Map::new();
    built.insert(Arc::from("account"), Value::from("acme"));
    built.insert(Arc::from("externalId"), Value::Null);
    assert_eq!(shaped, built);
    assert_eq!(shaped.get("externalId"), Some(&Value::Null));
    assert_eq!(
        Value::object(shaped.clone()).to_json_compact(),
        r#"{"account":"acme","externalId":null}"#
    );
    // Adding a key gives the object keys of its own; the shape is unchanged.
    shaped.insert(Arc::from("syncToken"), Value::from("0"));
    assert_eq!(shaped.len(), 3);
    assert_eq!(shape.keys().len(), 2);
}
