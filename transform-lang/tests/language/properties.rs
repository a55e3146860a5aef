//! Property tests: no input makes compilation or evaluation panic or recurse without bound.

use proptest::prelude::*;
use syncdef_transform::path::JsonPath;
use syncdef_transform::{Settings, Template, Value};

/// Fragments that make up expressions, paths and template text.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("#valueof(".to_string()),
        Just("#ifcondition(".to_string()),
        Just("#loop(".to_string()),
        Just("#xconcat(".to_string()),
        Just("#applyover(".to_string()),
        Just("#add(".to_string()),
        Just("#substring(".to_string()),
        Just("#currentvalue()".to_string()),
        Just("$.a".to_string()),
        Just("$..b".to_string()),
        Just("[?(@.x == 1)]".to_string()),
        Just("[*]".to_string()),
        Just("[1:2]".to_string()),
        Just("'".to_string()),
        Just("`".to_string()),
        Just(",".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("/".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("=~ /a/".to_string()),
        Just("é§😀".to_string()),
        Just("#constant_comma()".to_string()),
        Just("#loop($.a)".to_string()),
        "[a-z0-9 ]{0,4}",
        "\\PC{0,3}",
    ]
}

fn expression() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..24).prop_map(|v| v.concat())
}

fn record() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::Double),
        "[a-z$#@.]{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::array),
            prop::collection::vec(("[a-e]", inner), 0..6).prop_map(|kv| {
                Value::object(kv.into_iter().map(|(k, v)| (k.into(), v)).collect())
            }),
        ]
    })
}

