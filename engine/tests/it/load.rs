//! Loading: definitions with lint errors are refused; the fixtures load.

use crate::common;

use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::{Engine, OperationKind};

#[test]
fn fixtures_load_with_their_entries() {
    let qb = common::engine("quickbooks-online.yaml");
    let account = qb.plan().entry("Account").expect("Account entry");
    assert!(account.has(OperationKind::Create) && account.has(OperationKind::Update));
    assert_eq!(account.root(), "account");
    assert_eq!(
        qb.plan()
            .entry("Invoice")
            .map(syncdef_engine::EntryPlan::root),
        Some("invoice")
    );
    let bc = common::engine("business-central.yaml");
    assert_eq!(
        bc.plan()
            .entry("Invoice")
            .map(syncdef_engine::EntryPlan::root),
        Some("invoice")
    );
    common::engine("generic.yaml");
}

#[test]
fn a_definition_with_lint_errors_is_refused() {
    let text = std::fs::read_to_string(common::fixture("generic.yaml")).unwrap();
    let broken = text.replace("create: /accounts/post", "create: /acounts/post");
    let definition = Definition::load(SourceFile::new("broken.yaml", broken)).unwrap();
    let refused = Engine::load(definition).expect_err("lint errors refuse the load");
    assert!(refused.errors().count() >= 1);
    assert!(refused.to_string().contains("lint error"), "{refused}");
}
