//! Reads that share a filtered prefix (`$.l[?(@.k==1)]`) reuse the items the first one kept,
//! within one apply and from the same root only.

use crate::common::*;

#[test]
fn reads_of_one_filtered_item_see_that_item() {
    yields(
        r##"{"v":"#valueof($.l[?(@.k==1)].v)","w":"#valueof($.l[?(@.k==1)].w)","all":"#valueof($.l[?(@.k==1)])"}"##,
        r#"{"l":[{"k":0,"v":"a","w":"b"},{"k":1,"v":"c","w":"d"}]}"#,
        r#"{"v":"c","w":"d","all":{"k":1,"v":"c","w":"d"}}"#,
    );
}

#[test]
fn a_scope_reads_the_same_prefix_from_its_own_root() {
    // The same path text, first from the record, then from a scope, then from the record.
    yields(
        r##"{"a":"#valueof($.l[?(@.k==1)].v)","s":{"#scope($.s)":{"b":"#valueof($.l[?(@.k==1)].v)"}},"c":"#valueof($.l[?(@.k==1)].v)"}"##,
        r#"{"l":[{"k":1,"v":"outer"}],"s":{"l":[{"k":2,"v":"no"},{"k":1,"v":"inner"}]}}"#,
        r#"{"a":"outer","s":{"b":"inner"},"c":"outer"}"#,
    );
}

#[test]
fn a_scope_in_a_loop_reads_each_element() {
    yields(
        r##"{"r":{"#loop($.t)":{"#scope($)":{"v":"#valueof($.l[?(@.k==1)].v)","w":"#valueof($.l[?(@.k==1)].w)"}}}}"##,
        r#"{"t":[{"l":[{"k":1,"v":"a","w":"b"}]},{"l":[{"k":0,"v":"x"},{"k":1,"v":"c","w":"d"}]},{"l":[]}]}"#,
        r#"{"r":[{"v":"a","w":"b"},{"v":"c","w":"d"},{"v":null,"w":null}]}"#,
    );
}

#[test]
fn filters_that_read_the_root_see_the_scope_root() {
    yields(
        r##"{"a":"#valueof($.l[?(@.k==$.n)].v)","s":{"#scope($.s)":{"b":"#valueof($.l[?(@.k==$.n)].v)"}}}"##,
        r#"{"n":1,"l":[{"k":1,"v":"outer"},{"k":2,"v":"no"}],"s":{"n":2,"l":[{"k":1,"v":"no"},{"k":2,"v":"inner"}]}}"#,
        r#"{"a":"outer","s":{"b":"inner"}}"#,
    );
}

#[test]
fn different_filters_on_one_array_are_not_confused() {
    yields(
        r##"{"a":"#valueof($.l[?(@.k==1)].v)","b":"#valueof($.l[?(@.k==2)].v)","c":"#valueof($.l[?(@.k==1)].v)","d":"#valueof($.m[?(@.k==1)].v)","e":"#valueof($.l[?(@.k!=1)].v)"}"##,
        r#"{"l":[{"k":1,"v":"one"},{"k":2,"v":"two"},{"k":3,"v":"three"}],"m":[{"k":1,"v":"m"}]}"#,
        r#"{"a":"one","b":"two","c":"one","d":"m","e":["two","three"]}"#,
    );
}

#[test]
fn several_passing_items_keep_their_order() {
    yields(
        r##"{"a":"#valueof($.l[?(@.k==1)].v)","b":"#valueof($.l[?(@.k==1)].w)"}"##,
        r#"{"l":[{"k":1,"v":"a"},{"k":0,"v":"x","w":"x"},{"k":1,"v":"b","w":"c"},{"k":1,"w":"d"}]}"#,
        r#"{"a":["a","b"],"b":["c","d"]}"#,
    );
}

