use crate::common::*;
use syncdef_transform::EvaluationMode;

const INPUT: &str = r#"{"src":{"x":1,"y":{"p":1,"q":2}},"items":[{"k":"a"},{"k":"b"}],"nul":null}"#;

#[test]
fn copy_appends_after_template_properties() {
    yields(
        r##"{"#":["#copy($.src)"],"own":0}"##,
        INPUT,
        r#"{"own":0,"x":1,"y":{"p":1,"q":2}}"#,
    );
}

#[test]
fn copy_duplicate_fails_unless_add_or_replace() {
    let e = fails_in(
        EvaluationMode::default(),
        r##"{"x":0,"#":["#copy($.src)"]}"##,
        INPUT,
    );
    assert!(e.contains("second time"), "{e}");
    // BulkFunctionsTests.CopyAddKnownProperty / CopyReplace*: template values win, objects merge.
    yields_in(
        EvaluationMode::ADD_OR_REPLACE_PROPERTIES,
        r##"{"x":0,"y":{"p":9,"r":3},"#":["#copy($.src)"]}"##,
        INPUT,
        r#"{"x":0,"y":{"p":9,"r":3,"q":2}}"#,
    );
}

#[test]
fn replace_and_delete_act_on_the_output() {
    yields(
        r##"{"#":["#copy($.src)","#replace($.y.p,#valueof($.items[1].k))","#delete($.x)"],"own":0}"##,
        INPUT,
        r#"{"own":0,"y":{"p":"b","q":2}}"#,
    );
}

#[test]
fn operations_run_copy_then_replace_then_delete() {
    // Written in the opposite order, they still run copy, replace, delete.
    yields(
        r##"{"#":["#delete($.x)","#replace($.y,0)","#copy($.src)"]}"##,
        INPUT,
        r#"{"y":"0"}"#,
    );
}

#[test]
fn invalid_paths_fail_in_every_mode() {
    // BulkFunctionsTests.*InvalidArgument
    let e = fails_in(
        EvaluationMode::default(),
        r##"{"#":["#copy($.nope)"]}"##,
        INPUT,
    );
    assert!(
        e.contains("Invalid path for #copy: '$.nope' resolved to null!"),
        "{e}"
    );
    fails_in(
        EvaluationMode::default(),
        r##"{"a":1,"#":["#replace($.b,1)"]}"##,
        INPUT,
    );
    fails_in(
        EvaluationMode::default(),
        r##"{"a":1,"#":["#delete($.b)"]}"##,
        INPUT,
    );
}

#[test]
fn copy_in_a_loop_reads_the_element() {
    yields(
        r##"{"r":{"#loop($.items)":{"#":["#copy($)"],"i":"#currentindex()"}}}"##,
        INPUT,
        r#"{"r":[{"i":0,"k":"a"},{"i":1,"k":"b"}]}"#,
    );
}
