//! Every JSON document the CLI prints names its own fields in camelCase (as the engine and the
//! worker always did, and as JavaScript, GitHub and SARIF consumers expect). The walk checks
//! the documents' own field names only: values that are user data keep the user's spelling.

use serde_json::Value;

/// Fields whose whole value is user data: request and response bodies and headers, template
/// outputs.
const USER_DATA: [&str; 3] = ["body", "headers", "output"];

/// Fields whose keys are names from the definition (entries) but whose values are documents of
/// ours again.
const KEYED_BY_USER_NAMES: [&str; 2] = ["entries", "counts"];

/// The paths (JSON pointers) of the field names in `doc` that hold `_` or `-`.
pub fn non_camel_case_keys(doc: &Value) -> Vec<String> {
    let mut found = Vec::new();
    walk(doc, "", true, &mut found);
    found
}

/// Fails naming every field of `doc` (printed by `what`) that is not camelCase.
pub fn assert_camel_case(doc: &Value, what: &str) {
    let found = non_camel_case_keys(doc);
    assert!(
        found.is_empty(),
        "{what}: field names must be camelCase: {found:?}"
    );
}

fn walk(value: &Value, path: &str, own_keys: bool, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let at = format!("{path}/{key}");
                if own_keys && key.contains(['_', '-']) {
                    found.push(at.clone());
                }
                if !own_keys {
                    walk(child, &at, true, found);
                } else if KEYED_BY_USER_NAMES.contains(&key.as_str()) {
                    walk(child, &at, false, found);
                } else if !USER_DATA.contains(&key.as_str()) {
                    walk(child, &at, true, found);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, &format!("{path}/{i}"), own_keys, found);
            }
        }
        _ => {}
    }
}
