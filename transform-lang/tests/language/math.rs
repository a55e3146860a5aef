use crate::common::*;

const INPUT: &str = r#"{"a":9,"b":3,"d":1.5,"big":3000000000,"s":"abc"}"#;

#[test]
fn integral_results_are_integers() {
    assert_eq!(value("#divide(9,3)", INPUT), "3");
    assert_eq!(value("#add(#valueof($.a),#valueof($.b))", INPUT), "12");
    assert_eq!(value("#subtract(#valueof($.a),#valueof($.b))", INPUT), "6");
    assert_eq!(value("#multiply(#valueof($.a),#valueof($.b))", INPUT), "27");
    assert_eq!(value("#add(#valueof($.d),#valueof($.d))", INPUT), "3");
}

#[test]
fn other_results_are_decimals_with_scale() {
    assert_eq!(value("#divide(10,4)", INPUT), "2.5");
    assert_eq!(value("#add(1.10,1)", INPUT), "2.10");
    assert_eq!(value("#multiply(1.10,2)", INPUT), "2.20");
    // Beyond int.MaxValue the decimal is kept: it prints with `.0`.
    assert_eq!(value("#add(#valueof($.big),0)", INPUT), "3000000000.0");
}

#[test]
fn failures_fall_back() {
    // A non-numeric argument converts to 0; division by zero gives null.
    assert_eq!(value("#add(abc,1)", INPUT), "1");
    assert_eq!(value("#divide(1,0)", INPUT), "null");
    fails_in(STRICT, r##"{"r":"#divide(1,0)"}"##, INPUT);
    let e = fails_in(STRICT, r##"{"r":"#add(abc,1)"}"##, INPUT);
    assert!(e.contains("argument 1"), "{e}");
}

#[test]
fn xadd_sums_non_null_arguments() {
    assert_eq!(value("#xadd(1,2,#valueof($.zz),3.5)", INPUT), "6.5");
}

#[test]
fn round_returns_decimals() {
    // MathFunctionsTests.Round#1..3
    assert_eq!(value("#round(0.00154,2)", INPUT), "0.00");
    assert_eq!(value("#round(0.66489,0)", INPUT), "1.0");
    assert_eq!(value("#round(10.005,2)", INPUT), "10.01");
    assert_eq!(value("#round(-2.5,0)", INPUT), "-3.0");
}

#[test]
fn comparisons() {
    assert_eq!(value("#mathequals(1.0,1)", INPUT), "true");
    assert_eq!(value("#mathgreaterthan(2,1)", INPUT), "true");
    assert_eq!(value("#mathlessthan(2,1)", INPUT), "false");
    assert_eq!(value("#mathgreaterthanorequalto(1,1)", INPUT), "true");
    assert_eq!(
        value("#mathlessthanorequalto(#valueof($.a),#valueof($.b))", INPUT),
        "false"
    );
}

#[test]
fn division_scale_follows_dotnet() {
    assert_eq!(value("#divide(10.00,4)", INPUT), "2.50");
    assert_eq!(value("#divide(10.00,2)", INPUT), "5");
    assert_eq!(
        value("#divide(1,3)", INPUT),
        "0.3333333333333333333333333333"
    );
}
