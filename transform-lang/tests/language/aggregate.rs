use crate::common::*;

const INPUT: &str = r#"{"n":[1,2,3.5],"neg":[-3,-1],"e":[],"o":[{"v":{"c":2}},{"v":{"c":4}},{"x":1}],"s":["1","2"]}"#;

#[test]
fn sum_average_min_max() {
    assert_eq!(value("#sum($.n)", INPUT), "6.5");
    assert_eq!(value("#sum(#valueof($.s))", INPUT), "3");
    assert_eq!(
        value("#average(#valueof($.n))", INPUT),
        "2.1666666666666666666666666667"
    );
    assert_eq!(value("#min($.n)", INPUT), "1");
    assert_eq!(value("#max($.n)", INPUT), "3.5");
}

#[test]
fn max_of_negative_numbers_is_negative() {
    // Deviation: JUST starts from 0.
    assert_eq!(value("#max($.neg)", INPUT), "-1");
    assert_eq!(value("#min($.e)", INPUT), "null");
    assert_eq!(value("#average($.e)", INPUT), "null");
}

#[test]
fn at_path_forms() {
    assert_eq!(value("#sumatpath($.o,$.v.c)", INPUT), "6");
    // averageatpath divides by the whole array length.
    assert_eq!(value("#averageatpath($.o,$.v.c)", INPUT), "2");
    assert_eq!(value("#minatpath($.o,$.v.c)", INPUT), "2");
    assert_eq!(value("#maxatpath(#valueof($.o),$.v.c)", INPUT), "4");
}

#[test]
fn grouparrayby_one_and_several_keys() {
    let input = r#"{"arr":[{"g":"a","id":1,"v":1},{"g":"b","id":2,"v":2},{"g":"a","id":3,"v":3},{"id":4}]}"#;
    assert_eq!(
        value("#grouparrayby($.arr,g,all)", input),
        r#"[{"g":"a","all":[{"id":1,"v":1},{"id":3,"v":3}]},{"g":"b","all":[{"id":2,"v":2}]}]"#
    );
    assert_eq!(
        value("#grouparrayby($.arr,g:v,all)", input),
        r#"[{"g":"a","v":"1","all":[{"id":1}]},{"g":"b","v":"2","all":[{"id":2}]},{"g":"a","v":"3","all":[{"id":3}]}]"#
    );
}

#[test]
fn grouparrayby_with_another_split_char() {
    // GroupFunctionsTests.RedefineSplitChar
    let settings = syncdef_transform::Settings {
        split_group_char: '|',
        ..Default::default()
    };
    let out = run_with(
        &settings,
        r##"{"r":"#grouparrayby($.arr,g|h,all)"}"##,
        r#"{"arr":[{"g":1,"h":2,"x":0}]}"#,
    )
    .unwrap();
    assert_eq!(out, r#"{"r":[{"g":"1","h":"2","all":[{"x":0}]}]}"#);
}
