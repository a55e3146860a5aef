//! Diagnostics as an editor receives them: on open, after incremental changes (debounced),
//! with the lint's codes, ranges in UTF-16, links to the rules' pages and settings.

use crate::support;

use serde_json::{Value, json};
use support::{catalog, find, start};
use syncdef_validator::{RuleSettings, lint_text};

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_owned())
        .collect()
}

fn the(published: &Value, code: &str) -> Value {
    published["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("a {code} diagnostic in {published}"))
        .clone()
}

#[test]
fn a_mistake_typed_into_a_catalog_definition_is_published_at_its_range() {
    let (path, uri, text) = catalog("quickbooks-online/definition.yaml");
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &text);
    let opened = client.diagnostics(&uri);
    assert_eq!(opened["version"], 1);
    let expected = lint_text(&path.display().to_string(), &text, &RuleSettings::default());
    let expected: Vec<&str> = expected
        .diagnostics
        .iter()
        .map(syncdef_validator::Diagnostic::code)
        .collect();
    assert_eq!(
        codes(&opened),
        expected,
        "the same findings as `syncdef lint`"
    );

    // `module: Accounts` -> `module: Acounts`: delete one `c`.
    let (line, character) = find(&text, "module: Accounts", "module: Ac".len());
    client.change(&uri, 2, [(line, character), (line, character + 1)], "");
    let changed = client.diagnostics(&uri);
    assert_eq!(changed["version"], 2);
    let sd601 = the(&changed, "SD601");
    assert_eq!(sd601["range"], support::lsp_range([(line, 12), (line, 19)]));
    assert_eq!(sd601["severity"], 1);
    assert_eq!(sd601["source"], "syncdef");
    assert_eq!(
        sd601["codeDescription"]["href"],
        "https://github.com/syncdef/syncdef/blob/main/docs/rules/SD601.md"
    );
    let message = sd601["message"].as_str().expect("a message");
    assert!(
        message.contains("`Acounts` is not a platform module"),
        "{message}"
    );
    assert!(message.contains("did you mean `Accounts`?"), "{message}");
    client.shut_down();
}

#[test]
fn ranges_count_utf16_units_after_non_ascii_text() {
    let (_, uri, text) = catalog("quickbooks-online/definition.yaml");
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &text);
    client.diagnostics(&uri);
    // `"#valueof($.account.name)"` of the first DisplayName becomes a concatenation whose
    // misspelt read comes after `é` (two bytes, one unit) and `𝄞` (four bytes, two units).
    let old = "DisplayName: \"#valueof($.account.name)\"";
    let new = "DisplayName: \"#concat(Zoé 𝄞 ,#valueof($.account.nmae))\"";
    let (line, start) = find(&text, old, 0);
    let end = start + u32::try_from(old.len()).expect("short");
    client.change(&uri, 2, [(line, start), (line, end)], new);
    let changed = client.diagnostics(&uri);
    let sd801 = the(&changed, "SD801");
    let column = start
        + u32::try_from(
            new[..new.find("nmae").expect("nmae")]
                .encode_utf16()
                .count(),
        )
        .expect("short");
    assert_eq!(
        sd801["range"],
        support::lsp_range([(line, column), (line, column + 4)]),
        "{sd801}"
    );
    client.shut_down();
}

#[test]
fn a_burst_of_changes_is_linted_once_on_the_latest_text() {
    let (_, uri, text) = catalog("quickbooks-online/definition.yaml");
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &text);
    client.diagnostics(&uri);
    // Typing `Invoicse` over `Accounts` one keystroke at a time: only the last text is linted.
    let (line, character) = find(&text, "module: Accounts", "module: ".len());
    client.change(&uri, 2, [(line, character), (line, character + 8)], "I");
    client.change(
        &uri,
        3,
        [(line, character + 1), (line, character + 1)],
        "nvoic",
    );
    client.change(
        &uri,
        4,
        [(line, character + 6), (line, character + 6)],
        "se",
    );
    let published = client.diagnostics(&uri);
    assert_eq!(published["version"], 4, "{published}");
    let sd601 = the(&published, "SD601");
    assert!(
        sd601["message"]
            .as_str()
            .unwrap_or("")
            .contains("`Invoicse`"),
        "{sd601}"
    );
    // Nothing was published for the intermediate versions: the next message is the answer.
    let answer = client.request("shutdown", Value::Null);
    assert_eq!(answer["result"], Value::Null);
    client.notify("exit", Value::Null);
}

#[test]
fn syncdef_toml_and_inline_suppressions_apply_as_in_the_cli() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (_, _, text) = catalog("quickbooks-online/definition.yaml");
    let broken = text.replacen("module: Accounts", "module: Acounts", 1);
    let path = dir.path().join("definition.yaml");
    std::fs::write(&path, &broken).expect("written");
    std::fs::write(
        dir.path().join("syncdef.toml"),
        "[rules]\nSD601 = \"warning\"\n",
    )
    .expect("written");
    let uri = format!("file://{}", path.display());
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &broken);
    let published = client.diagnostics(&uri);
    assert_eq!(
        the(&published, "SD601")["severity"],
        2,
        "syncdef.toml made it a warning"
    );

    // An `x-syncdef-ignore` at the entry silences it; the CLI agrees.
    let (line, _) = find(&broken, "    module: Acounts", 0);
    client.change(
        &uri,
        2,
        [(line, 0), (line, 0)],
        "    x-syncdef-ignore: [SD601]\n",
    );
    let published = client.diagnostics(&uri);
    assert!(
        !codes(&published).contains(&"SD601".to_owned()),
        "{published}"
    );
    assert!(
        !codes(&published).contains(&"SD115".to_owned()),
        "the suppression is used"
    );

    std::fs::write(
        dir.path().join("syncdef.toml"),
        "[rules]\nSD601 = \"loud\"\n",
    )
    .expect("written");
    client.change(&uri, 3, [(0, 0), (0, 0)], "");
    let published = client.diagnostics(&uri);
    let message = published["diagnostics"][0]["message"]
        .as_str()
        .unwrap_or("");
    assert!(
        message.contains("syncdef.toml"),
        "an invalid syncdef.toml is named: {published}"
    );
    client.shut_down();
}

