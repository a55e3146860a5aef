//! The platform modules the worker can read, and how. Every fact about a module (its
//! collection, record route, id type, child collections, change cursor, where its record names
//! related records) comes from the module table, `syncdef_definitions::platform::modules`;
//! this file only says which of those modules `syncdef sync` reads so far and turns the facts
//! into platform calls.

use std::fmt;

use serde_json::Value;
use syncdef_definitions::platform::modules::{self as table, IdType, Routes};
use syncdef_platform::ids::record_id;
use syncdef_platform::query::Collection;
use syncdef_platform::{Guid, PlatformClient, PlatformError};

/// The modules `syncdef sync` reads: every row of the module table with a collection to list
/// (the spec shows none for cases, so those cannot be listed).
fn synced_modules() -> impl Iterator<Item = &'static table::Module> {
    table::MODULES.iter().filter(|m| m.routes.is_some())
}

/// A platform module supported by `syncdef sync`: a row of the module table with a
/// collection the platform client knows.
#[derive(Clone, Copy)]
pub struct Module {
    facts: &'static table::Module,
    routes: Routes,
    collection: &'static Collection,
}

impl PartialEq for Module {
    fn eq(&self, other: &Self) -> bool {
        self.facts.name == other.facts.name
    }
}

impl Eq for Module {}

impl fmt::Debug for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.facts.name)
    }
}

