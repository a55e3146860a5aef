use crate::common::*;

const INPUT: &str = r#"{"Name":"Kari","s":"somestring","n":5,"a1":[1,2],"a2":[3,4],"names":["a","b","c"],"items":[{"v":"x"},{"v":"y"}],"nul":null,"o":{"p":1,"q":2}}"#;

#[test]
fn concat_joins_strings_and_keeps_literal_spaces() {
    // ReadmeTests.ComplexNestedFunctions: `#concat(#valueof($.Name), )` appends a space.
    assert_eq!(value("#concat(#valueof($.Name), )", INPUT), "\"Kari \"");
    assert_eq!(value("#concat(a,b)", INPUT), "\"ab\"");
    assert_eq!(value("#concat(#valueof($.nul),b)", INPUT), "\"b\"");
    // ReadmeTests.StringMathFunctions: null + null = null.
    assert_eq!(
        value("#concat(#valueof($.nul),#valueof($.nul))", INPUT),
        "null"
    );
}

#[test]
fn concat_joins_arrays_in_order() {
    // ConcatenationTests; deviation: the second array is not reversed.
    assert_eq!(
        value("#concat(#valueof($.a1),#valueof($.a2))", INPUT),
        "[1,2,3,4]"
    );
    assert_eq!(
        value("#concat(#valueof($.nul),#valueof($.a2))", INPUT),
        "[3,4]"
    );
}

#[test]
fn concat_of_numbers_uses_their_text() {
    // Deviation: JUST gives null when the first argument is a number.
    assert_eq!(value("#concat(#valueof($.n),x)", INPUT), "\"5x\"");
}

#[test]
fn xconcat_folds_non_null_arguments() {
    // DynamicPropertiesTests.MultipleEvals: name + 1.
    assert_eq!(
        value("#xconcat(name,#valueof($.n),#valueof($.nul),!)", INPUT),
        "\"name5!\""
    );
    // ConcatenationTests.XconcatArrays
    assert_eq!(
        value(
            "#xconcat(#valueof($.a1),#valueof($.a2),#valueof($.a1))",
            INPUT
        ),
        "[1,2,3,4,1,2]"
    );
}

#[test]
fn escapes_in_arguments() {
    // ArgumentsEscapeTests
    assert_eq!(value("#xconcat(///),_end)", INPUT), "\"/)_end\"");
    assert_eq!(value("#xconcat(//,_end)", INPUT), "\"/_end\"");
    assert_eq!(value("#xconcat(a/,b,c)", INPUT), "\"a,bc\"");
    assert_eq!(value("#xconcat(/(x/),y)", INPUT), "\"(x)y\"");
    assert_eq!(value("#xconcat(/#x,y)", INPUT), "\"#xy\"");
}

#[test]
fn other_escape_char() {
    // ArgumentsEscapeTests.OtherEscapeChar uses `§`.
    let settings = syncdef_transform::Settings {
        escape_char: '§',
        ..Default::default()
    };
    let out = run_with(&settings, r##"{"r":"#xconcat(a§,b,§(c§))"}"##, "{}").unwrap();
    assert_eq!(out, r#"{"r":"a,b(c)"}"#);
}

#[test]
fn read_values_lose_the_escape_before_a_sharp() {
    // What a property expression yields is unescaped too, whatever the escape character.
    let input = r#"{"slash":"/#a","tilde":"~#b","section":"§#c","short":"§","plain":"/x"}"#;
    let template = r##"{"a":"#valueof($.slash)","b":"#valueof($.tilde)","c":"#valueof($.section)","d":"#valueof($.short)","e":"#valueof($.plain)"}"##;
    for (esc, expected) in [
        ('/', r##"{"a":"#a","b":"~#b","c":"§#c","d":"§","e":"/x"}"##),
        ('~', r##"{"a":"/#a","b":"#b","c":"§#c","d":"§","e":"/x"}"##),
        ('§', r##"{"a":"/#a","b":"~#b","c":"#c","d":"§","e":"/x"}"##),
    ] {
        let settings = syncdef_transform::Settings {
            escape_char: esc,
            ..Default::default()
        };
        assert_eq!(
            run_with(&settings, template, input).unwrap(),
            expected,
            "escape {esc}"
        );
    }
}

#[test]
fn constants() {
    assert_eq!(value("#xconcat(a,#constant_comma(),b)", INPUT), "\"a,b\"");
    assert_eq!(value("#constant_hash()", INPUT), "\"#\"");
    assert_eq!(value("#stringempty()", INPUT), "\"\"");
    assert_eq!(value("#arrayempty()", INPUT), "[]");
}

#[test]
fn substring_and_strict_error() {
    assert_eq!(value("#substring(#valueof($.s),4,6)", INPUT), "\"string\"");
    // StringFunctionsTests.SubstringFallbackToDefault / SubstringStrictError
    assert_eq!(value("#substring(#valueof($.s),100,100)", INPUT), "null");
    let e = fails_in(
        STRICT,
        r##"{"r":"#substring(#valueof($.s),100,100)"}"##,
        INPUT,
    );
    assert!(e.contains("#substring") && e.contains("/r"), "{e}");
}

#[test]
fn index_of() {
    assert_eq!(value("#firstindexof(#valueof($.s),s)", INPUT), "0");
    assert_eq!(value("#lastindexof(#valueof($.s),s)", INPUT), "4");
    assert_eq!(value("#firstindexof(#valueof($.s),z)", INPUT), "-1");
    assert_eq!(value("#firstindexof(héllo,l)", INPUT), "2");
}

#[test]
fn length_of_strings_arrays_objects() {
    // LengthTests
    assert_eq!(value("#length(somestring)", INPUT), "10");
    assert_eq!(value("#length($.names)", INPUT), "3");
    assert_eq!(value("#length(#valueof($.names))", INPUT), "3");
    assert_eq!(value("#length($.o)", INPUT), "2");
    assert_eq!(value("#length(#valueof($.n))", INPUT), "0");
    fails_in(STRICT, r##"{"r":"#length(#valueof($.n))"}"##, INPUT);
}

#[test]
fn concatall_and_at_path() {
    assert_eq!(value("#concatall($.names)", INPUT), "\"abc\"");
    assert_eq!(value("#concatall(#valueof($.a1))", INPUT), "\"12\"");
    fails_in(STRICT, r##"{"r":"#concatall(#valueof($.a1))"}"##, INPUT);
    assert_eq!(
        value("#concatallatpath(#valueof($.items),$.v)", INPUT),
        "\"xy\""
    );
    assert_eq!(value("#concatallatpath($.items,$.v)", INPUT), "\"xy\"");
}

#[test]
fn string_equals_and_contains() {
    assert_eq!(value("#stringequals(#valueof($.Name),kari)", INPUT), "true");
    // StringFunctionsTests.EqualsCaseSensitive
    assert_eq!(
        value_in(STRICT, "#stringequals(#valueof($.Name),kari)", INPUT),
        "false"
    );
    assert_eq!(value("#stringcontains(#valueof($.s),STR)", INPUT), "true");
    assert_eq!(
        value_in(STRICT, "#stringcontains(#valueof($.s),STR)", INPUT),
        "false"
    );
    assert_eq!(value("#stringcontains(#valueof($.nul),x)", INPUT), "false");
}
