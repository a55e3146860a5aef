//! `#concat` and `#xconcat` join left to right into one buffer: what they give and how they
//! fail, pinned across many arguments, so that a faster join cannot change either.

use syncdef_transform::{EvaluationMode, Settings};

use crate::common::*;

const INPUT: &str = r#"{"s":"ab","n":5,"t":true,"a1":[1,2],"a2":[3],"nul":null,"o":{"p":1}}"#;
const STRICT: EvaluationMode = EvaluationMode::STRICT;

#[test]
fn one_value_is_given_back_as_it_is() {
    assert_eq!(value("#xconcat(#valueof($.a1))", INPUT), "[1,2]");
    assert_eq!(value("#xconcat(#valueof($.s))", INPUT), "\"ab\"");
    assert_eq!(value("#xconcat(#valueof($.n))", INPUT), "\"5\"");
    assert_eq!(
        value("#xconcat(#valueof($.nul),#valueof($.nul))", INPUT),
        "null"
    );
}

#[test]
fn numbers_booleans_and_objects_join_by_their_string_form() {
    assert_eq!(
        value(
            "#xconcat(#valueof($.n),#valueof($.t),#valueof($.nul),#valueof($.s))",
            INPUT
        ),
        "\"5Trueab\""
    );
    assert_eq!(
        value("#xconcat(#valueof($.s),#valueof($.o))", INPUT),
        r#""ab{\n  \"p\": 1\n}""#
    );
}

#[test]
fn many_arrays_keep_their_order() {
    let args = vec!["#valueof($.a1),#valueof($.nul),#valueof($.a2)"; 50].join(",");
    let expected = format!("[{}]", vec!["1,2,3"; 50].join(","));
    assert_eq!(value(&format!("#xconcat({args})"), INPUT), expected);
}

#[test]
fn an_array_beside_anything_else_fails_naming_the_other_side() {
    for (expr, other) in [
        ("#xconcat(#valueof($.a1),#valueof($.a2),x)", "string"),
        ("#xconcat(x,#valueof($.a1))", "string"),
        ("#xconcat(#valueof($.n),#valueof($.a1))", "string"),
        ("#xconcat(#valueof($.a1),#valueof($.n))", "number"),
        ("#xconcat(#valueof($.a1),#valueof($.o))", "object"),
        ("#concat(#valueof($.a1),#valueof($.t))", "boolean"),
    ] {
        let template = serde_json::json!({ "r": expr }).to_string();
        let e = fails_in(STRICT, &template, INPUT);
        assert!(
            e.contains(&format!("cannot join an array with a {other}")),
            "{expr}: {e}"
        );
        assert_eq!(value(expr, INPUT), "null", "{expr} outside Strict");
    }
}

#[test]
fn the_length_limit_stops_the_join_at_the_argument_that_passes_it() {
    let mut settings = Settings::default();
    settings.limits.max_string_len = 1000;
    let input = format!(r#"{{"s":"{}"}}"#, "x".repeat(100));
    let args = ["#valueof($.s)"; 11].join(",");
    let template = format!(r##"{{"r":"#xconcat({args})"}}"##);
    let e = run_with(&settings, &template, &input).unwrap_err();
    assert!(e.contains("a string would be 1100 bytes long"), "{e}");
    let ten = ["#valueof($.s)"; 10].join(",");
    let out = run_with(
        &settings,
        &format!(r##"{{"r":"#xconcat({ten})"}}"##),
        &input,
    );
    assert_eq!(out, Ok(format!(r#"{{"r":"{}"}}"#, "x".repeat(1000))));
}
