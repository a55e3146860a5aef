//! `#delete` removes everything its path selects at once: what remains, and its order, pinned
//! for the selections where removing one location moves another.

use syncdef_transform::Settings;

use crate::common::*;

const RECORD: &str = r#"{
  "items": [
    {"id": 0, "d": 1, "tags": [{"d": 1}, {"d": 0}, {"d": 1}]},
    {"id": 1, "d": 0, "tags": [{"d": 1}, {"d": 1}]},
    {"id": 2, "d": 1},
    {"id": 3, "d": 0, "x": {"d": 1, "tags": [{"d": 1}]}}
  ],
  "o": {"a": 1, "b": 2, "c": 3}
}"#;

fn deleted(path: &str) -> String {
    let template = format!(r##"{{"#":["#copy($)","#delete({path})"]}}"##);
    run_with(&Settings::default(), &template, RECORD).unwrap_or_else(|e| format!("error: {e}"))
}

#[test]
fn every_other_item() {
    assert_eq!(
        deleted("$.items[?(@.d == 1)]"),
        r#"{"items":[{"id":1,"d":0,"tags":[{"d":1},{"d":1}]},{"id":3,"d":0,"x":{"d":1,"tags":[{"d":1}]}}],"o":{"a":1,"b":2,"c":3}}"#
    );
}

#[test]
fn items_at_several_depths() {
    assert_eq!(
        deleted("$..[?(@.d == 1)]"),
        r#"{"items":[{"id":1,"d":0,"tags":[]},{"id":3,"d":0}],"o":{"a":1,"b":2,"c":3}}"#
    );
}

#[test]
fn members_and_items_together() {
    assert_eq!(
        deleted("$..d"),
        r#"{"items":[{"id":0,"tags":[{},{},{}]},{"id":1,"tags":[{},{}]},{"id":2},{"id":3,"x":{"tags":[{}]}}],"o":{"a":1,"b":2,"c":3}}"#
    );
    assert_eq!(
        deleted("$.o.*"),
        r#"{"items":[{"id":0,"d":1,"tags":[{"d":1},{"d":0},{"d":1}]},{"id":1,"d":0,"tags":[{"d":1},{"d":1}]},{"id":2,"d":1},{"id":3,"d":0,"x":{"d":1,"tags":[{"d":1}]}}],"o":{}}"#
    );
}

#[test]
fn an_index_selected_twice_removes_two_items() {
    let out = deleted("$.items[0/,0/,2]");
    assert_eq!(
        out,
        r#"{"items":[{"id":3,"d":0,"x":{"d":1,"tags":[{"d":1}]}}],"o":{"a":1,"b":2,"c":3}}"#
    );
}

#[test]
fn members_of_a_large_object_keep_their_order_and_can_be_read() {
    let members: Vec<String> = (0..40).map(|i| format!(r#""m{i}":{{"v":{i}}}"#)).collect();
    let record = format!(r#"{{"o":{{{}}}}}"#, members.join(","));
    let template = r##"{"#":["#copy($)","#delete($..[?(@.v > 4)])"],"r":"#valueof($.o.m3.v)"}"##;
    let out = run_with(&Settings::default(), template, &record);
    assert_eq!(
        out.as_deref(),
        Ok(r#"{"r":3,"o":{"m0":{"v":0},"m1":{"v":1},"m2":{"v":2},"m3":{"v":3},"m4":{"v":4}}}"#)
    );
}
