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
    let rendered: Vec<String> = refs::check(&d.root())
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
    let problems = refs::check(&d.root());
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
    let customer = refs::resolve(d.root(), "#/components/schemas/Alias");
    assert_eq!(
        customer
            .and_then(|n| n.get("type"))
            .and_then(syncdef_definitions::Node::as_str),
        Some("object")
    );
    assert!(refs::resolve(d.root(), "#/components/schemas/PingA").is_none());
    assert!(refs::resolve(d.root(), "#/components/schemas/Nothing").is_none());
    assert!(refs::resolve(d.root(), "#/paths/~1customers/get").is_some());
    assert!(refs::resolve(d.root(), "#/paths/%7E1customers/get").is_some());
    assert_eq!(refs::ref_sites(&d.root()).len(), 12);
}

/// A document whose schemas `S0` .. `S{n-1}` each refer to the next; the last holds `last`.
fn chain(n: usize, last: &str) -> String {
    let mut text = String::from(
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n",
    );
    for i in 0..n - 1 {
        text.push_str(&format!(
            "    S{i}: {{$ref: '#/components/schemas/S{}'}}\n",
            i + 1
        ));
    }
    text.push_str(&format!("    S{}: {last}\n", n - 1));
    text
}

fn problems_of(text: &str) -> Vec<syncdef_definitions::model::LoadProblem> {
    let doc =
        syncdef_definitions::load::load(syncdef_definitions::SourceFile::new("chain.yaml", text))
            .expect("loads");
    refs::check(&doc.root())
}

#[test]
fn a_long_chain_of_references_is_followed_once() {
    // Thousands of references in one chain: each is followed once over the whole document.
    assert!(problems_of(&chain(4_000, "{type: string}")).is_empty());
    // The chain's end refers back into it: one cycle, reported once, whatever leads into it.
    let found = problems_of(&chain(4_000, "{$ref: '#/components/schemas/S3990'}"));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].kind, ProblemKind::CircularRef);
    assert!(
        found[0]
            .message
            .starts_with("circular `$ref`: #/components/schemas/S3990 -> "),
        "{}",
        found[0].message
    );
    // Reported at the first reference leading into the loop; every reference of the loop
    // is labelled.
    assert_eq!(found[0].related.len(), 10);
}
