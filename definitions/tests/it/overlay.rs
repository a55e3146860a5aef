//! Definitions written as an OpenAPI Overlay over a vendor's unmodified description: the
//! document the actions make, where each node is located, and every way an overlay is wrong
//! (insta snapshots of the located problems and refusals).

use std::path::Path;

use syncdef_definitions::model::ProblemKind;
use syncdef_definitions::{Definition, LoadError, LoadErrorKind};

/// The fixtures, by a path relative to the crate (tests run from there), so that the names in
/// snapshots do not depend on the checkout.
const DIR: &str = "tests/fixtures/overlay";

fn load(name: &str) -> Result<Definition, LoadError> {
    Definition::load_path(&Path::new(DIR).join(name))
}

fn loaded(name: &str) -> Definition {
    load(name).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn refused(name: &str) -> LoadError {
    match load(name) {
        Ok(_) => panic!("{name} loaded but must be refused"),
        Err(error) => error,
    }
}

/// Each problem as `file:line:column: message (pointer)` and its help.
fn problems(def: &Definition) -> String {
    def.problems
        .iter()
        .map(|p| {
            let help = p.help.as_deref().unwrap_or("");
            format!(
                "{}: {} ({})\n  help: {help}",
                def.describe(p),
                p.message,
                p.pointer
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn an_overlay_makes_the_document_written_as_one() {
    let overlay = loaded("overlay.yaml");
    let single = loaded("single.yaml");
    assert_eq!(problems(&overlay), "");
    assert_eq!(overlay.root().to_json(), single.root().to_json());
    assert_eq!(overlay.problems, Vec::new());
    let entries = |def: &Definition| {
        def.sync
            .iter()
            .flat_map(|s| s.entries.iter().map(|e| e.key.value.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(entries(&overlay), ["Account", "Invoice"]);
    assert_eq!(entries(&overlay), entries(&single));
}

#[test]
fn each_node_is_located_in_the_file_that_wrote_it() {
    let def = loaded("overlay.yaml");
    let at = |pointer: &str| {
        let node = def.root().pointer(pointer).expect(pointer);
        def.source.describe(node.span)
    };
    // What the vendor wrote, in the vendor's file.
    assert_eq!(at("/openapi"), "tests/fixtures/overlay/vendor.json:2:14");
    assert_eq!(
        at("/components/schemas/Invoice/properties/dueDate/example"),
        "tests/fixtures/overlay/vendor.json:214:24"
    );
    // What the actions added, in the overlay.
    assert_eq!(
        at("/paths/~1accounts/post/summary"),
        "tests/fixtures/overlay/overlay.yaml:12:16"
    );
    assert_eq!(
        at("/synchronization/Account/module"),
        "tests/fixtures/overlay/overlay.yaml:19:19"
    );
    let files: Vec<&str> = def.source.files().map(|f| f.name).collect();
    assert_eq!(
        files,
        [
            "tests/fixtures/overlay/overlay.yaml",
            "tests/fixtures/overlay/vendor.json"
        ]
    );
}

#[test]
fn an_overlay_may_extend_an_overlay_and_remove() {
    let def = loaded("layered.yaml");
    assert_eq!(problems(&def), "");
    let root = def.root();
    let server = root.pointer("/servers/0/url").expect("a server");
    assert_eq!(
        server.as_str(),
        Some("https://sandbox.example.com/{tenant}")
    );
    assert_eq!(
        def.source.describe(server.span),
        "tests/fixtures/overlay/layered.yaml:8:12"
    );
    // The server's variables stay the vendor's: objects merge.
    let tenant = root.pointer("/servers/0/variables/tenant").expect("kept");
    assert!(
        def.source
            .describe(tenant.span)
            .starts_with("tests/fixtures/overlay/vendor.json:")
    );
    assert!(
        root.pointer("/paths/~1accounts~1{accountId}~1audit")
            .is_none()
    );
    let actions = "/synchronization/Account/push/postSynchronizationAction";
    assert!(root.pointer(&format!("{actions}/Audit")).is_none());
    assert!(root.pointer(&format!("{actions}/Notify")).is_some());
    let files: Vec<&str> = def.source.files().map(|f| f.name).collect();
    assert_eq!(files.len(), 3, "{files:?}");
}

#[test]
fn an_update_of_an_array_appends_and_arrays_inside_an_update_are_appended_to() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let vendor = dir.path().join("vendor.yaml");
    let overlay = dir.path().join("overlay.yaml");
    std::fs::write(&vendor, "openapi: 3.0.3\ninfo: {title: t, version: '1'}\ntags: [{name: a}]\nsecurity: [{k: [read]}]\npaths: {}\nx-list: [1]\n")
        .expect("written");
    std::fs::write(
        &overlay,
        "overlay: 1.0.0\ninfo: {title: o, version: '1'}\nextends: vendor.yaml\nactions:\n  - target: $.tags\n    update: {name: b}\n  - target: $\n    update: {x-list: [2], info: {title: u}}\n",
    )
    .expect("written");
    let def = Definition::load_path(&overlay).unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(
        def.root().to_json(),
        serde_json::json!({
            "openapi": "3.0.3",
            "info": {"title": "u", "version": "1"},
            "tags": [{"name": "a"}, {"name": "b"}],
            "security": [{"k": ["read"]}],
            "paths": {},
            "x-list": [1, 2],
        })
    );
}

#[test]
fn bad_actions_are_each_reported_where_they_are_written() {
    let def = loaded("bad-actions.yaml");
    assert!(def.problems.iter().any(|p| p.kind == ProblemKind::Overlay));
    insta::assert_snapshot!(problems(&def));
}

macro_rules! refusal {
    ($test:ident, $file:literal) => {
        #[test]
        fn $test() {
            let error = refused($file);
            insta::assert_snapshot!(error.render());
        }
    };
}

refusal!(an_overlay_without_extends_is_refused, "no-extends.yaml");
refusal!(
    an_unreadable_extends_is_refused_naming_the_path,
    "missing-vendor.yaml"
);
refusal!(an_overlay_extending_itself_is_refused, "self.yaml");
refusal!(
    a_chain_of_overlays_back_to_the_first_is_refused,
    "chain-a.yaml"
);
refusal!(
    a_vendor_file_that_does_not_parse_is_shown_in_it,
    "broken-vendor.yaml"
);

#[test]
fn refusals_have_their_kind() {
    for name in [
        "no-extends.yaml",
        "missing-vendor.yaml",
        "self.yaml",
        "chain-a.yaml",
    ] {
        assert_eq!(refused(name).kind, LoadErrorKind::Overlay, "{name}");
    }
    assert_eq!(refused("broken-vendor.yaml").kind, LoadErrorKind::Syntax);
}

/// `$ref`s to other files are followed: what they name is brought into the document, located
/// in the file that wrote it, and the references made local.
#[test]
fn references_to_other_files_are_followed_and_located_there() {
    let def = Definition::load_path(Path::new("tests/fixtures/external-refs/definition.yaml"))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(problems(&def), "");
    let root = def.root();
    let body = "/paths/~1customers/post/requestBody/content/application~1json/schema/$ref";
    assert_eq!(
        root.pointer(body)
            .and_then(syncdef_definitions::Node::as_str),
        Some("#/components/schemas/Customer")
    );
    let city = root
        .pointer("/components/schemas/Address/properties/city/example")
        .expect("the address, brought in through the customer");
    assert_eq!(
        def.source.describe(city.span),
        "tests/fixtures/external-refs/schemas.json:15:49"
    );
    let address = "/components/schemas/Customer/properties/address/$ref";
    assert_eq!(
        root.pointer(address)
            .and_then(syncdef_definitions::Node::as_str),
        Some("#/components/schemas/Address")
    );
    // A reference to a whole file is replaced by the file's content, in that file.
    let not_found = root
        .pointer("/paths/~1customers/post/responses/404/description")
        .expect("the response, read from its file");
    assert_eq!(
        def.source.describe(not_found.span),
        "tests/fixtures/external-refs/responses/not-found.yaml:1:14"
    );
    let schema = "/paths/~1customers/post/responses/404/content/application~1json/schema/$ref";
    assert_eq!(
        root.pointer(schema)
            .and_then(syncdef_definitions::Node::as_str),
        Some("#/components/schemas/Address")
    );
    let files: Vec<&str> = def.source.files().map(|f| f.name).collect();
    assert_eq!(files.len(), 3, "{files:?}");
}

#[test]
fn a_reference_to_a_file_that_is_not_there_is_reported_at_the_reference() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("definition.yaml");
    std::fs::write(
        &path,
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: './absent.json#/components/schemas/A'}\n",
    )
    .expect("written");
    let def = Definition::load_path(&path).unwrap_or_else(|e| panic!("{}", e.render()));
    let external: Vec<&str> = def
        .problems
        .iter()
        .filter(|p| p.kind == ProblemKind::ExternalRef)
        .map(|p| p.message.as_str())
        .collect();
    assert_eq!(external.len(), 1, "{}", problems(&def));
    assert!(external[0].contains("could not be read"), "{}", external[0]);
}
