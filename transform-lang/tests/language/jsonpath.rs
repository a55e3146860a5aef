//! The JSONPath dialect (section 11), evaluated directly.

use syncdef_transform::Value;
use syncdef_transform::path::{JsonPath, StepKind};

const DOC: &str = r#"{
  "store": {
    "book": [
      {"category": "ref", "author": "Nigel", "title": "Sayings", "price": 8.95},
      {"category": "fiction", "author": "Evelyn", "title": "Sword", "price": 12.99, "isbn": "0-553"},
      {"category": "fiction", "author": "Herman", "title": "Moby", "price": 8.99, "isbn": "0-395"}
    ],
    "bicycle": {"color": "red", "price": 19.95},
    "some-thing": true
  },
  "item": [{"name": "carrot cake"}, {"name": "ice cream"}],
  "$ref": 1
}"#;

fn sel(path: &str) -> String {
    let doc = Value::from_json_str(DOC).unwrap();
    let p = JsonPath::parse(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    p.select_value(&doc).to_json_compact()
}

#[test]
fn members_indexes_and_wildcards() {
    assert_eq!(sel("$.store.bicycle.color"), "\"red\"");
    assert_eq!(sel("store.bicycle.color"), "\"red\"");
    assert_eq!(sel("$['store']['bicycle']['color']"), "\"red\"");
    assert_eq!(sel("$.store.some-thing"), "true");
    assert_eq!(sel("$.store.book[1].author"), "\"Evelyn\"");
    assert_eq!(sel("$.item[*].name"), r#"["carrot cake","ice cream"]"#);
    assert_eq!(sel("$.store.bicycle.*"), r#"["red",19.95]"#);
    assert_eq!(sel("$.nothing"), "null");
    assert_eq!(sel("$.store.book[7]"), "null");
    assert_eq!(sel("$"), sel("$"));
}

#[test]
fn slices_and_unions() {
    assert_eq!(sel("$.store.book[:2].author"), r#"["Nigel","Evelyn"]"#);
    assert_eq!(sel("$.store.book[-1:].author"), "\"Herman\"");
    assert_eq!(sel("$.store.book[0,2].author"), r#"["Nigel","Herman"]"#);
    assert_eq!(sel("$.store.bicycle['color','price']"), r#"["red",19.95]"#);
    assert_eq!(sel("$.store.book[::2].author"), r#"["Nigel","Herman"]"#);
}

#[test]
fn recursive_descent() {
    assert_eq!(sel("$..author"), r#"["Nigel","Evelyn","Herman"]"#);
    assert_eq!(sel("$..bicycle.color"), "\"red\"");
    assert_eq!(sel("$..[?(@.price > 10)].title"), "\"Sword\"");
}

#[test]
fn filters() {
    assert_eq!(
        sel("$.store.book[?(@.price < 9)].title"),
        r#"["Sayings","Moby"]"#
    );
    assert_eq!(
        sel("$.store.book[?(@.category == 'fiction' && @.price > 10)].title"),
        "\"Sword\""
    );
    assert_eq!(
        sel("$.store.book[?(@.category == 'ref' || @.price > 12)].title"),
        r#"["Sayings","Sword"]"#
    );
    assert_eq!(sel("$.store.book[?(@.isbn)].title"), r#"["Sword","Moby"]"#);
    assert_eq!(sel("$.store.book[?(@.author =~ /^H.*/)].title"), "\"Moby\"");
    assert_eq!(
        sel("$.store.book[?(@.author =~ /^h.*/i)].title"),
        "\"Moby\""
    );
    assert_eq!(
        sel("$.store.book[?(@.category != 'fiction')].title"),
        "\"Sayings\""
    );
    assert_eq!(
        sel("$.store.book[?(@.price >= 8.99)].title"),
        r#"["Sword","Moby"]"#
    );
    assert_eq!(sel("$.store.book[?(@price == 8.95)].title"), "\"Sayings\"");
    assert_eq!(
        sel("$.store.book[?(@.price == $.store.bicycle.price)]"),
        "null"
    );
    assert_eq!(
        sel("$.store.book[?(@.title == `Moby`)].author"),
        "\"Herman\""
    );
    // Numbers compare across integer and float; strings do not equal numbers.
    assert_eq!(sel("$.item[?(@.name == 1)]"), "null");
}

#[test]
fn root_without_dollar_on_arrays() {
    let doc =
        Value::from_json_str(r#"[{"gender":"F","name":"a"},{"gender":"M","name":"b"}]"#).unwrap();
    let p = JsonPath::parse("[?(@.gender=='F')].name").unwrap();
    assert_eq!(p.select_value(&doc).to_json_compact(), "\"a\"");
    let p = JsonPath::parse("$.[0].name").unwrap();
    assert_eq!(p.select_value(&doc).to_json_compact(), "\"a\"");
}

#[test]
fn steps_carry_spans() {
    let text = "$.account.addresses[?(@.isBilling==true)].address1";
    let p = JsonPath::parse(text).unwrap();
    let spans: Vec<&str> = p.steps().iter().map(|s| &text[s.span.clone()]).collect();
    assert_eq!(
        spans,
        [
            "$",
            ".account",
            ".addresses",
            "[?(@.isBilling==true)]",
            ".address1"
        ]
    );
    assert!(matches!(p.steps()[3].kind, StepKind::Filter(_)));
    let chain: Vec<&str> = p.member_chain().map(|(n, _)| n).collect();
    assert_eq!(chain, ["account", "addresses", "address1"]);
}

#[test]
fn syntax_errors_point_at_the_character() {
    for (path, at) in [
        ("$.a[", 3),
        ("$.a[?(@.b == )]", 13),
        ("$.a[?(@.b =~ /(/)]", 13),
        ("$.a[1:2:0]", 8),
        ("$.a]", 3),
    ] {
        let e = JsonPath::parse(path).expect_err(path);
        assert_eq!(e.span.start, at, "{path}: {e}");
    }
}
