use crate::common::*;

const INPUT: &str = r#"{"arr":[1,2],"nul":null,"s":"x","state":"TX","o":{"a":1}}"#;

#[test]
fn output_order_appends_eval_and_ifgroup_after_own_properties() {
    // ReadmeTests.ConditionalTransformation#1: output order Header, Shrubs, State.
    yields(
        r##"{"Header":"h","#ifgroup(true)":{"State":"#valueof($.state)"},"Shrubs":"#valueof($.arr)"}"##,
        INPUT,
        r#"{"Header":"h","Shrubs":[1,2],"State":"TX"}"#,
    );
}

#[test]
fn arrays_flatten_array_results_and_drop_nulls() {
    // LoopingTests.ArrayWithNullValue
    yields(
        r##"{"r":["#valueof($.arr)","#valueof($.nul)","#valueof($.s)",3,null,[ "#valueof($.arr)" ]]}"##,
        INPUT,
        r#"{"r":[1,2,"x",3,null,[1,2]]}"#,
    );
}

#[test]
fn only_values_starting_with_hash_are_evaluated() {
    yields(
        r##"{"a":"abc #valueof($.s)","b":"  #valueof($.s)  ","c":"#abc","d":"#f(x) y "}"##,
        INPUT,
        r##"{"a":"abc #valueof($.s)","b":"x","c":"#abc","d":"#f(x) y"}"##,
    );
}

#[test]
fn escaped_sharp_in_property_values() {
    // ArgumentsEscapeTests.EscapedSharpValue; inside arrays "/#x" stays.
    yields(
        r##"{"a":"/#valueof($.s)","b":["/#x"],"c":"#xconcat(/#,y)"}"##,
        INPUT,
        r##"{"a":"#valueof($.s)","b":["/#x"],"c":"#y"}"##,
    );
}

#[test]
fn function_results_starting_with_escaped_sharp_lose_the_escape() {
    yields(r##"{"a":"#xconcat(//#,y)"}"##, INPUT, r##"{"a":"#y"}"##);
}

#[test]
fn function_like_keys_stay_literal() {
    yields(
        r##"{"#valueof($.s)":1}"##,
        INPUT,
        r##"{"#valueof($.s)":1}"##,
    );
}

#[test]
fn root_array_template() {
    // Objects transformed on their own; array results spliced.
    yields(
        r##"[{"v":"#valueof($.s)"},"#valueof($.arr)","lit"]"##,
        INPUT,
        r#"[{"v":"x"},1,2,"lit"]"#,
    );
}

#[test]
fn scalar_templates() {
    yields("\"#valueof($.s)\"", INPUT, "\"x\"");
    yields("42", INPUT, "42");
    yields("\"/#x\"", INPUT, "\"#x\"");
}

#[test]
fn templates_without_functions_are_returned_as_written() {
    yields(
        r#"{"a":[1,{"b":1.0}],"c":"d"}"#,
        INPUT,
        r#"{"a":[1,{"b":1.0}],"c":"d"}"#,
    );
}

#[test]
fn lenient_template_text() {
    // Single quotes, comments, trailing commas, and an object left open at the end
    // (ReadmeTests.NestedArrayLooping).
    yields(
        "{ 'a': '#valueof($.s)', // comment\n /* block */ b: [1,2,], }",
        INPUT,
        r#"{"a":"x","b":[1,2]}"#,
    );
    yields("{ \"a\": { \"b\": 1 }", INPUT, r#"{"a":{"b":1}}"#);
}

#[test]
fn backtick_reads_as_quote_in_paths() {
    // ReplaceGraveAccentInJsonPathExpressions
    yields(r##"{"a":"#valueof($.o[`a`])"}"##, INPUT, r#"{"a":1}"#);
}

#[test]
fn template_keys_are_escaped_in_the_output() {
    // Keys are written out once, when the template is compiled; they escape as values do.
    yields(
        r##"{"a\"b\\c\n\u0001\u2028": "#valueof($.x)", "d": {"e\u0085": "#valueof($.x)"}}"##,
        r#"{"x": 1}"#,
        r#"{"a\"b\\c\n\u0001\u2028":1,"d":{"e\u0085":1}}"#,
    );
}