#[test]
fn arrays_longer_than_the_memo_holds_are_read_in_full() {
    let items: Vec<String> = (0..70)
        .map(|i| format!(r#"{{"k":{},"v":{i}}}"#, i % 3))
        .collect();
    let input = format!(r#"{{"l":[{}]}}"#, items.join(","));
    let ones: Vec<String> = (0..70)
        .filter(|i| i % 3 == 1)
        .map(|i| i.to_string())
        .collect();
    let expected = format!(r#"{{"a":[{0}],"b":[{0}]}}"#, ones.join(","));
    yields(
        r##"{"a":"#valueof($.l[?(@.k==1)].v)","b":"#valueof($.l[?(@.k==1)].v)"}"##,
        &input,
        &expected,
    );
}

mod property {
    use proptest::prelude::*;
    use syncdef_transform::{Settings, Template, Value};

    /// A list of items that filters on `k` pick from (or, now and then, not a list).
    fn list() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            (0i64..3).prop_map(Value::Int),
            any::<bool>().prop_map(Value::Bool),
            "[xy]".prop_map(Value::from),
        ];
        let item = prop::collection::vec(
            (prop_oneof![Just("k"), Just("v"), Just("w")], leaf.clone()),
            0..4,
        )
        .prop_map(|kv| Value::object(kv.into_iter().map(|(k, v)| (k.into(), v)).collect()));
        prop_oneof![
            6 => prop::collection::vec(item, 0..5).prop_map(Value::array),
            1 => leaf,
        ]
    }

    fn level() -> impl Strategy<Value = Vec<(&'static str, Value)>> {
        ((0i64..3), list(), list())
            .prop_map(|(n, l, m)| vec![("n", Value::Int(n)), ("l", l), ("m", m)])
    }

    /// `{"n", "l", "m", "s": {"n", "l", "m"}, "t": [{"n", "l", "m"}, ...]}`.
    fn doc() -> impl Strategy<Value = Value> {
        let object = |members: Vec<(&str, Value)>| {
            Value::object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
        };
        (level(), level(), prop::collection::vec(level(), 0..3)).prop_map(move |(mut top, s, t)| {
            top.push(("s", object(s)));
            top.push(("t", Value::array(t.into_iter().map(object).collect())));
            object(top)
        })
    }

    /// A filtered read, placed in the record's root, in a scope or in a loop's scope.
    fn read() -> impl Strategy<Value = (String, usize)> {
        let prefix = prop_oneof![
            Just("$.l[?(@.k==1)]"),
            Just("$.l[?(@.k==true)]"),
            Just("$.l[?(@.k!=1)]"),
            Just("$.m[?(@.k==1)]"),
            Just("$.l[?(@.k==$.n)]"),
            Just("$.l[?(@.v)]"),
        ];
        let suffix = prop_oneof![Just(""), Just(".v"), Just(".w"), Just(".k")];
        (prefix, suffix, 0usize..3).prop_map(|(p, s, at)| (format!("#valueof({p}{s})"), at))
    }

    /// The template of `reads`, property `r<i>` for read `i`.
    fn template(reads: &[(String, usize)]) -> Value {
        let props = reads.iter().enumerate().map(|(i, (read, at))| {
            let read = Value::from(read.as_str());
            let body = |v: Value| Value::object([("x".into(), v)].into_iter().collect());
            let value = match at {
                0 => read,
                1 => Value::object([("#scope($.s)".into(), body(read))].into_iter().collect()),
                _ => Value::object(
                    [(
                        "#loop($.t)".into(),
                        Value::object([("#scope($)".into(), body(read))].into_iter().collect()),
                    )]
                    .into_iter()
                    .collect(),
                ),
            };
            (format!("r{i}").into(), value)
        });
        Value::object(props.collect())
    }

    fn applied(template: &Value, doc: &Value) -> (String, String) {
        let t = Template::compile(template, &Settings::default()).expect("compiles");
        let built = t.apply(doc).expect("applies").to_json_compact();
        let mut written = String::new();
        t.apply_to_json(doc, &mut written).expect("applies");
        (built, written)
    }

    proptest! {
        /// Several reads in one apply give what each gives alone (where nothing was kept).
        #[test]
        fn reads_together_give_what_each_gives_alone(
            reads in prop::collection::vec(read(), 1..7),
            doc in doc(),
        ) {
            let (built, written) = applied(&template(&reads), &doc);
            prop_assert_eq!(&written, &built);
            // Alone, a read is the first of its apply: nothing is kept before it.
            let alone: Vec<String> = reads
                .iter()
                .map(|read| {
                    let (built, _) = applied(&template(std::slice::from_ref(read)), &doc);
                    built["{\"r0\":".len()..built.len() - 1].to_string()
                })
                .collect();
            let together = Value::from_json_str(&built).expect("json");
            let Value::Object(together) = together else { panic!("an object") };
            for (i, alone) in alone.iter().enumerate() {
                let key = format!("r{i}");
                let got = together.get(&key).map(syncdef_transform::Value::to_json_compact).unwrap_or_default();
                prop_assert_eq!(&got, alone, "read {} of {:?}", i, reads);
            }
        }
    }
}