/// Templates of plain objects, `#scope` objects, reads, constants, escapes and arrays, over
/// the member names `record` uses.
fn template() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::from("#valueof($.a)")),
        Just(Value::from("#valueof($.b.c)")),
        Just(Value::from("#valueof($.a[1])")),
        Just(Value::from("#valueof($..d)")),
        Just(Value::from("#valueof($.e[?(@.a)])")),
        Just(Value::from(
            "#ifcondition(#exists($.a),true,#valueof($.a),x)"
        )),
        Just(Value::from(
            "#ifcondition(#valueof($.a),x,#valueof($.b.c),#valueof($.a[1]))"
        )),
        Just(Value::from("/#not a call")),
        Just(Value::from("#valueof(#xconcat($,.,a))")),
        Just(Value::Null),
        any::<i64>().prop_map(Value::Int),
        "[a-z]{0,3}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::array),
            prop::collection::vec(("[a-e]", inner.clone()), 0..5).prop_map(|kv| {
                Value::object(kv.into_iter().map(|(k, v)| (k.into(), v)).collect())
            }),
            (
                prop_oneof![Just("$.a"), Just("$.b"), Just("$.e[?(@.a)]"), Just("$.zz")],
                inner
            )
                .prop_map(|(path, body)| {
                    let key: std::sync::Arc<str> = format!("#scope({path})").into();
                    Value::object([(key, body)].into_iter().collect())
                }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn strings_round_trip_through_json(s in any::<String>()) {
        let text = Value::from(s.as_str()).to_json_compact();
        let back: String = serde_json::from_str(&text).expect("valid JSON");
        prop_assert_eq!(back, s);
    }

    /// Newtonsoft's escaping, character by character, against the writer's word-at-a-time
    /// scan: strings long enough to span several words, with the characters that need a look
    /// at every position.
    #[test]
    fn strings_are_escaped_as_newtonsoft_does(
        parts in prop::collection::vec(prop_oneof![
            "[a-z ]{0,9}",
            Just("\"".to_string()), Just("\\".to_string()), Just("\n".to_string()),
            Just("\u{1}".to_string()), Just("\u{1f}".to_string()), Just("\u{7f}".to_string()),
            Just("\u{85}".to_string()), Just("\u{2028}".to_string()), Just("\u{2029}".to_string()),
            Just("\u{a2}".to_string()), Just("\u{2030}".to_string()), Just("é€😀".to_string()),
        ], 0..12),
    ) {
        let s = parts.concat();
        let mut expected = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => expected.push_str("\\\""),
                '\\' => expected.push_str("\\\\"),
                '\n' => expected.push_str("\\n"),
                '\r' => expected.push_str("\\r"),
                '\t' => expected.push_str("\\t"),
                '\u{8}' => expected.push_str("\\b"),
                '\u{c}' => expected.push_str("\\f"),
                c if c < ' ' || matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}') => {
                    expected.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                c => expected.push(c),
            }
        }
        expected.push('"');
        prop_assert_eq!(Value::from(s.as_str()).to_json_compact(), expected);
    }

    #[test]
    fn records_round_trip_through_json(doc in record()) {
        let text = doc.to_json_compact();
        let back = Value::from_json_str(&text).expect("valid JSON");
        prop_assert_eq!(back.to_json_compact(), text);
        let pretty = Value::from_json_str(&doc.to_json_pretty()).expect("valid JSON");
        prop_assert_eq!(pretty.to_json_compact(), doc.to_json_compact());
    }

    #[test]
    fn reader_parses_like_from_json_str(docs in prop::collection::vec(record(), 1..4)) {
        let mut reader = syncdef_transform::ValueReader::new();
        for doc in docs {
            let text = doc.to_json_compact();
            prop_assert_eq!(reader.read(&text).expect("parses").to_json_compact(), text);
        }
    }

    /// Paths of member names and indexes, with at most one filter among them, take a direct
    /// walk that remembers where each member was found; over records of varying shapes it must
    /// select what the general walk does.
    #[test]
    fn singular_paths_select_what_the_general_walk_selects(
        steps in prop::collection::vec(prop_oneof![
            4 => "[a-e]".prop_map(|k| format!(".{k}")),
            4 => (-2i64..4).prop_map(|i| format!("[{i}]")),
            1 => prop_oneof![
                Just("[?(@.a)]"), Just("[?(@.a==true)]"), Just("[?(@.b!=1)]"), Just("[?(@.c.d=='x')]"),
                Just("[?(@[0]>=0)]"), Just("[?(@.a==$.b)]"), Just("[?(@..a)]"), Just("..[?(@.a)]"),
                Just("[?(1<@.b)]"), Just("[?('x'>=@.c)]"), Just("[?(@.d<=2.5)]"), Just("[?(@==1)]"),
            ].prop_map(String::from),
        ], 0..5),
        docs in prop::collection::vec(record(), 1..6),
    ) {
        let p = JsonPath::parse(&format!("${}", steps.concat())).expect("a valid path");
        for doc in &docs {
            let walked = p.select(doc);
            let expected = match walked.as_slice() {
                [] => Value::Null,
                [one] => (*one).clone(),
                many => Value::array(many.iter().map(|v| (*v).clone()).collect()),
            };
            prop_assert_eq!(p.select_value(doc), expected);
            prop_assert_eq!(p.exists(doc), !walked.is_empty());
        }
    }

    #[test]
    fn paths_never_panic(text in expression(), doc in record()) {
        if let Ok(p) = JsonPath::parse(&text) {
            let _ = p.select_value(&doc);
        }
    }

    #[test]
    fn expressions_never_panic(expr in expression(), doc in record()) {
        let template = Value::object([("r".into(), Value::from(format!("#{expr}")))].into_iter().collect());
        for (mode, esc) in [("default", '/'), ("strict", '§'), ("look-in-transformed,strict", '/'), ("add-or-replace-properties", 'é')] {
            let settings = Settings {
                escape_char: esc,
                ..Settings::with_mode(syncdef_transform::EvaluationMode::parse_list(mode).unwrap())
            };
            if let Ok(t) = Template::compile(&template, &settings) {
                let _ = t.apply(&doc);
            }
        }
    }

    /// Writing the output as it is walked gives the text and the error that building it
    /// gives, limits included.
    #[test]
    fn writing_agrees_with_building(
        template in template(),
        doc in record(),
        limits in (1usize..12, 1usize..40, 1usize..40),
        look_in_transformed in any::<bool>(),
    ) {
        let mut settings = Settings::default();
        if look_in_transformed {
            settings.mode = syncdef_transform::EvaluationMode::LOOK_IN_TRANSFORMED;
        }
        settings.limits.max_depth = limits.0;
        settings.limits.max_output_nodes = limits.1;
        settings.limits.max_steps = limits.2;
        if let Ok(t) = Template::compile(&template, &settings) {
            let built = t.apply(&doc).map(|v| v.to_json_compact()).map_err(|e| e.to_string());
            let mut out = String::new();
            let written = t.apply_to_json(&doc, &mut out).map(|()| out.clone()).map_err(|e| e.to_string());
            if let Ok(text) = &written {
                prop_assert_eq!(&crate::common::observed_reassembly(&t, &doc), text);
            }
            prop_assert_eq!(written, built);
        }
    }

    #[test]
    fn template_text_never_panics(text in expression(), doc in record()) {
        if let Ok(t) = Template::compile_str(&text, &Settings::default()) {
            let _ = t.apply(&doc);
        }
    }

    #[test]
    fn loops_over_random_records(doc in record()) {
        let t = Template::compile_str(
            r##"{"#loop($..*)": {"v": "#currentvalue()", "#loop($.*)": "#currentindex()", "s": "#sum($.a)"}}"##,
            &Settings::default(),
        ).unwrap();
        let _ = t.apply(&doc);
    }
}

