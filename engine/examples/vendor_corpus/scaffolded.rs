//! `syncdef new` over the same document and operation: the starting definition the scaffold
//! writes (`syncdef_definitions::scaffold`) for the create the judge chose, and what lint says
//! of it as written, before a user has decided anything it left (docs/new-definition.md).

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value as Json, json};
use syncdef_definitions::Definition;
use syncdef_definitions::scaffold::{Request, scaffold};
use syncdef_validator::{Config, RuleSettings, Severity, lint_paths};

/// `{"written": bool, "error"?, "left": n, "lintErrors": [codes]}` for `vendor` with `create`,
/// its overlay written to `overlay_path`.
pub fn judge(vendor: &Path, overlay_path: &Path, entry: &str, create: &str) -> Json {
    let definition = match Definition::load_path(vendor) {
        Ok(definition) => definition,
        Err(error) => return json!({"written": false, "error": error.message}),
    };
    // Absolute: a relative `extends` is read from the overlay's directory.
    let extends = std::fs::canonicalize(vendor)
        .unwrap_or_else(|_| vendor.to_path_buf())
        .display()
        .to_string();
    let made = match scaffold(&definition, &Request::new(entry, create, &extends)) {
        Ok(made) => made,
        Err(error) => return json!({"written": false, "error": error.to_string()}),
    };
    let text = serde_json::to_string_pretty(&made.overlay).unwrap_or_default();
    if let Err(error) = std::fs::write(overlay_path, text) {
        return json!({"written": false, "error": format!("harness: {error}")});
    }
    let config = Config {
        settings: Some(Arc::new(RuleSettings::default())),
        ..Config::default()
    };
    let report = lint_paths(&[overlay_path.to_path_buf()], &config);
    let mut codes: Vec<&str> = report
        .diagnostics()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.rule.code())
        .collect();
    codes.sort_unstable();
    codes.dedup();
    json!({
        "written": true,
        "left": made.left.len(),
        "lintErrors": codes,
        "cannotLint": report.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}
