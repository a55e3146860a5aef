use crate::common::*;
use syncdef_transform::{EvaluationMode, Settings};

#[test]
fn look_in_transformed_uses_earlier_properties() {
    // ReadmeTests.UsePreviousGeneratedProperty
    yields_in(
        EvaluationMode::LOOK_IN_TRANSFORMED,
        r##"{"a":"#valueof($.x)","b":"#valueof($.a)"}"##,
        r#"{"x":5}"#,
        r#"{"a":5,"b":5}"#,
    );
    // Without the mode, $.a is not in the input.
    yields(
        r##"{"a":"#valueof($.x)","b":"#valueof($.a)"}"##,
        r#"{"x":5}"#,
        r#"{"a":5,"b":null}"#,
    );
}

#[test]
fn look_in_transformed_multiple_levels() {
    // EvaluationModeTests.MultipleLevelLookInTransformed: `$.quoteId` is not at the root of
    // the output, `$..quoteId` is.
    yields_in(
        EvaluationMode::LOOK_IN_TRANSFORMED,
        r##"{"quote":{"quoteId":"#valueof($.id)"},"x":{"a":"#valueof($..quoteId)","b":"#valueof($.quoteId)"}}"##,
        r#"{"id":"Q1"}"#,
        r#"{"quote":{"quoteId":"Q1"},"x":{"a":"Q1","b":null}}"#,
    );
}

#[test]
fn strict_flag_combinations() {
    // Strict|LookInTransformed propagates errors but converts softly.
    let mode = EvaluationMode::STRICT | EvaluationMode::LOOK_IN_TRANSFORMED;
    yields_in(mode, r##"{"r":"#add(abc,1)"}"##, "{}", r#"{"r":1}"#);
    fails_in(mode, r##"{"r":"#substring(abc,10,1)"}"##, "{}");
    // Only AddOrReplaceProperties: FallbackToDefault is off, but errors still fall back
    // because Strict is not set.
    yields_in(
        EvaluationMode::ADD_OR_REPLACE_PROPERTIES,
        r##"{"r":"#substring(abc,10,1)"}"##,
        "{}",
        r#"{"r":null}"#,
    );
}

#[test]
fn missing_paths_are_null_even_in_strict() {
    yields_in(
        STRICT,
        r##"{"r":"#valueof($.nope)"}"##,
        "{}",
        r#"{"r":null}"#,
    );
}

#[test]
fn strict_errors_name_function_argument_and_record_path() {
    let e = fails_in(
        STRICT,
        r##"{"lines":{"#loop($.items)":{"n":"#add(#currentvalueatpath($.v),1)"}}}"##,
        r#"{"items":[{"v":1},{"v":"x"}]}"#,
    );
    assert!(e.contains("#add argument 1"), "{e}");
    assert!(e.contains("$.items[1]"), "{e}");
    assert!(e.contains("/lines/#loop($.items)/n"), "{e}");
}

#[test]
fn mode_names_parse() {
    assert_eq!(
        EvaluationMode::parse_list("strict,look-in-transformed").unwrap(),
        EvaluationMode::STRICT | EvaluationMode::LOOK_IN_TRANSFORMED
    );
    assert!(EvaluationMode::parse_list("sloppy").is_err());
    assert_eq!(
        Settings::default().mode,
        EvaluationMode::FALLBACK_TO_DEFAULT
    );
}

#[test]
fn limits_stop_loop_bombs() {
    let mut settings = Settings::default();
    settings.limits.max_output_nodes = 10_000;
    let template = r##"{"#loop($.a)":{"#loop($.a,x,root)":{"#loop($.a,y,root)":{"#loop($.a,z,root)":"#currentvalue()"}}}}"##;
    let input = format!("{{\"a\":[{}]}}", vec!["1"; 100].join(","));
    let e = run_with(&settings, template, &input).unwrap_err();
    assert!(e.contains("max_output_nodes"), "{e}");
}

#[test]
fn limits_stop_string_growth() {
    let mut settings = Settings::default();
    settings.limits.max_string_len = 1000;
    let template = r##"{"r":"#concatall($.b)"}"##;
    let big = "x".repeat(600);
    let input = format!("{{\"a\":[1],\"b\":[\"{big}\",\"{big}\"]}}");
    let e = run_with(
        &Settings {
            mode: STRICT,
            ..settings
        },
        template,
        &input,
    )
    .unwrap_err();
    assert!(e.contains("max_string_len"), "{e}");
}
