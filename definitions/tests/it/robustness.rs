//! Whatever the input, loading never panics, and every span it returns lies inside the text on
//! character boundaries; JSON documents load to the same value `serde_json` reads.

use proptest::prelude::*;
use syncdef_definitions::load::{Format, LoadOptions, load_as};
use syncdef_definitions::{Node, NodeKind, SourceFile, Span};

fn spans_are_valid(text: &str, node: &Node) -> bool {
    let ok = |s: Span| {
        s.start <= s.end
            && (s.end as usize) <= text.len()
            && text.is_char_boundary(s.start as usize)
            && text.is_char_boundary(s.end as usize)
    };
    ok(node.span)
        && match &node.kind {
            NodeKind::Array(items) => items.iter().all(|n| spans_are_valid(text, &n)),
            NodeKind::Object(members) => members
                .iter()
                .all(|m| ok(m.key.span) && spans_are_valid(text, &m.value)),
            _ => true,
        }
}

fn check(text: &str, format: Format) -> Result<(), TestCaseError> {
    let source = std::sync::Arc::new(SourceFile::new("fuzz", text));
    match load_as(source.clone(), format, &LoadOptions::default()) {
        Ok(doc) => prop_assert!(spans_are_valid(text, &doc.root())),
        Err(err) => {
            let span = err.span.unwrap_or_default();
            prop_assert!(span.end as usize <= text.len());
            // Rendering a location never panics either.
            let _ = err.render();
            let _ = source.line_col(span.start);
        }
    }
    Ok(())
}

/// Text made of the characters that matter to both grammars, multi-byte ones included.
fn structured() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("{"),
            Just("}"),
            Just("["),
            Just("]"),
            Just(":"),
            Just(", "),
            Just("\""),
            Just("'"),
            Just("\\"),
            Just("\\u00e9"),
            Just("\n"),
            Just("  "),
            Just("- "),
            Just("? "),
            Just("&a "),
            Just("*a"),
            Just("|\n"),
            Just(">-\n"),
            Just("#"),
            Just("---\n"),
            Just("key"),
            Just("1"),
            Just("-0.5e3"),
            Just("true"),
            Just("null"),
            Just("é"),
            Just("☕"),
            Just("\t"),
            Just("\r\n"),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        (-1e6f64..1e6).prop_map(serde_json::Value::from),
        "\\PC{0,12}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            proptest::collection::btree_map("\\PC{0,8}", inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,64}") {
        check(&text, Format::Json)?;
        check(&text, Format::Yaml)?;
    }

    #[test]
    fn structured_text_never_panics(text in structured()) {
        check(&text, Format::Json)?;
        check(&text, Format::Yaml)?;
    }

    #[test]
    fn json_reads_like_serde_json(value in json_value(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) };
        let text = text.map_err(|e| TestCaseError::fail(e.to_string()))?;
        let doc = load_as(SourceFile::new("v.json", text.clone()).into(), Format::Json, &LoadOptions::default())
            .map_err(|e| TestCaseError::fail(e.render()))?;
        prop_assert_eq!(doc.root().to_json(), value);
        prop_assert!(spans_are_valid(&text, &doc.root()));
    }
}
