//! Nesting up to the loader's depth limit must not overflow the stack in later stages either
//! (the serde deserializer of the OpenAPI model and the `$ref` walk recurse on the tree).

use syncdef_definitions::{Definition, SourceFile};

fn nested_schema(levels: usize) -> String {
    let mut s = String::from(
        "{\"openapi\": \"3.0.3\", \"info\": {\"title\": \"t\", \"version\": \"1\"}, \"paths\": {}, \"components\": {\"schemas\": {\"Deep\": ",
    );
    for _ in 0..levels {
        s.push_str("{\"type\": \"object\", \"properties\": {\"a\": ");
    }
    s.push_str("{\"type\": \"string\"}");
    for _ in 0..levels {
        s.push_str("}}");
    }
    s.push_str("}}, \"synchronization\": {}}");
    s
}

#[test]
fn deepest_accepted_schema_is_checked_without_overflow() {
    // 126 schema levels are 252 levels of nodes, just under the default limit of 256.
    let text = nested_schema(126);
    // Test threads have 2 MiB of stack, as threads spawned by `std` do by default.
    let def = Definition::load(SourceFile::new("deep.json", text))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    // The structure check walks every level, on the caller's stack.
    let structural = def
        .problems
        .iter()
        .filter(|p| p.kind == syncdef_definitions::model::ProblemKind::OpenApi);
    assert_eq!(structural.count(), 0, "{:?}", def.problems);
}