#[test]
fn deeply_nested_templates_are_rejected() {
    let depth = 10_000;
    let text = "{\"a\":".repeat(depth) + "1" + &"}".repeat(depth);
    let e = Template::compile_str(&text, &Settings::default()).unwrap_err();
    assert!(e.to_string().contains("nests too deeply"), "{e}");
    // Built as a value (not text), the compiler's own limit applies.
    let mut v = Value::from(1);
    for _ in 0..depth {
        v = Value::object([("a".into(), v)].into_iter().collect());
    }
    let e = Template::compile(&v, &Settings::default()).unwrap_err();
    assert!(e.to_string().contains("deeper than"), "{e}");
    drop_deep(v);
}

/// Dropping a very deep value recursively could overflow; unwrap it iteratively.
fn drop_deep(mut v: Value) {
    loop {
        let next = match &mut v {
            Value::Object(o) => std::sync::Arc::get_mut(o).and_then(|m| m.remove("a")),
            _ => None,
        };
        match next {
            Some(n) => v = n,
            None => break,
        }
    }
}

#[test]
fn deeply_nested_calls_are_rejected() {
    let expr = "#concat(".repeat(500) + "a" + &",b)".repeat(500);
    let template = Value::object([("r".into(), Value::from(expr))].into_iter().collect());
    let e = Template::compile(&template, &Settings::default()).unwrap_err();
    assert!(e.to_string().contains("nested more than"), "{e}");
}

#[test]
fn deeply_nested_filters_are_rejected() {
    let path = "$".to_string() + &"[?(@".repeat(200) + &")]".repeat(200);
    assert!(JsonPath::parse(&path).is_err());
}

#[test]
fn huge_strings_are_handled() {
    let big = "x".repeat(4 << 20);
    let t = Template::compile_str(
        r##"{"n": "#length(#valueof($.s))", "i": "#firstindexof(#valueof($.s),y)"}"##,
        &Settings::default(),
    )
    .unwrap();
    let input = Value::object([("s".into(), Value::from(big))].into_iter().collect());
    assert_eq!(
        t.apply(&input).unwrap().to_json_compact(),
        r#"{"n":4194304,"i":-1}"#
    );
}

/// Nested loops multiply: four levels over 100 items would build 10^8 values. The output
/// limit stops it with a message naming the limit, long before memory runs out.
#[test]
fn nested_loop_bombs_end_at_the_output_limit() {
    let settings = Settings {
        limits: syncdef_transform::Limits {
            max_output_nodes: 100_000,
            ..syncdef_transform::Limits::default()
        },
        ..Settings::default()
    };
    let t = Template::compile_str(
        r##"{"a": {"#loop($.xs)": {"b": {"#loop($.xs)": {"c": {"#loop($.xs)": {"d": {"#loop($.xs)": "#currentvalue()"}}}}}}}}"##,
        &settings,
    )
    .unwrap();
    // Inside a loop `$` is the current item, so each item holds the next level; the levels
    // are shared values, so the record itself stays small.
    let mut level = Value::array((0..100).map(Value::from).collect());
    for _ in 0..3 {
        let item = Value::object([("xs".into(), level)].into_iter().collect());
        level = Value::array(vec![item; 100]);
    }
    let doc = Value::object([("xs".into(), level)].into_iter().collect());
    let e = t.apply(&doc).unwrap_err();
    assert!(e.to_string().contains("limits.max_output_nodes"), "{e}");
}