#[test]
fn the_ignore_file_beside_syncdef_toml_applies_as_in_the_cli() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (_, _, text) = catalog("quickbooks-online/definition.yaml");
    let broken = text.replacen("module: Accounts", "module: Acounts", 1);
    let path = dir.path().join("definition.yaml");
    std::fs::write(&path, &broken).expect("written");
    std::fs::write(dir.path().join("syncdef.toml"), "").expect("written");
    let ignore = "definition.yaml:\n  SD601:\n    - '#/synchronization/Account/module'\n";
    std::fs::write(dir.path().join(".syncdef-ignore.yaml"), ignore).expect("written");
    let uri = format!("file://{}", path.display());
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &broken);
    assert_eq!(client.diagnostics(&uri)["diagnostics"], json!([]));

    std::fs::write(dir.path().join(".syncdef-ignore.yaml"), "[not, a, map]\n").expect("written");
    client.change(&uri, 2, [(0, 0), (0, 0)], "");
    let published = client.diagnostics(&uri);
    let message = published["diagnostics"][0]["message"]
        .as_str()
        .unwrap_or("");
    assert!(message.contains(".syncdef-ignore.yaml"), "{published}");
    assert!(
        codes(&published).contains(&"SD601".to_owned()),
        "{published}"
    );
    client.shut_down();
}

/// A vendor's description whose synchronization reaches a warning (SD126) and none of its two
/// errors (SD123 in an operation, SD124 in a schema): the editor publishes what `syncdef lint`
/// reports, in the scope syncdef.toml sets.
#[test]
fn findings_in_parts_no_entry_uses_are_published_only_in_scope_all() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../validator/tests/fixtures/scope/vendor.yaml"
    );
    let text = std::fs::read_to_string(fixture).expect("the fixture");
    let path = dir.path().join("vendor.yaml");
    std::fs::write(&path, &text).expect("written");
    std::fs::write(dir.path().join("syncdef.toml"), "").expect("written");
    let uri = format!("file://{}", path.display());
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &text);
    assert_eq!(codes(&client.diagnostics(&uri)), ["SD126"]);

    std::fs::write(dir.path().join("syncdef.toml"), "scope = \"all\"\n").expect("written");
    client.change(&uri, 2, [(0, 0), (0, 0)], "");
    let mut published = codes(&client.diagnostics(&uri));
    published.sort();
    assert_eq!(published, ["SD123", "SD124", "SD126"]);
    client.shut_down();
}

#[test]
fn json_definitions_are_linted_too() {
    let (_, uri, text) = catalog("business-central-odata/definition.json");
    let mut client = start();
    client.initialize();
    client.open(&uri, "json", &text);
    assert_eq!(client.diagnostics(&uri)["diagnostics"], json!([]));
    let (line, character) = find(&text, "\"module\": \"", "\"module\": \"".len());
    client.change(&uri, 2, [(line, character), (line, character)], "X");
    let published = client.diagnostics(&uri);
    assert!(
        codes(&published).contains(&"SD601".to_owned()),
        "{published}"
    );
    client.shut_down();
}

#[test]
fn closing_a_document_clears_its_diagnostics() {
    let (_, uri, text) = catalog("quickbooks-online/definition.yaml");
    let mut client = start();
    client.initialize();
    client.open(
        &uri,
        "yaml",
        &text.replacen("module: Accounts", "module: Acounts", 1),
    );
    assert!(!codes(&client.diagnostics(&uri)).is_empty());
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(client.diagnostics(&uri)["diagnostics"], json!([]));
    client.shut_down();
}

/// A definition written as an overlay: the findings in what it adds are published for the
/// overlay open in the editor, those in the vendor's description it extends for that file.
#[test]
fn an_overlays_findings_are_published_for_the_file_that_holds_each() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../definitions/tests/fixtures/overlay");
    let dir = std::fs::canonicalize(dir).expect("the fixtures exist");
    let overlay = dir.join("overlay.yaml");
    let text = std::fs::read_to_string(&overlay).expect("readable");
    let uri = format!("file://{}", overlay.display());
    let vendor_uri = format!("file://{}", dir.join("vendor.json").display());
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &text);
    let own = client.diagnostics(&uri);
    assert_eq!(codes(&own), ["SD602"], "{own}");
    let (line, character) = find(&text, "updateRequest:", 0);
    assert_eq!(
        the(&own, "SD602")["range"],
        support::lsp_range([(line, character), (line, character + 13)])
    );
    let vendor = client.diagnostics(&vendor_uri);
    assert_eq!(codes(&vendor), ["SD126"], "{vendor}");
    // `"example": 20240131` on line 214 of the vendor's file, the number from column 24.
    assert_eq!(
        the(&vendor, "SD126")["range"],
        support::lsp_range([(213, 23), (213, 31)])
    );
    client.shut_down();
}
