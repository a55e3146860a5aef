//! JSON-pointer lookup and key spans, identical for YAML and JSON.

use std::path::Path;

use syncdef_definitions::load::{Document, LoadOptions, load_path};
use syncdef_definitions::{LineCol, NodeKind, NumberValue};

fn doc(name: &str) -> Document {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    load_path(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// Line and column of the node at `pointer` and of its key.
fn at(doc: &Document, pointer: &str) -> (LineCol, LineCol) {
    let node = doc
        .root()
        .pointer(pointer)
        .unwrap_or_else(|| panic!("no node at {pointer}"));
    let key = doc
        .root()
        .pointer_key_span(pointer)
        .unwrap_or_else(|| panic!("no key at {pointer}"));
    (
        doc.source.line_col(node.span.start),
        doc.source.line_col(key.start),
    )
}

fn lc(line: u32, column: u32) -> LineCol {
    LineCol { line, column }
}

#[test]
fn yaml_pointers_and_key_spans() {
    let d = doc("pointers.yaml");
    assert_eq!(at(&d, "/paths/~1customer/post"), (lc(8, 7), lc(7, 5)));
    // A response code written `200:` is the string key "200".
    assert_eq!(
        at(&d, "/paths/~1customer/post/responses/200/description"),
        (lc(10, 24), lc(10, 11))
    );
    assert_eq!(
        at(&d, "/paths/~1a~0b/get/responses/404"),
        (lc(12, 30), lc(12, 23))
    );
    assert_eq!(at(&d, "/tags/1"), (lc(13, 15), lc(13, 15)));
    assert_eq!(
        d.root()
            .pointer("/info/title")
            .and_then(syncdef_definitions::Node::as_str),
        Some("Café ☕ API")
    );
    // Quoted scalars span their quotes.
    let title = d
        .root()
        .pointer("/info/title")
        .map(|n| n.span)
        .unwrap_or_default();
    assert_eq!(d.source.slice(title), "\"Café ☕ API\"");
    assert!(matches!(
        d.root().pointer("/info/version").map(|n| n.kind),
        Some(NodeKind::String(_))
    ));
    assert!(matches!(
        d.root().pointer("/openapi").map(|n| n.kind),
        Some(NodeKind::String(_))
    ));
}

#[test]
fn json_pointers_and_key_spans() {
    let d = doc("pointers.json");
    assert_eq!(at(&d, "/paths/~1customer/post"), (lc(5, 27), lc(5, 19)));
    assert_eq!(
        at(&d, "/paths/~1a~0b/get/responses/404/description"),
        (lc(6, 59), lc(6, 44))
    );
    assert_eq!(at(&d, "/tags/1"), (lc(8, 21), lc(8, 21)));
    assert_eq!(
        d.root()
            .pointer("/info/title")
            .and_then(syncdef_definitions::Node::as_str),
        Some("Café ☕ API")
    );
    // The column after a multi-byte character counts characters: `"version"` follows "☕".
    assert_eq!(at(&d, "/info/version").1, lc(3, 40));
}

#[test]
fn json_numbers_keep_text_and_value() {
    let d = doc("pointers.json");
    let numbers: Vec<(String, NumberValue)> = d
        .root()
        .pointer("/numbers")
        .and_then(syncdef_definitions::Node::as_array)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| match &n.kind {
            NodeKind::Number(num) => Some((num.text.to_string(), num.value)),
            _ => None,
        })
        .collect();
    assert_eq!(numbers[0], ("0".into(), NumberValue::PosInt(0)));
    assert_eq!(numbers[1], ("-7".into(), NumberValue::NegInt(-7)));
    assert_eq!(
        numbers[2],
        ("18446744073709551615".into(), NumberValue::PosInt(u64::MAX))
    );
    assert_eq!(numbers[3], ("1.5e3".into(), NumberValue::Float(1500.0)));
    assert_eq!(numbers[4], ("-0.25".into(), NumberValue::Float(-0.25)));
    assert_eq!(numbers[5].0, "123456789012345678901234567890");
    assert!(
        matches!(numbers[5].1, NumberValue::Float(f) if (f - 1.234_567_890_123_456_8e29).abs() < 1e15)
    );
}

#[test]
fn missing_pointers() {
    let d = doc("pointers.json");
    assert!(d.root().pointer("/paths/~1nothing").is_none());
    assert!(d.root().pointer("/tags/2").is_none());
    assert!(d.root().pointer("/tags/01").is_none());
    assert!(d.root().pointer("relative").is_none());
    assert!(d.root().pointer_key_span("").is_none());
    assert_eq!(d.root().pointer("").map(|n| n.span.start), Some(0));
    assert_eq!(
        d.root()
            .pointer("#/openapi")
            .and_then(syncdef_definitions::Node::as_str),
        Some("3.0.3")
    );
}

#[test]
fn yaml_and_json_trees_are_equal_in_value() {
    let y = doc("pointers.yaml");
    let j = doc("pointers.json");
    let mut yj = y.root().to_json();
    let mut jj = j.root().to_json();
    if let (Some(a), Some(b)) = (yj.as_object_mut(), jj.as_object_mut()) {
        a.remove("numbers");
        b.remove("numbers");
    }
    assert_eq!(yj, jj);
}

#[test]
fn yaml_anchors_on_keys_and_values() {
    let text = "a: &v {x: 1}\nb: *v\n&k 'key': 2\n*k : 3\n";
    let d = syncdef_definitions::load(syncdef_definitions::SourceFile::new("anchors.yaml", text));
    // An alias used as a key repeats the key: refused as a duplicate.
    let err = d.err().map(|e| (e.kind, e.location()));
    assert_eq!(
        err,
        Some((
            syncdef_definitions::LoadErrorKind::DuplicateKey,
            "anchors.yaml:4:1".into()
        ))
    );
    let text = "a: &v {x: 1}\nb: *v\n";
    let d = syncdef_definitions::load(syncdef_definitions::SourceFile::new("anchors.yaml", text))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(
        d.root()
            .pointer("/b/x")
            .map(syncdef_definitions::Node::to_json),
        Some(serde_json::json!(1))
    );
    // The copy points at the anchored value, where a fix belongs.
    assert_eq!(
        d.root()
            .pointer("/b/x")
            .map(|n| d.source.line_col(n.span.start)),
        Some(lc(1, 11))
    );
}

#[test]
fn negative_zero_is_a_float() {
    let d = syncdef_definitions::load(syncdef_definitions::SourceFile::new("z.json", "[-0, -1]"))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let values: Vec<_> = d
        .root()
        .as_array()
        .unwrap_or_default()
        .iter()
        .map(syncdef_definitions::Node::to_json)
        .collect();
    assert_eq!(values, [serde_json::json!(-0.0), serde_json::json!(-1)]);
}