impl Module {
    /// The module named in a definition entry (`module: Accounts`), if the worker reads it.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::synced(|m| m.name == name)
    }

    /// The module of an engine entry plan, by its template root (`account`, `invoice`), if the
    /// worker reads it.
    #[must_use]
    pub fn from_root(root: &str) -> Option<Self> {
        Self::synced(|m| m.root == root)
    }

    fn synced(pick: impl Fn(&table::Module) -> bool) -> Option<Self> {
        let facts = synced_modules().find(|m| pick(m))?;
        let routes = facts.routes?;
        let collection = Collection::find(routes.collection)?;
        Some(Module {
            facts,
            routes,
            collection,
        })
    }

    /// The modules supported, for messages (`Accounts, Invoices`).
    #[must_use]
    pub fn supported() -> String {
        synced_modules()
            .map(|m| m.name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The module's row of the module table.
    #[must_use]
    pub fn facts(self) -> &'static table::Module {
        self.facts
    }

    /// The module's name (`Accounts`).
    #[must_use]
    pub fn name(self) -> &'static str {
        self.facts.name
    }

    /// The collection whose change cursor finds changed records.
    #[must_use]
    pub fn collection(self) -> &'static Collection {
        self.collection
    }

    /// The field the collection is filtered and ordered by to find changes (`updatedAt`).
    /// Every module with a collection has one in the table; the shared cursor stands in for a
    /// row that would lack it, so that the listing still has an order.
    #[must_use]
    pub fn change_cursor(self) -> &'static str {
        self.facts.change_cursor.unwrap_or(table::CHANGE_CURSOR)
    }

    /// Whether `record` carries the module's deletion marker, turned on (`isDeleted: true`).
    #[must_use]
    pub fn is_deleted(self, record: &Value) -> bool {
        self.facts
            .deletion_marker
            .is_some_and(|marker| record.get(marker) == Some(&Value::Bool(true)))
    }

    /// The platform id of a listed record, as text.
    pub fn id_of(self, record: &Value) -> Result<String, String> {
        record_id(self.routes.id_type, record).map_err(|e| e.to_string())
    }

    /// `id` as the record route takes it, or why it cannot be an id of this module.
    fn checked_id(self, id: &str) -> Result<String, PlatformError> {
        let root = self.facts.root;
        let article = if root.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        match self.routes.id_type {
            IdType::Integer => id.parse::<i64>().map(|n| n.to_string()).map_err(|_| {
                PlatformError::Usage(format!(
                    "`{id}` is not {article} {root} id ({})",
                    IdType::Integer.expected()
                ))
            }),
            IdType::Guid => Guid::parse(id).map(|g| g.as_str().to_owned()).map_err(|e| {
                PlatformError::Usage(format!("`{id}` is not {article} {root} id: {e}"))
            }),
        }
    }

    /// The single-record route of `id` (checked to be an id of this module).
    pub(crate) fn record_path(self, id: &str) -> Result<String, PlatformError> {
        Ok(self.routes.record_path(&self.checked_id(id)?))
    }

    /// The full record with its child collections and attached lists, as templates read it.
    pub async fn read(self, platform: &PlatformClient, id: &str) -> Result<Value, PlatformError> {
        // A checked id is digits or a GUID: nothing in it needs escaping in a path.
        let id = self.checked_id(id)?;
        let mut record = platform.get_record(&self.routes.record_path(&id)).await?;
        // Templates read the child and attached fields (`$.invoice.items`,
        // `$.product.pricelists`); their own routes are the authority, whatever the record's
        // body carries.
        let mut fields = Vec::new();
        for child in self.facts.children {
            fields.push((child.field, platform.get_list(&child.path(&id)).await?));
        }
        for list in self.facts.attached {
            fields.push((list.field, platform.attached_list(list, &id).await?));
        }
        if let Value::Object(map) = &mut record {
            for (field, values) in fields {
                map.insert(field.to_owned(), Value::Array(values));
            }
        }
        Ok(record)
    }

    /// Where this module's record names its related record of `target`, as the module table
    /// says (`account.id, accountId`), for messages.
    #[must_use]
    pub fn related_places(self, target: Module) -> String {
        self.facts.related(target.name()).map_or_else(
            || "the module table knows no such field".to_owned(),
            |r| {
                r.id_pointers
                    .iter()
                    .map(|p| p.trim_start_matches('/').replace('/', "."))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        )
    }

    /// The platform id of the related record of module `target` that `record` names (an
    /// invoice's account), if it names one.
    #[must_use]
    pub fn related_id(self, target: Module, record: &Value) -> Option<String> {
        let related = self.facts.related(target.name())?;
        related
            .id_pointers
            .iter()
            .filter_map(|p| record.pointer(p))
            .find_map(|v| match v {
                Value::Number(n) => Some(n.to_string()),
                Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
                _ => None,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn module(name: &str) -> Module {
        Module::from_name(name).expect("a synced module")
    }

    #[test]
    fn where_a_record_names_its_related_records_comes_from_the_table() {
        let accounts = module("Accounts");
        assert_eq!(
            module("Invoices").related_places(accounts),
            "account.id, accountId, billingToId, billingAccount.id"
        );
        // Contacts and payments name their account by `accountId` alone (or a nested account).
        for name in ["Contacts", "Payments"] {
            assert_eq!(
                module(name).related_places(accounts),
                "account.id, accountId",
                "{name}"
            );
        }
        assert_eq!(
            accounts.related_places(module("Products")),
            "the module table knows no such field"
        );
    }

    #[test]
    fn a_subscription_names_its_account() {
        let (subscriptions, accounts) = (module("Subscriptions"), module("Accounts"));
        let subscription = json!({"accountId": 12, "billingToId": 7});
        assert_eq!(
            subscriptions.related_id(accounts, &subscription),
            Some("12".to_owned())
        );
    }

    #[test]
    fn an_invoice_names_its_account() {
        let (invoices, accounts) = (module("Invoices"), module("Accounts"));
        let invoice = json!({"account": {"id": 1042}, "billingToId": 7});
        assert_eq!(
            invoices.related_id(accounts, &invoice),
            Some("1042".to_owned())
        );
        let billed = json!({"billingToId": 7});
        assert_eq!(invoices.related_id(accounts, &billed), Some("7".to_owned()));
        assert_eq!(invoices.related_id(accounts, &json!({})), None);
    }

    #[test]
    fn only_the_synced_modules_are_read() {
        assert_eq!(
            Module::supported(),
            "Accounts, Contacts, Orders, Invoices, Products, Payments, Subscriptions"
        );
        assert_eq!(Module::from_root("invoice"), Some(module("Invoices")));
        assert_eq!(
            Module::from_root("subscription"),
            Some(module("Subscriptions"))
        );
        assert_eq!(Module::from_name("Cases"), None);
        assert_eq!(Module::from_root("case"), None);
        assert_eq!(module("Accounts").collection().path, "/api/accounts");
        assert_eq!(module("Invoices").change_cursor(), "updatedAt");
    }

    #[test]
    fn a_deleted_product_says_so() {
        let products = module("Products");
        assert!(products.is_deleted(&serde_json::json!({"isDeleted": true})));
        assert!(!products.is_deleted(&serde_json::json!({"isDeleted": false})));
        assert!(!products.is_deleted(&serde_json::json!({})));
        assert!(!module("Accounts").is_deleted(&serde_json::json!({"isDeleted": true})));
    }

    #[test]
    fn ids_are_checked_with_the_module_s_id_type() {
        let accounts = module("Accounts");
        assert_eq!(accounts.checked_id("42").ok(), Some("42".to_owned()));
        let wrong = accounts.checked_id("x").err().map(|e| e.to_string());
        assert!(
            wrong.is_some_and(|m| m.contains("`x` is not an account id (an integer)")),
            "integer ids"
        );
        let invoices = module("Invoices");
        assert!(invoices.checked_id("42").is_err());
        assert_eq!(accounts.id_of(&json!({"id": 5})), Ok("5".to_owned()));
    }
}
