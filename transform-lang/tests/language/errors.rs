//! Compile errors: kinds, locations and messages (insta snapshots of the rendering).

use syncdef_transform::{CompileErrorKind, CompileErrors, NodePart, Settings, Template};

fn compile(text: &str) -> CompileErrors {
    Template::compile_str(text, &Settings::default()).expect_err("should not compile")
}

/// Every error with its kind, location and absolute offset, then the Display rendering.
fn render(text: &str) -> String {
    let errs = compile(text);
    let mut out = String::new();
    for e in errs.errors() {
        let shown = e.location.offset.clone().map_or("", |r| &text[r]);
        out.push_str(&format!(
            "{:?} at {} {:?} {:?} offset {:?} -> `{}`\n",
            e.kind, e.location.pointer, e.location.part, e.location.range, e.location.offset, shown
        ));
    }
    out.push_str("---\n");
    out.push_str(&errs.to_string());
    out
}

#[test]
fn wrong_argument_count_points_at_the_call() {
    let text = r##"{"CurrencyRef": {"value": "#ifcondition(#valueof($.a),x,y)"}}"##;
    let errs = compile(text);
    let e = &errs.errors()[0];
    assert_eq!(e.kind, CompileErrorKind::ArgumentCount);
    assert_eq!(e.location.pointer, "/CurrencyRef/value");
    assert_eq!(e.location.part, NodePart::Value);
    assert_eq!(e.location.range, 0..31);
    assert!(e.message.contains("takes 4"), "{}", e.message);
    insta::assert_snapshot!(render(text));
}

#[test]
fn unknown_function_suggests_a_name() {
    insta::assert_snapshot!(render(r##"{"a": "#valueoff($.a)", "b": "#Concat(x,y)"}"##));
}

#[test]
fn unbalanced_parentheses() {
    insta::assert_snapshot!(render(r##"{"a": "#valueof($.a", "b": "#concat(a,b))x)"}"##));
}

#[test]
fn invalid_jsonpath_is_located_at_the_character() {
    insta::assert_snapshot!(render(
        r##"{"a": "#valueof($.items[?(@.x == )])", "b": "#exists($.a[)"}"##
    ));
}

#[test]
fn all_errors_are_collected() {
    let text =
        r##"{"a": "#nope()", "b": ["#add(1)"], "c": {"#loop($.x)": {"d": "#valueof($.[)"}}}"##;
    assert_eq!(compile(text).errors().len(), 3);
    insta::assert_snapshot!(render(text));
}

#[test]
fn misplaced_functions() {
    insta::assert_snapshot!(render(
        r##"{"a": "#copy($.x)", "b": "#loop($.x)", "#": ["#valueof($.x)", 3], "c": "#concat(#eval(x),y)"}"##
    ));
}

#[test]
fn typo_in_a_property_function_key() {
    insta::assert_snapshot!(render(r##"{"#lop($.items)": {"a": 1}}"##));
}

#[test]
fn custom_functions_are_not_supported() {
    insta::assert_snapshot!(render(
        r##"{"a": "#customfunction(Asm,Ns.C.m,1)", "b": "#Ns.C::M(1)"}"##
    ));
}

#[test]
fn invalid_template_text() {
    insta::assert_snapshot!(render("{\"a\": [1, 2,, 3]}"));
}

#[test]
fn invalid_applyover_template() {
    insta::assert_snapshot!(render(r##"{"a": "#applyover({ 'x': ,#valueof($.x))"}"##));
}

#[test]
fn errors_in_keys_are_located_in_the_key() {
    let text = r##"{"x": {"#loop($.items[?(@.a ==)])": {"a": 1}}}"##;
    let errs = compile(text);
    assert_eq!(errs.errors()[0].location.part, NodePart::Key);
    insta::assert_snapshot!(render(text));
}

#[test]
fn runtime_error_display() {
    let t = Template::compile_str(
        r##"{"total": "#divide(#valueof($.a),#valueof($.b))"}"##,
        &Settings::with_mode(syncdef_transform::EvaluationMode::STRICT),
    )
    .unwrap();
    let input = syncdef_transform::Value::from_json_str(r#"{"a":1,"b":0}"#).unwrap();
    let e = t.apply(&input).unwrap_err();
    insta::assert_snapshot!(e.to_string());
}

#[test]
fn line_and_column_in_the_text() {
    let text = "{\n  \"a\": 1,\n  \"b\": \"#valueof($.x[)\"\n}";
    let errs = compile(text);
    assert_eq!(errs.errors()[0].line_column(text), Some((3, 21)));
}
