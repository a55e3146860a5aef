//! Completion, hover, go to definition, document symbols and quick fixes, asked at positions
//! of the shipped QuickBooks Online definition, as an editor asks them.

use crate::support;

use serde_json::{Value, json};
use support::{Client, at, catalog, find, start};

struct Session {
    client: Client,
    uri: String,
    text: String,
}

/// A client with the QuickBooks Online definition open (and its first diagnostics read).
fn session() -> Session {
    let (_, uri, text) = catalog("quickbooks-online/definition.yaml");
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &text);
    client.diagnostics(&uri);
    Session { client, uri, text }
}

impl Session {
    fn position(&self, needle: &str, offset: usize) -> Value {
        let (line, character) = find(&self.text, needle, offset);
        at(line, character)
    }

    /// Replaces `old` (its first occurrence) by `new`, and waits for the new diagnostics.
    fn replace(&mut self, version: i32, old: &str, new: &str) -> Value {
        let start = find(&self.text, old, 0);
        let end = find(&self.text, old, old.len());
        self.client.change(&self.uri, version, [start, end], new);
        self.text = self.text.replacen(old, new, 1);
        self.client.diagnostics(&self.uri)
    }

    #[expect(
        clippy::needless_pass_by_value,
        reason = "the tests hand over the position they just computed, as for `labels`"
    )]
    fn ask(&mut self, method: &str, position: Value) -> Value {
        let params = json!({"textDocument": {"uri": self.uri}, "position": position});
        self.client.call(method, params)
    }

    fn labels(&mut self, position: Value) -> Vec<String> {
        let items = self.ask("textDocument/completion", position);
        items
            .as_array()
            .unwrap_or_else(|| panic!("a list of items: {items}"))
            .iter()
            .map(|i| i["label"].as_str().unwrap_or("").to_owned())
            .collect()
    }

    fn item(&mut self, position: Value, label: &str) -> Value {
        let items = self.ask("textDocument/completion", position);
        items
            .as_array()
            .and_then(|a| a.iter().find(|i| i["label"] == label).cloned())
            .unwrap_or_else(|| panic!("no `{label}` in {items}"))
    }
}

#[test]
fn operation_references_complete_from_paths_filtered_by_what_is_typed() {
    let mut s = session();
    s.replace(2, "create: /customer/post", "create: /inv");
    let position = s.position("create: /inv", "create: /inv".len());
    let labels = s.labels(position.clone());
    assert!(labels.contains(&"/invoice/post".to_owned()), "{labels:?}");
    assert!(
        labels.contains(&"/invoice/{invoiceId}/get".to_owned()),
        "{labels:?}"
    );
    assert!(
        !labels.iter().any(|l| l.starts_with("/customer")),
        "filtered: {labels:?}"
    );
    let item = s.item(position, "/invoice/post");
    let (line, character) = find(&s.text, "create: /inv", "create: ".len());
    assert_eq!(
        item["textEdit"]["range"]["start"],
        at(line, character),
        "replaces the typed text"
    );
    assert_eq!(item["textEdit"]["newText"], "/invoice/post");
}

