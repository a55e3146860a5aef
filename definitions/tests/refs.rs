//! Local `$ref` resolution: broken, circular and external references, located; legitimate
//! recursion left alone.

use std::path::Path;

use syncdef_definitions::load::{Document, LoadOptions, load_path};
use syncdef_definitions::model::ProblemKind;
use syncdef_definitions::refs;

fn doc() -> Document {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/refs.yaml");
    load_path(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn problems_are_located_with_help() {
    let d = doc();
    let rendered: Vec<String> = refs::check(&d.root)
        .iter()
        .map(|p| {
            let mut line = format!(
                "{}:{} [{}] {} (at {})",
                "refs.yaml",
                d.source.line_col(p.span.start),
                p.kind.code(),
                p.message,
                p.pointer
            );
            for (span, what) in &p.related {
                line.push_str(&format!("\n    {}: {what}", d.source.line_col(span.start)));
            }
            if let Some(help) = &p.help {
                line.push_str(&format!("\n    help: {help}"));
            }
            line
        })
        .collect();
    insta::assert_snapshot!(rendered.join("\n"));
}

#[test]
fn recursion_through_structure_is_fine() {
    let d = doc();
    let problems = refs::check(&d.root);
    assert!(!problems.iter().any(|p| p.pointer.contains("/Customer/")));
    assert_eq!(
        problems
            .iter()
            .filter(|p| p.kind == ProblemKind::CircularRef)
            .count(),
        2
    );
}

#[test]
fn resolve_follows_chains() {
    let d = doc();
    let customer = refs::resolve(&d.root, "#/components/schemas/Alias");
    assert_eq!(
        customer
            .and_then(|n| n.get("type"))
            .and_then(|t| t.as_str()),
        Some("object")
    );
    assert!(refs::resolve(&d.root, "#/components/schemas/PingA").is_none());
    assert!(refs::resolve(&d.root, "#/components/schemas/Nothing").is_none());
    assert!(refs::resolve(&d.root, "#/paths/~1customers/get").is_some());
    assert!(refs::resolve(&d.root, "#/paths/%7E1customers/get").is_some());
    assert_eq!(refs::ref_sites(&d.root).len(), 12);
}
