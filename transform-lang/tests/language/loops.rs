use crate::common::*;

const INPUT: &str = r#"{"items":[{"name":"a","n":1,"tags":["x","y"]},{"name":"b","n":2,"tags":["z"]}],"props":{"p1":{"v":1},"p2":{"v":2}},"nums":[1,2,3],"top":"T","empty":[],"nul":null,"scalar":5}"#;

#[test]
fn loop_over_array_replaces_the_object() {
    yields(
        r##"{"r":{"#loop($.items)":{"name":"#currentvalueatpath($.name)","i":"#currentindex()","last":"#lastindex()"}}}"##,
        INPUT,
        r#"{"r":[{"name":"a","i":0,"last":1},{"name":"b","i":1,"last":1}]}"#,
    );
}

#[test]
fn siblings_of_a_loop_are_lost() {
    // README: loops must be the last property.
    yields(
        r##"{"r":{"x":1,"#loop($.nums)":"#currentvalue()"}}"##,
        INPUT,
        r#"{"r":[1,2,3]}"#,
    );
}

#[test]
fn root_loop_gives_an_array() {
    // ArrayInputTests.LoopingRoot
    yields(
        r##"{"#loop($.nums)":{"v":"#currentvalue()"}}"##,
        INPUT,
        r#"[{"v":1},{"v":2},{"v":3}]"#,
    );
}

#[test]
fn valueof_in_a_loop_reads_the_record() {
    yields(
        r##"{"r":{"#loop($.nums)":{"t":"#valueof($.top)"}}}"##,
        INPUT,
        r#"{"r":[{"t":"T"},{"t":"T"},{"t":"T"}]}"#,
    );
}

#[test]
fn nested_loops_are_relative_and_aliases_reach_out() {
    // LoopingTests.LoopingAlias
    yields(
        r##"{"r":{"#loop($.items,outer)":{"#loop($.tags,inner)":{"t":"#currentvalue()","of":"#currentvalueatpath($.name,outer)","oi":"#currentindex(outer)"}}}}"##,
        INPUT,
        r#"{"r":[[{"t":"x","of":"a","oi":0},{"t":"y","of":"a","oi":0}],[{"t":"z","of":"b","oi":1}]]}"#,
    );
}

#[test]
fn inner_loop_over_root() {
    // LoopingTests.InsideLoopOverRoot
    yields(
        r##"{"r":{"#loop($.items)":{"#loop($.nums,x,root)":"#currentvalue()"}}}"##,
        INPUT,
        r#"{"r":[[1,2,3],[1,2,3]]}"#,
    );
}

#[test]
fn last_value_functions() {
    yields(
        r##"{"r":{"#loop($.items)":{"lv":"#lastvalueatpath($.name)","l":"#lastvalue()"}}}"##,
        INPUT,
        r#"{"r":[{"lv":"b","l":{"name":"b","n":2,"tags":["z"]}},{"lv":"b","l":{"name":"b","n":2,"tags":["z"]}}]}"#,
    );
}

#[test]
fn two_loops_concatenate() {
    // LoopingTests.TwoLoopsSingleProperty
    yields(
        r##"{"r":{"#loop($.nums)":"#currentvalue()","#loop($.items)":"#currentvalueatpath($.name)"}}"##,
        INPUT,
        r#"{"r":[1,2,3,"a","b"]}"#,
    );
}

#[test]
fn loop_over_object_properties() {
    // LoopingTests.LoopOverProperties
    yields(
        r##"{"r":{"#loop($.props)":{"#eval(#currentproperty())":"#currentvalueatpath($..v)"}}}"##,
        INPUT,
        r#"{"r":{"p1":1,"p2":2}}"#,
    );
    // EmptyPropertiesLooping
    yields(
        r##"{"r":{"#loop($.o)":{"#eval(#currentproperty())":1}}}"##,
        r#"{"o":{}}"#,
        r#"{"r":{}}"#,
    );
}

#[test]
fn null_and_missing_loops_remove_the_key() {
    // LoopingTests.NullLooping
    yields(
        r##"{"r":{"#loop($.nul)":{"a":1}}}"##,
        INPUT,
        r#"{"r":null}"#,
    );
    yields(
        r##"{"r":{"#loop($.missing)":{"a":1}}}"##,
        INPUT,
        r#"{"r":null}"#,
    );
    yields(
        r##"{"r":{"x":1,"#loop($.scalar)":{"a":1}}}"##,
        INPUT,
        r#"{"r":{"x":1}}"#,
    );
    yields(
        r##"{"r":{"#loop($.empty)":{"a":1}}}"##,
        INPUT,
        r#"{"r":[]}"#,
    );
}

