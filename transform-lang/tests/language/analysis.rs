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
    // Locations point at the path text in the template.
    for p in &paths {
        let at = p.location.offset.clone().expect("offset");
        assert_eq!(&text[at], p.path.text());
    }
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
