//! An object of 40,000 members (a record keyed by id, or a hostile input) behaves as a small
//! one does: members in insertion order, a duplicate key replacing the earlier value in place,
//! members found by key, the same JSON text and `serde_json` value. Its key index keeps
//! building and reading it linear (`cargo bench -p syncdef-transform --bench large_object`
//! times it).

use std::sync::Arc;

use syncdef_transform::value::Shape;
use syncdef_transform::{Map, Settings, Template, Value, ValueReader};

const MEMBERS: usize = 40_000;

fn key(i: usize) -> Arc<str> {
    format!("member{i}").into()
}

/// Every member in order, with its value.
fn assert_members(m: &Map, value: impl Fn(usize) -> Value) {
    assert_eq!(m.len(), MEMBERS);
    for (i, (k, v)) in m.iter().enumerate() {
        assert_eq!(*k, key(i));
        assert_eq!(*v, value(i), "{k}");
    }
    for i in (0..MEMBERS).rev() {
        assert_eq!(m.get(&key(i)), Some(&value(i)), "member{i}");
    }
    assert_eq!(m.get("member40000"), None);
    assert!(!m.contains_key("member"));
}

/// `{"member0":0,...,"member39999":39999}` with `tail` before the closing brace.
fn text(tail: &str) -> String {
    let members: Vec<String> = (0..MEMBERS).map(|i| format!("\"member{i}\":{i}")).collect();
    format!("{{{}{tail}}}", members.join(","))
}

fn int(i: usize) -> Value {
    Value::Int(i64::try_from(i).expect("small"))
}

#[test]
fn a_duplicate_key_replaces_the_value_in_place() {
    let mut m = Map::new();
    for i in 0..MEMBERS {
        m.insert(key(i), int(i));
    }
    assert_members(&m, int);
    // Writing every tenth member again changes its value, not its place or the count.
    for i in (0..MEMBERS).step_by(10) {
        m.insert(key(i), Value::from("again"));
    }
    let again = |i: usize| {
        if i.is_multiple_of(10) {
            Value::from("again")
        } else {
            int(i)
        }
    };
    assert_members(&m, again);
}

#[test]
fn removing_a_member_keeps_the_others_in_order_and_found() {
    let mut m: Map = (0..MEMBERS).map(|i| (key(i), int(i))).collect();
    assert_eq!(m.remove("member5"), Some(int(5)));
    assert_eq!(m.remove("member5"), None);
    assert_eq!(m.len(), MEMBERS - 1);
    assert_eq!(m.keys().nth(5), Some(&key(6)));
    for i in (0..MEMBERS).filter(|i| *i != 5) {
        assert_eq!(m.get(&key(i)), Some(&int(i)), "member{i}");
    }
    // Added again, it goes last.
    m.insert(key(5), int(5));
    assert_eq!(m.keys().last(), Some(&key(5)));
    assert_eq!(m.get("member5"), Some(&int(5)));
    assert_eq!(m.get("member39999"), Some(&int(39999)));
}

#[test]
fn parsing_keeps_the_first_place_and_the_last_value_of_a_repeated_key() {
    let input = text(",\"member0\":\"last\"");
    let value = |i: usize| if i == 0 { Value::from("last") } else { int(i) };
    let expected = text("").replacen("\"member0\":0", "\"member0\":\"last\"", 1);
    let parsed = Value::from_json_str(&input).unwrap();
    assert_members(parsed.as_object().unwrap(), value);
    assert_eq!(parsed.to_json_compact(), expected);
    let read = ValueReader::new().read(&input).unwrap();
    assert_members(read.as_object().unwrap(), value);
    assert_eq!(read, parsed);
}

#[test]
fn serde_json_conversions_keep_every_member() {
    let json: serde_json::Value = serde_json::from_str(&text("")).unwrap();
    let v = Value::from(&json);
    assert_members(v.as_object().unwrap(), int);
    assert_eq!(serde_json::Value::from(&v), json);
}

#[test]
fn a_shape_of_many_keys_reads_like_an_object_built_key_by_key() {
    let keys: Vec<Arc<str>> = (0..MEMBERS).map(key).collect();
    let repeated = keys.iter().cloned().chain([key(123)]);
    assert!(Shape::new(repeated).is_none());
    let shape = Shape::new(keys).unwrap();
    let mut shaped = Map::with_shape(&shape, (0..MEMBERS).map(int).collect()).unwrap();
    assert_members(&shaped, int);
    // Adding a key gives the object keys of its own, still indexed.
    shaped.insert(Arc::from("extra"), Value::Null);
    assert_eq!(shaped.get("extra"), Some(&Value::Null));
    assert_eq!(shaped.get("member39999"), Some(&int(39999)));
    assert_eq!(shape.keys().len(), MEMBERS);
}

#[test]
fn a_template_reads_and_copies_members_of_a_large_record() {
    let record = Value::from_json_str(&text("")).unwrap();
    let template = Template::compile_str(
        r##"{"last": "#valueof($.member39999)", "first": "#valueof($.member0)", "#": ["#copy($)"]}"##,
        &Settings::default(),
    )
    .unwrap();
    let out = template.apply(&record).unwrap();
    let out = out.as_object().unwrap();
    assert_eq!(out.len(), MEMBERS + 2);
    assert_eq!(out.get("last"), Some(&int(39999)));
    assert_eq!(out.get("member20000"), Some(&int(20000)));
}