#[test]
fn functions_fields_server_variables_and_placeholders_complete() {
    let mut s = session();
    let old = "DisplayName: \"#valueof($.account.name)\"";
    // `#val` -> the function with its signature.
    s.replace(2, old, "DisplayName: \"#val");
    let item = s.item(s.position("\"#val", 5), "valueof");
    assert_eq!(item["detail"], "#valueof(path[, scopeAlias])");
    // `$.account.` -> the account's fields with their types.
    s.replace(
        3,
        "DisplayName: \"#val",
        "DisplayName: \"#valueof($.account.",
    );
    let position = s.position("($.account.", "($.account.".len());
    let name = s.item(position.clone(), "name");
    assert_eq!(name["detail"], "string");
    let labels = s.labels(position);
    assert!(labels.contains(&"accountCurrency".to_owned()), "{labels:?}");
    assert!(!labels.contains(&"account".to_owned()), "{labels:?}");
    // Nested and array reads follow the schema.
    s.replace(
        4,
        "($.account.",
        "($.account.addresses[?(@.isBilling==true)].",
    );
    let labels = s.labels(s.position("isBilling==true)].", "isBilling==true)].".len()));
    assert!(labels.contains(&"postCode".to_owned()), "{labels:?}");
    // `$.` -> the roots; `$.serverVariables.` -> the declared variables.
    s.replace(
        5,
        "($.account.addresses[?(@.isBilling==true)].",
        "($.serverVariables.",
    );
    let labels = s.labels(s.position("($.serverVariables.", "($.serverVariables.".len()));
    assert_eq!(
        labels,
        vec!["environment", "realmId", "itemId", "incomeAccountId"]
    );
    s.replace(6, "($.serverVariables.", "($.");
    let labels = s.labels(s.position("#valueof($.", "#valueof($.".len()));
    for root in ["account", "invoice", "serverVariables", "externalId"] {
        assert!(labels.contains(&root.to_owned()), "{root} in {labels:?}");
    }
    // `$.related.` -> the entries, then their external id.
    s.replace(7, "#valueof($.\n", "#valueof($.related.\n");
    let labels = s.labels(s.position("($.related.", "($.related.".len()));
    assert_eq!(labels, vec!["Account", "Invoice", "Product", "Payment"]);
    // `{` in a reference -> IntegrationId, each entry's, the server variables.
    s.replace(8, "create: /customer/post", "create: /customer/{");
    let labels = s.labels(s.position("create: /customer/{", "create: /customer/{".len()));
    for name in [
        "IntegrationId",
        "Account.IntegrationId",
        "Invoice.IntegrationId",
        "realmId",
    ] {
        assert!(labels.contains(&name.to_owned()), "{name} in {labels:?}");
    }
}

#[test]
fn modules_action_values_and_rule_codes_complete() {
    let mut s = session();
    s.replace(2, "module: Accounts", "module: Inv");
    // The invoices, and their lines (a module of lines, pushed with them).
    assert_eq!(
        s.labels(s.position("module: Inv", "module: Inv".len())),
        vec!["Invoices", "InvoiceItems"]
    );
    s.replace(3, "type: ApiPath", "type: ");
    let labels = s.labels(s.position("type: \n", "type: ".len()));
    assert_eq!(labels, vec!["ApiPath", "ApiSynchronization"]);
    s.replace(4, "in: Body", "in: H");
    assert_eq!(s.labels(s.position("in: H", "in: H".len())), vec!["Header"]);
    s.replace(
        5,
        "    module: Inv",
        "    x-syncdef-ignore: [SD60\n    module: Invoices",
    );
    let labels = s.labels(s.position("[SD60", "[SD60".len()));
    assert!(
        labels.contains(&"SD601".to_owned()) && labels.iter().all(|l| l.starts_with("SD60")),
        "{labels:?}"
    );
}

