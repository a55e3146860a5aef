use crate::common::*;

const INPUT: &str = r#"{"i":123,"d":1.23,"neg":-4.56,"b":true,"s":"abc","arr":[1],"z":0}"#;

#[test]
fn to_integer() {
    assert_eq!(value("#tointeger(123)", INPUT), "123");
    assert_eq!(value("#tointeger(#valueof($.d))", INPUT), "1");
    assert_eq!(value("#tointeger(#valueof($.neg))", INPUT), "-5");
    assert_eq!(value("#tointeger(#valueof($.b))", INPUT), "1");
    assert_eq!(value("#tointeger(abc)", INPUT), "0");
    fails_in(STRICT, r##"{"r":"#tointeger(abc)"}"##, INPUT);
}

#[test]
fn to_string() {
    assert_eq!(value("#tostring(#valueof($.b))", INPUT), "\"True\"");
    assert_eq!(value("#tostring(#valueof($.d))", INPUT), "\"1.23\"");
    assert_eq!(value("#tostring(#valueof($.i))", INPUT), "\"123\"");
}

#[test]
fn to_boolean() {
    assert_eq!(value("#toboolean(TRUE)", INPUT), "true");
    assert_eq!(value("#toboolean(#valueof($.z))", INPUT), "false");
    assert_eq!(value("#toboolean(#valueof($.i))", INPUT), "true");
    assert_eq!(value("#toboolean(abc)", INPUT), "false");
}

#[test]
fn to_decimal() {
    // TypeConversionTests.ToDecimalConvertion*
    assert_eq!(value("#todecimal(123)", INPUT), "123.0");
    assert_eq!(value("#todecimal(0)", INPUT), "0.0");
    assert_eq!(value("#todecimal(#valueof($.d))", INPUT), "1.23");
    assert_eq!(value("#todecimal(1.50)", INPUT), "1.50");
}

#[test]
fn type_checks() {
    assert_eq!(value("#isnumber(#valueof($.i))", INPUT), "true");
    assert_eq!(value("#isnumber(12.5)", INPUT), "true");
    // Deviation: JUST answers true in the default mode.
    assert_eq!(value("#isnumber(abc)", INPUT), "false");
    assert_eq!(value_in(STRICT, "#isnumber(abc)", INPUT), "false");
    // Literal arguments are strings.
    assert_eq!(value("#isboolean(true)", INPUT), "false");
    assert_eq!(value("#isboolean(#valueof($.b))", INPUT), "true");
    assert_eq!(value("#isstring(abc)", INPUT), "true");
    assert_eq!(value("#isstring(#valueof($.i))", INPUT), "false");
    assert_eq!(value("#isarray(#valueof($.arr))", INPUT), "true");
    assert_eq!(value("#isarray(#valueof($.s))", INPUT), "false");
}