#[test]
fn single_filter_result_is_wrapped() {
    // LoopingTests.SingleResultFilter, SingleIndexReference
    yields(
        r##"{"r":{"#loop($.items[?(@.n==2)])":"#currentvalueatpath($.name)"}}"##,
        INPUT,
        r#"{"r":["b"]}"#,
    );
    yields(
        r##"{"r":{"#loop($.items[0])":"#currentvalueatpath($.name)"}}"##,
        INPUT,
        r#"{"r":["a"]}"#,
    );
}

#[test]
fn loop_path_may_be_a_function() {
    // LoopingTests.FunctionAsLoopArgument / DynamicExpression
    yields(
        r##"{"r":{"#loop(#xconcat($.,items))":"#currentvalueatpath($.n)"}}"##,
        INPUT,
        r#"{"r":[1,2]}"#,
    );
    yields(
        r##"{"r":{"#loop(#xconcat($.items[?/(@.n==,1,/)]))":"#currentvalueatpath($.name)"}}"##,
        INPUT,
        r#"{"r":["a"]}"#,
    );
}

#[test]
fn null_element_results_become_empty_objects() {
    yields(
        r##"{"r":{"#loop($.nums)":"#valueof($.nope)"}}"##,
        INPUT,
        r#"{"r":[{},{},{}]}"#,
    );
}

#[test]
fn loop_functions_outside_a_loop_fail_in_every_mode() {
    let e = fails_in(
        syncdef_transform::EvaluationMode::default(),
        r##"{"r":"#currentvalue()"}"##,
        INPUT,
    );
    assert!(e.contains("inside #loop"), "{e}");
}

#[test]
fn loop_inside_an_array_is_spliced_in_place() {
    // Deviation: JUST appends the items at the end of the array.
    yields(
        r##"{"r":["first",{"#loop($.nums)":"#currentvalue()"},"last"]}"##,
        INPUT,
        r#"{"r":["first",1,2,3,"last"]}"#,
    );
}

#[test]
fn eval_keys() {
    // DynamicPropertiesTests
    yields(
        r##"{"a":1,"#eval(#xconcat(name,#valueof($.nums[0])))":"#valueof($.top)","b":2}"##,
        INPUT,
        r#"{"a":1,"b":2,"name1":"T"}"#,
    );
}

#[test]
fn scopes() {
    // ScopeTests, ReadmeTests.Scopes
    yields(
        r##"{"r":{"#scope($.items[1])":{"name":"#valueof($.name)","top":"#valueof($.top,root)"}}}"##,
        INPUT,
        r#"{"r":{"name":"b","top":"T"}}"#,
    );
    yields(
        r##"{"r":{"#scope($.props,s1)":{"x":{"#scope($.p2)":{"v":"#valueof($.v)","outer":"#valueof($.p1.v,s1)"}}}}}"##,
        INPUT,
        r#"{"r":{"x":{"v":2,"outer":1}}}"#,
    );
}

#[test]
fn applyover() {
    // ReadmeTests.ApplyOver
    yields(
        r##"{"r":"#applyover({ 'v': '#valueof($.top)' },#valueof($.v))"}"##,
        INPUT,
        r#"{"r":"T"}"#,
    );
    yields(
        r##"{"r":"#applyover(#xconcat({ 'a': 1,#constant_comma(), 'b': '#valueof($.top)' }),'{ \"both\": \"#xconcat(#valueof($.a),#valueof($.b))\" }')"}"##,
        INPUT,
        r#"{"r":{"both":"1T"}}"#,
    );
}

#[test]
fn applyover_in_a_loop_reads_the_element() {
    // InsideNestedLoopsWithAlias
    yields(
        r##"{"r":{"#loop($.items,it)":{"v":"#applyover({ 'x': '#valueof($.name)' },#valueof($.x),it)"}}}"##,
        INPUT,
        r#"{"r":[{"v":"a"},{"v":"b"}]}"#,
    );
}
