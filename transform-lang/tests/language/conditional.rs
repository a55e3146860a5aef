use crate::common::*;

const INPUT: &str = r#"{"a":"abc","n":123,"b":true,"arr":[1],"nul":null,"e":""}"#;

#[test]
fn ifcondition_compares_string_forms() {
    assert_eq!(
        value("#ifcondition(#valueof($.a),abc,yes,no)", INPUT),
        "\"yes\""
    );
    assert_eq!(
        value("#ifcondition(#valueof($.a),ABC,yes,no)", INPUT),
        "\"yes\""
    );
    // 123 equals "123".
    assert_eq!(
        value("#ifcondition(#valueof($.n),123,yes,no)", INPUT),
        "\"yes\""
    );
    // A bool's string form is True: equal to `true` ignoring case.
    assert_eq!(
        value("#ifcondition(#valueof($.b),true,yes,no)", INPUT),
        "\"yes\""
    );
    // Literal arguments are not trimmed: " abc" differs from "abc".
    assert_eq!(
        value("#ifcondition(#valueof($.a), abc,yes,no)", INPUT),
        "\"no\""
    );
}

#[test]
fn ifcondition_null_rules() {
    assert_eq!(
        value("#ifcondition(#valueof($.nul),#valueof($.zz),yes,no)", INPUT),
        "\"yes\""
    );
    assert_eq!(
        value("#ifcondition(#valueof($.nul),#stringempty(),yes,no)", INPUT),
        "\"no\""
    );
    assert_eq!(
        value("#ifcondition(#valueof($.e),#stringempty(),yes,no)", INPUT),
        "\"yes\""
    );
}

#[test]
fn ifcondition_is_case_sensitive_in_strict_mode_only() {
    assert_eq!(
        value_in(STRICT, "#ifcondition(#valueof($.a),ABC,yes,no)", INPUT),
        "\"no\""
    );
    assert_eq!(
        value_in(STRICT, "#ifcondition(#valueof($.b),true,yes,no)", INPUT),
        "\"no\""
    );
    assert_eq!(
        value_in(STRICT, "#ifcondition(#valueof($.b),True,yes,no)", INPUT),
        "\"yes\""
    );
    // Strict|LookInTransformed is not exactly Strict: comparisons ignore case.
    let mode = STRICT | syncdef_transform::EvaluationMode::LOOK_IN_TRANSFORMED;
    assert_eq!(
        value_in(mode, "#ifcondition(#valueof($.a),ABC,yes,no)", INPUT),
        "\"yes\""
    );
}

#[test]
fn ifcondition_is_lazy() {
    // ConditionalFunctionsTests.LazyEvaluation: the branch not taken is not evaluated, so its
    // error does not surface even in Strict mode.
    assert_eq!(
        value_in(STRICT, "#ifcondition(a,a,ok,#substring(x,100,100))", INPUT),
        "\"ok\""
    );
}

#[test]
fn ifcondition_returns_tokens() {
    assert_eq!(value("#ifcondition(1,1,#valueof($.arr),x)", INPUT), "[1]");
}

#[test]
fn ifgroup_as_key_merges_when_true() {
    // ConditionalFunctionsTests: the group's properties are appended to the parent.
    yields(
        r##"{"x":1,"#ifgroup(#exists($.a))":{"g":"#valueof($.a)"},"y":2}"##,
        INPUT,
        r#"{"x":1,"y":2,"g":"abc"}"#,
    );
    yields(
        r##"{"x":1,"#ifgroup(#exists($.zz))":{"g":1}}"##,
        INPUT,
        r#"{"x":1}"#,
    );
}

#[test]
fn ifgroup_false_does_not_evaluate() {
    // ConditionalGroupDoNotEvaluateIfFalse: an error in the group does not surface.
    yields_in(
        STRICT,
        r##"{"#ifgroup(false)":{"g":"#substring(x,100,100)"}}"##,
        INPUT,
        r"{}",
    );
}

#[test]
fn ifgroup_condition_must_be_boolean_in_strict() {
    // ConditionalGroupException*: a non-boolean is false by default, an error in Strict.
    yields(r##"{"#ifgroup(abc)":{"g":1}}"##, INPUT, "{}");
    let e = fails_in(STRICT, r##"{"#ifgroup(abc)":{"g":1}}"##, INPUT);
    assert!(e.contains("not a boolean"), "{e}");
}

#[test]
fn ifgroup_with_a_loop_inside_replaces_the_value() {
    // ConditionalGroupTrueWithLoopInside
    yields(
        r##"{"r":{"#ifgroup(true)":{"#loop($.arr)":{"v":"#currentvalue()"}}}}"##,
        INPUT,
        r#"{"r":[{"v":1}]}"#,
    );
}

#[test]
fn ifgroup_value_form_drops_from_arrays() {
    // ConditionalGroupSingleValue
    yields(
        r##"{"r":["#ifgroup(true,a)","#ifgroup(false,b)","c"]}"##,
        INPUT,
        r#"{"r":["a","c"]}"#,
    );
    assert_eq!(value("#ifgroup(false,b)", INPUT), "null");
}

#[test]
fn ifcondition_of_plain_arguments_writes_the_branch_as_read() {
    // Literals and reads only: the branch is a read's token itself, unescaped as a property
    // value, whatever its type.
    let input = r#"{"a":"USD","o":{"x":[1,2]},"esc":"/#y","nul":null}"#;
    yields(
        r##"{"v":"#ifcondition(#valueof($.a),,,#valueof($.a))","o":"#ifcondition(#valueof($.a),usd,#valueof($.o),no)","e":"#ifcondition(1,2,x,#valueof($.esc))","n":"#ifcondition(#valueof($.nul),#valueof($.zz),#valueof($.zz),no)"}"##,
        input,
        r##"{"v":"USD","o":{"x":[1,2]},"e":"#y","n":null}"##,
    );
    // Case matters in Strict mode only.
    yields_in(
        syncdef_transform::EvaluationMode::STRICT,
        r##"{"o":"#ifcondition(#valueof($.a),usd,yes,no)"}"##,
        input,
        r#"{"o":"no"}"#,
    );
}

#[test]
fn ifcondition_reads_count_steps_and_report_the_call() {
    // One step for the call, one for each read it evaluates: the branch read is the fourth.
    let template = r##"{"r":"#ifcondition(#valueof($.a),x,#valueof($.b),#valueof($.c))"}"##;
    let input = r#"{"a":"x","b":1,"c":2}"#;
    let mut settings = syncdef_transform::Settings::default();
    settings.limits.max_steps = 3;
    assert_eq!(run_with(&settings, template, input).unwrap(), r#"{"r":1}"#);
    settings.limits.max_steps = 2;
    let err = run_with(&settings, template, input).unwrap_err();
    assert!(
        err.starts_with("at template /r")
            && err.contains("more than 2 steps")
            && err.contains("ifcondition"),
        "{err}"
    );
    settings.limits.max_steps = 0;
    let err = run_with(&settings, template, input).unwrap_err();
    assert!(
        err.starts_with("at template /r")
            && err.contains("more than 0 steps")
            && !err.contains("ifcondition"),
        "{err}"
    );
}