#[test]
fn hover_explains_functions_fields_operations_and_findings() {
    let mut s = session();
    let hover = |s: &mut Session, needle: &str, offset: usize| {
        let position = s.position(needle, offset);
        s.ask("textDocument/hover", position)["contents"]["value"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    let function = hover(&mut s, "#valueof($.account.name)", 3);
    assert!(
        function.contains("#valueof(path[, scopeAlias])"),
        "{function}"
    );
    let field = hover(&mut s, "$.account.accountCurrency.currency.mnemonic", 30);
    assert!(
        field.contains("$.account.accountCurrency.currency"),
        "{field}"
    );
    let operation = hover(&mut s, "create: /customer/post", 12);
    assert!(operation.contains("**POST** `/customer`"), "{operation}");
    s.replace(2, "module: Accounts", "module: Acounts");
    let finding = hover(&mut s, "module: Acounts", 10);
    assert!(finding.contains("**SD601**"), "{finding}");
    assert!(
        s.ask("textDocument/hover", at(0, 0)).is_null(),
        "nothing to say at a comment"
    );
}

#[test]
fn go_to_definition_finds_operations_refs_and_entries() {
    let mut s = session();
    let target = |s: &mut Session, needle: &str, offset: usize| {
        let position = s.position(needle, offset);
        s.ask("textDocument/definition", position)["range"]["start"].clone()
    };
    // The operation: the `post:` key under `/customer:`.
    let post =
        s.text.find("  /customer:\n    post:").expect("the path") + "  /customer:\n    ".len();
    let (line, character) = support::position_of(&s.text, post);
    assert_eq!(
        target(&mut s, "create: /customer/post", 10),
        at(line, character)
    );
    // A `$ref` -> the schema's key.
    let schema = find(&s.text, "    CustomerWrite:", 4);
    assert_eq!(
        target(&mut s, "$ref: \"#/components/schemas/CustomerWrite\"", 12),
        at(schema.0, schema.1)
    );
    // `{Account.IntegrationId}` -> the Account entry.
    let entry = find(&s.text, "\n  Account:\n", 3);
    s.replace(
        2,
        "path: /customer/{IntegrationId}/get",
        "path: /customer/{Account.IntegrationId}/get",
    );
    assert_eq!(
        target(&mut s, "{Account.IntegrationId}", 3),
        at(entry.0, entry.1)
    );
}

#[test]
fn a_template_name_leads_to_the_operation_that_uses_it() {
    let mut s = session();
    let post =
        s.text.find("  /customer:\n    post:").expect("the path") + "  /customer:\n    ".len();
    let (line, character) = support::position_of(&s.text, post);
    let position = s.position("        createRequest:", 10);
    let found = s.ask("textDocument/definition", position);
    assert_eq!(found["range"]["start"], at(line, character), "{found}");
}

#[test]
fn references_list_what_names_an_operation_a_schema_or_an_entry() {
    let mut s = session();
    let references = |s: &mut Session, needle: &str, offset: usize, declaration: bool| {
        let position = s.position(needle, offset);
        let params = json!({
            "textDocument": {"uri": s.uri},
            "position": position,
            "context": {"includeDeclaration": declaration},
        });
        let found = s.client.call("textDocument/references", params);
        let starts: Vec<Value> = found
            .as_array()
            .unwrap_or_else(|| panic!("a list of locations: {found}"))
            .iter()
            .map(|l| l["range"]["start"].clone())
            .collect();
        starts
    };
    // On the operation: the references that name it (QuickBooks creates and updates a
    // customer with the same POST); from one of them, the same and the operation itself.
    let post =
        s.text.find("  /customer:\n    post:").expect("the path") + "  /customer:\n    ".len();
    let (line, character) = support::position_of(&s.text, post);
    let create = find(&s.text, "create: /customer/post", "create: ".len());
    let update = find(&s.text, "update: /customer/post", "update: ".len());
    let naming = vec![at(create.0, create.1), at(update.0, update.1)];
    let on_operation = references(
        &mut s,
        "  /customer:\n    post:",
        "  /customer:\n    ".len(),
        false,
    );
    assert_eq!(on_operation, naming);
    let mut with_declaration = vec![at(line, character)];
    with_declaration.extend(naming);
    let on_reference = references(&mut s, "create: /customer/post", 10, true);
    assert_eq!(on_reference, with_declaration);
    // On a schema: every `$ref` to it.
    let refs = references(&mut s, "    CustomerWrite:", 6, false);
    let written = s
        .text
        .matches("\"#/components/schemas/CustomerWrite\"")
        .count();
    assert_eq!(refs.len(), written, "{refs:?}");
    // On an entry: its placeholders.
    s.replace(
        2,
        "path: /customer/{IntegrationId}/get",
        "path: /customer/{Account.IntegrationId}/get",
    );
    let placeholder = find(&s.text, "{Account.IntegrationId}", 0);
    let named = references(&mut s, "\n  Account:\n", 3, false);
    assert!(
        named.contains(&at(placeholder.0, placeholder.1)),
        "{named:?}"
    );
}

#[test]
fn go_to_definition_reads_the_text_of_a_change_not_yet_linted() {
    definition_and_completion_before_the_lint(session());
}

/// QuickBooks' definition padded with a comment past the size (1 MiB) where the server
/// treats a text as large, opened and linted once.
fn large_session() -> Session {
    let (_, uri, mut text) = catalog("quickbooks-online/definition.yaml");
    text.push_str("# ");
    text.push_str(&"padding ".repeat(150_000));
    text.push('\n');
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &text);
    client.diagnostics(&uri);
    Session { client, uri, text }
}

#[test]
fn a_large_document_reads_the_text_of_a_change_not_yet_linted_too() {
    // Past the size where the server stops loading each linted text for the features.
    definition_and_completion_before_the_lint(large_session());
}

#[test]
fn a_large_document_that_stops_loading_completes_from_its_last_loaded_version() {
    // Before it lints a large text, the server lets go of the last definition (its tree and
    // text); completion must still offer what that definition had.
    let mut s = large_session();
    let end = support::position_of(&s.text, s.text.len());
    s.client
        .change(&s.uri, 2, [end, end], "broken: [unclosed\n");
    let published = s.client.diagnostics(&s.uri);
    assert_eq!(published["version"], 2, "{published}");
    let found = published["diagnostics"].to_string();
    assert!(found.contains("SD1"), "the text no longer loads: {found}");
    s.text.push_str("broken: [unclosed\n");
    let labels = s.labels(s.position("create: /customer/post", "create: /cus".len()));
    assert!(labels.contains(&"/customer/post".to_owned()), "{labels:?}");
    let related = "#valueof($.related.Account.IntegrationId)";
    let entries = s.labels(s.position(related, "#valueof($.related.".len()));
    assert!(entries.contains(&"Account".to_owned()), "{entries:?}");
}

/// Go to definition asked right after a change that moves its target, before the change's
/// quiet time is over, so that only the new text places it right; completion answers then
/// too.
fn definition_and_completion_before_the_lint(mut s: Session) {
    let target = |s: &mut Session, needle: &str, offset: usize| {
        let position = s.position(needle, offset);
        s.ask("textDocument/definition", position)["range"]["start"].clone()
    };
    // Settled: the answer may come from what was loaded for the lint's version.
    target(&mut s, "create: /customer/post", 10);
    let paths = find(&s.text, "\npaths:\n", 1);
    s.client
        .change(&s.uri, 2, [paths, paths], "x-a: 1\nx-b: 2\n");
    s.text = s
        .text
        .replacen("\npaths:\n", "\nx-a: 1\nx-b: 2\npaths:\n", 1);
    let post =
        s.text.find("  /customer:\n    post:").expect("the path") + "  /customer:\n    ".len();
    let (line, character) = support::position_of(&s.text, post);
    assert_eq!(
        target(&mut s, "create: /customer/post", 10),
        at(line, character)
    );
    let labels = s.labels(s.position("create: /customer/post", "create: /cus".len()));
    assert!(labels.contains(&"/customer/post".to_owned()), "{labels:?}");
}

#[test]
fn document_symbols_outline_entries_and_paths() {
    let mut s = session();
    let symbols = s.client.call(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": s.uri}}),
    );
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .map(|a| {
                a.iter()
                    .map(|x| x["name"].as_str().unwrap_or("").to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(names(&symbols), vec!["synchronization", "paths"]);
    let account = &symbols[0]["children"][0];
    assert_eq!(account["name"], "Account");
    assert_eq!(account["detail"], "Accounts");
    let children = names(&account["children"]);
    for name in [
        "create",
        "update",
        "SyncToken",
        "createRequest",
        "updateRequest",
    ] {
        assert!(
            children.contains(&name.to_owned()),
            "{name} in {children:?}"
        );
    }
    assert!(names(&symbols[1]["children"]).contains(&"/customer".to_owned()));
}

/// Applies the single text edit of a code action to `s`.
fn apply(s: &mut Session, version: i32, action: &Value) -> Value {
    let edits = &action["edit"]["changes"][&s.uri];
    assert_eq!(edits.as_array().map(Vec::len), Some(1), "{action}");
    let edit = &edits[0];
    s.client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": s.uri, "version": version}, "contentChanges": [{"range": edit["range"], "text": edit["newText"]}]}),
    );
    s.client.diagnostics(&s.uri)
}

#[test]
fn quick_fixes_apply_the_suggestion_or_suppress_the_finding() {
    for (choice, version) in [
        ("Change to `Accounts` (SD601)", 3),
        ("Suppress SD601 here (x-syncdef-ignore)", 3),
    ] {
        let mut s = session();
        let published = s.replace(2, "module: Accounts", "module: Acounts");
        assert_eq!(published["diagnostics"][0]["code"], "SD601");
        let after = fix_first(&mut s, &published, "SD601", choice, version);
        assert_eq!(
            after["diagnostics"],
            json!([]),
            "{choice} leaves the definition clean: {after}"
        );
    }
}

/// The quick fix named `title` of the first finding of `code` in `published`, applied; the
/// findings of the text it leaves.
fn fix_first(s: &mut Session, published: &Value, code: &str, title: &str, version: i32) -> Value {
    let finding = published["diagnostics"]
        .as_array()
        .and_then(|all| all.iter().find(|d| d["code"] == code).cloned())
        .unwrap_or_else(|| panic!("a {code} finding in {published}"));
    let actions = s.client.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": s.uri}, "range": finding["range"], "context": {"diagnostics": [finding]}}),
    );
    let action = actions
        .as_array()
        .and_then(|a| a.iter().find(|x| x["title"] == title).cloned())
        .unwrap_or_else(|| panic!("`{title}` in {actions}"));
    apply(s, version, &action)
}

#[test]
fn quick_fixes_add_a_missing_template_and_mark_an_update_sparse() {
    let codes = |published: &Value| -> Vec<String> {
        published["diagnostics"]
            .as_array()
            .map(|all| {
                all.iter()
                    .map(|d| d["code"].as_str().unwrap_or("").to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut s = session();
    let published = s.replace(
        2,
        "      update: /customer/post\n",
        "      update: /customer/post\n      delete: /customer/post\n",
    );
    assert!(
        codes(&published).contains(&"SD401".to_owned()),
        "{published}"
    );
    let after = fix_first(
        &mut s,
        &published,
        "SD401",
        "Add the `deleteRequest` template (SD401)",
        3,
    );
    assert!(!codes(&after).contains(&"SD401".to_owned()), "{after}");

    let mut s = session();
    let published = s.replace(
        2,
        "          sparse: true\n          DisplayName",
        "          DisplayName",
    );
    assert_eq!(codes(&published), ["SD604"], "{published}");
    let after = fix_first(
        &mut s,
        &published,
        "SD604",
        "Mark the update sparse (`sparse: true`) (SD604)",
        3,
    );
    assert_eq!(after["diagnostics"], json!([]), "{after}");
}

#[test]
fn json_definitions_complete_and_fix_in_json() {
    let (_, uri, text) = catalog("business-central-odata/definition.json");
    let mut client = start();
    client.initialize();
    client.open(&uri, "json", &text);
    client.diagnostics(&uri);
    let mut s = Session { client, uri, text };
    s.replace(2, "\"create\": \"/Customer/post\"", "\"create\": \"/Cus");
    let labels = s.labels(s.position("\"create\": \"/Cus", "\"create\": \"/Cus".len()));
    assert!(labels.contains(&"/Customer/post".to_owned()), "{labels:?}");
    s.replace(3, "\"create\": \"/Cus", "\"create\": \"/Customer/post\"");
    let published = s.replace(4, "\"module\": \"Accounts\"", "\"module\": \"Acounts\"");
    let finding = published["diagnostics"][0].clone();
    assert_eq!(finding["code"], "SD601", "{published}");
    let actions = s.client.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": s.uri}, "range": finding["range"], "context": {"diagnostics": [finding]}}),
    );
    let suppress = actions
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|x| {
                    x["title"]
                        .as_str()
                        .is_some_and(|t| t.starts_with("Suppress"))
                })
                .cloned()
        })
        .unwrap_or_else(|| panic!("a suppression in {actions}"));
    let new_text = &suppress["edit"]["changes"][&s.uri][0]["newText"];
    assert!(
        new_text
            .as_str()
            .is_some_and(|t| t.contains("\"x-syncdef-ignore\": [\"SD601\"]")),
        "{new_text}"
    );
    let after = apply(&mut s, 5, &suppress);
    assert_eq!(after["diagnostics"], json!([]), "{after}");
}

#[test]
fn api_synchronization_targets_lead_to_their_entry_and_complete_entries() {
    let (_, uri, text) = catalog("business-central-odata/definition.yaml");
    let mut client = start();
    client.initialize();
    client.open(&uri, "yaml", &text);
    client.diagnostics(&uri);
    let mut s = Session { client, uri, text };
    let entry = find(&s.text, "\n  Account:\n", 3);
    let position = s.position(
        "type: ApiSynchronization\n          path: Account",
        "type: ApiSynchronization\n          path: Acc".len(),
    );
    let found = s.ask("textDocument/definition", position);
    assert_eq!(found["range"]["start"], at(entry.0, entry.1), "{found}");
    // An action's path offers the entries beside the operations.
    s.replace(2, "          path: Account\n", "          path: Acc\n");
    let labels = s.labels(s.position("          path: Acc\n", "          path: Acc".len()));
    assert_eq!(labels, vec!["Account"], "{labels:?}");
}
