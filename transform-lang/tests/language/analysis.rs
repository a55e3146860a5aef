//! Static analysis: paths read and functions called, with context and location.

use syncdef_transform::{PathContext, Settings, Template};

#[test]
fn lists_paths_with_context_and_location() {
    let text = r##"{
  "name": "#valueof($.account.name)",
  "lines": { "#loop($.account.addresses, addr)": {
      "city": "#currentvalueatpath($.city)",
      "has": "#exists($.postCode)",
      "scoped": { "#scope($.region, r)": { "v": "#valueof($.code)" } }
  } },
  "#": ["#delete($.name)"]
}"##;
    let t = Template::compile_str(text, &Settings::default()).unwrap();
    let paths = t.paths();
    let got: Vec<(&str, &str, PathContext)> = paths
        .iter()
        .map(|p| (p.function, p.path.text(), p.context.clone()))
        .collect();
    let loop_el = || PathContext::LoopElement("addr".into());
    assert_eq!(
        got,
        vec![
            ("valueof", "$.account.name", PathContext::Root),
            ("loop", "$.account.addresses", PathContext::Root),
            ("currentvalueatpath", "$.city", loop_el()),
            ("exists", "$.postCode", loop_el()),
            ("scope", "$.region", loop_el()),
            ("valueof", "$.code", PathContext::Scope("r".into())),
            ("delete", "$.name", PathContext::Output),
        ]
    );
    // Locations point at the path text in the template, and each step at its own text.
    for p in &paths {
        let at = p.location.offset.clone().expect("offset");
        assert_eq!(&text[at], p.path.text());
    }
    let name = &paths[0];
    let last = name.path.steps().last().unwrap();
    assert_eq!(&text[name.step_offset(last).unwrap()], ".name");
}

#[test]
fn lists_calls() {
    let t = Template::compile_str(
        r##"{"a": "#concat(#valueof($.a), #tostring(#valueof($.b)))"}"##,
        &Settings::default(),
    )
    .unwrap();
    let names: Vec<&str> = t.calls().iter().map(|c| c.function).collect();
    assert_eq!(names, ["concat", "valueof", "tostring", "valueof"]);
    assert_eq!(t.calls()[2].location.range, 23..47);
}

#[test]
fn function_reference_lists_every_function() {
    let names: Vec<&str> = syncdef_transform::function_names().collect();
    for f in [
        "valueof",
        "ifcondition",
        "grouparrayby",
        "applyover",
        "currentproperty",
        "copy",
    ] {
        assert!(names.contains(&f), "{f}");
    }
    assert!(
        syncdef_transform::function_reference()
            .iter()
            .all(|(u, d)| !u.is_empty() && !d.is_empty())
    );
}

#[test]
fn the_language_reference_documents_every_function() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/transform-language.md"
    ))
    .expect("docs/transform-language.md");
    for name in syncdef_transform::function_names() {
        assert!(
            doc.contains(&format!("#{name}(")),
            "docs/transform-language.md lacks #{name}"
        );
    }
}

/// The reference's examples are tests: every table cell of the form `` `#expr` → `json` `` is
/// evaluated against the record the reference states.
#[test]
fn the_language_reference_examples_hold() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/transform-language.md"
    ))
    .expect("docs/transform-language.md");
    let record = r#"{"a":{"name":"Acme","n":9,"list":[1,2,3],"items":[{"v":1},{"v":2}]}}"#;
    let mut checked = 0;
    for cell in doc.lines().flat_map(|l| l.split(" | ")) {
        let cell = cell.trim().trim_end_matches('|').trim();
        let Some((expr, result)) = cell.split_once(" → ") else {
            continue;
        };
        let (Some(expr), Some(result)) = (
            expr.strip_prefix("`#").and_then(|e| e.strip_suffix('`')),
            result.strip_prefix('`').and_then(|r| r.strip_suffix('`')),
        ) else {
            continue;
        };
        if expr.contains('`') || result.contains('`') || result.contains('…') {
            continue;
        }
        let got = crate::common::value(&format!("#{expr}"), record);
        assert_eq!(got, result, "docs example #{expr}");
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} examples found");
}
