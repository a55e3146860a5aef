//! The structure of the OpenAPI part: every defect of a document reported at once, each at its
//! node, with the field or value meant when a name is a near miss; the version selects 3.0 or
//! 3.1 rules.

use syncdef_definitions::model::ProblemKind;
use syncdef_definitions::{Definition, SourceFile};

fn problems(name: &str, text: &str) -> Vec<String> {
    let def =
        Definition::load(SourceFile::new(name, text)).unwrap_or_else(|e| panic!("{}", e.render()));
    def.problems
        .iter()
        .filter(|p| p.kind == ProblemKind::OpenApi)
        .map(|p| {
            let help = p
                .help
                .as_deref()
                .map(|h| format!("\n    help: {h}"))
                .unwrap_or_default();
            format!(
                "{}: {} (at {}){help}",
                def.describe(p),
                p.message,
                p.pointer
            )
        })
        .collect()
}

#[test]
fn every_defect_of_a_document_is_found_at_its_node() {
    let text = include_str!("../fixtures/openapi-defects.yaml");
    insta::assert_snapshot!(problems("openapi-defects.yaml", text).join("\n"));
}

#[test]
fn the_version_selects_the_rules() {
    let swagger =
        "openapi: 2.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nsynchronization: {}\n";
    let found = problems("v2.yaml", swagger);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("v2.yaml:1:10: `openapi: 2.0.3` is not a version"),
        "{found:#?}"
    );

    // 3.1: type lists, numeric exclusive bounds, webhooks without paths, unknown schema
    // keywords as annotations.
    let v31 = "openapi: 3.1.0
info: {title: t, summary: s, version: '1', license: {name: MIT, identifier: MIT}}
webhooks: {}
components:
  schemas:
    A: {type: [string, 'null'], exclusiveMinimum: 0, x-anything: 1, $comment: c, const: a}
synchronization: {}
";
    // Sound 3.1, which the engine reads as it reads 3.0.
    let found = problems("v31.yaml", v31);
    assert_eq!(found, Vec::<String>::new());

    // The same schema read by 3.0 rules.
    let v30 = v31
        .replace("3.1.0", "3.0.3")
        .replace("webhooks: {}\n", "paths: {}\n");
    let found = problems("v30.yaml", &v30);
    assert!(
        found
            .iter()
            .any(|p| p.contains("a list of types is JSON Schema 2020-12")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains("unknown field `summary` in an Info Object")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains("expected `true` or `false`, found a number")),
        "{found:#?}"
    );
}

#[test]
fn problems_after_carriage_return_only_lines_are_located_on_their_line() {
    let text = "openapi: 3.0.3\rinfo: {title: t, version: '1'}\rpaths:\r  /a:\r    get:\r      summry: x\r      responses: {'200': {description: ok}}\rsynchronization: {}\r";
    let found = problems("mac.yaml", text);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("mac.yaml:6:7: unknown field `summry`"),
        "{found:#?}"
    );
}
