use crate::common::*;

const INPUT: &str =
    r#"{"a":{"b":1,"s":"x","n":null,"arr":[1,2],"e":"  ","o":{}},"list":[{"k":1},{"k":2}]}"#;

#[test]
fn valueof_reads_tokens_of_every_type() {
    assert_eq!(value("#valueof($.a.b)", INPUT), "1");
    assert_eq!(value("#valueof($.a.s)", INPUT), "\"x\"");
    assert_eq!(value("#valueof($.a.arr)", INPUT), "[1,2]");
    assert_eq!(value("#valueof($.a.o)", INPUT), "{}");
    assert_eq!(value("#valueof($.missing)", INPUT), "null");
    // Several matches give an array of them.
    assert_eq!(value("#valueof($.list[*].k)", INPUT), "[1,2]");
}

#[test]
fn scalar_template_returns_whole_input() {
    // SimpleTransformTests: the template "#valueof($)".
    yields("\"#valueof($)\"", r#"{"x":1}"#, r#"{"x":1}"#);
}

#[test]
fn exists_counts_null_values() {
    assert_eq!(value("#exists($.a.n)", INPUT), "true");
    assert_eq!(value("#exists($.a.zz)", INPUT), "false");
}

#[test]
fn exists_and_not_empty_only_for_strings_and_arrays() {
    assert_eq!(value("#existsandnotempty($.a.s)", INPUT), "true");
    assert_eq!(value("#existsandnotempty($.a.e)", INPUT), "false");
    assert_eq!(value("#existsandnotempty($.a.arr)", INPUT), "true");
    assert_eq!(value("#existsandnotempty($.a.b)", INPUT), "false");
    assert_eq!(value("#existsandnotempty($.a.o)", INPUT), "false");
}

#[test]
fn exists_inside_loop_reads_the_element() {
    // ExistanceTests.ExistsInsideLoop
    yields(
        r##"{"r":{"#loop($.list)":{"has":"#exists($.k)"}}}"##,
        INPUT,
        r#"{"r":[{"has":true},{"has":true}]}"#,
    );
}
