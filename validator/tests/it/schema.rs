//! The editor schema accepts the valid definition and rejects a misspelt module, and the
//! committed copy in `docs/` is current.

use std::path::Path;

use syncdef_definitions::{SourceFile, load};
use syncdef_validator::schema::synchronization_schema;

fn instance(fixture: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(Path::new("tests/fixtures").join(fixture)).expect("fixture");
    load(SourceFile::new(fixture, text))
        .expect("loads")
        .root()
        .to_json()
}

#[test]
fn schema_accepts_valid_and_rejects_mistakes() {
    let schema = synchronization_schema();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let valid = instance("valid.yaml");
    let errors: Vec<String> = validator
        .iter_errors(&valid)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    for fixture in [
        "SD601.yaml",
        "SD501.yaml",
        "SD502.yaml",
        "SD503.yaml",
        "SD201.yaml",
        "SD109.yaml",
    ] {
        assert!(
            !validator.is_valid(&instance(fixture)),
            "{fixture} should not validate"
        );
    }
}

#[test]
fn schema_describes_request_validation() {
    let schema = synchronization_schema();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let mut with = instance("valid.yaml");
    with["x-syncdef"] = serde_json::json!({"requestValidation": {"skip": ["Customer"]}});
    assert!(validator.is_valid(&with));
    with["x-syncdef"] = serde_json::json!({"requestValidation": {"skipped": ["Customer"]}});
    assert!(!validator.is_valid(&with));
}

#[test]
fn committed_schema_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/synchronization.schema.json");
    let expected = format!(
        "{}\n",
        serde_json::to_string_pretty(&synchronization_schema()).expect("serializes")
    );
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &expected).expect("write schema");
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == expected,
        "docs/synchronization.schema.json is out of date; run `UPDATE_DOCS=1 cargo test -p syncdef-validator --test it schema::`"
    );
}

#[test]
fn schema_accepts_x_syncdef_ignore_on_every_object() {
    let schema = synchronization_schema();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let mut with = instance("valid.yaml");
    let push = "/synchronization/Customer/push";
    for at in [
        "",
        "/synchronization",
        "/synchronization/Customer",
        push,
        "/synchronization/Customer/push/preSynchronizationAction",
        "/synchronization/Customer/push/preSynchronizationAction/SyncToken/schema",
        "/synchronization/Customer/push/schemasTransformer",
    ] {
        with.pointer_mut(at)
            .and_then(serde_json::Value::as_object_mut)
            .unwrap_or_else(|| panic!("an object at {at:?}"))
            .insert("x-syncdef-ignore".into(), serde_json::json!(["SD602"]));
    }
    with["x-syncdef"] = serde_json::json!({"x-syncdef-ignore": "sd114", "retry": {"x-syncdef-ignore": [], "maxAttempts": 2}});
    let errors: Vec<String> = validator
        .iter_errors(&with)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    with["synchronization"]["x-syncdef-ignore"] = serde_json::json!({"SD602": true});
    assert!(!validator.is_valid(&with));
}
