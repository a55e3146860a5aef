//! The platform modules a synchronization entry can be attached to, as data: one row per
//! module with everything the linter, the engine and the worker need to know about it.
//!
//! Sources: the spec (part 2.1: collections, id types and `updatedAt`; part 2.6: `module`
//! values such as `Accounts` and `Invoices`, template roots `$.account` and `$.invoice`, the
//! placeholder `{Account.IntegrationId}`; parts 4.3 and 4.4: single-record and child-collection
//! routes) and the vendor's list of entities the integration framework synchronizes (Account,
//! Contact, Order, Invoice, Product, Payment, Case, Subscription). What the spec does not show
//! is marked *assumed* on the field or row that assumes it, and in docs/platform-records.md.
//!
//! The table is the only place these facts are written: rules, dry-runs, `transform` and the
//! sync loop read them from here.

/// The type of a module's record ids (spec 2.1, the `id` property of its collection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdType {
    /// `id int`: a whole number.
    Integer,
    /// `id Guid`.
    Guid,
}

impl IdType {
    /// What an id of this type looks like, for messages (`an integer`).
    #[must_use]
    pub fn expected(self) -> &'static str {
        match self {
            IdType::Integer => "an integer",
            IdType::Guid => "a GUID",
        }
    }
}

/// Where a module's records are read on the platform (spec 2.1 and 4.3 to 4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Routes {
    /// The collection that lists the records (`/api/accounts`).
    pub collection: &'static str,
    /// The single-record read (`/api/accounts/{accountId}`); its one placeholder is the id.
    pub record: &'static str,
    /// The type of the ids the record route takes.
    pub id_type: IdType,
}

impl Routes {
    /// The single-record route with `id` in place of its placeholder. `id` is inserted as
    /// given: callers pass an id already checked against [`Routes::id_type`], whose
    /// characters (digits, hex digits and dashes) need no escaping.
    #[must_use]
    pub fn record_path(&self, id: &str) -> String {
        fill(self.record, id)
    }
}

/// A collection a module's record owns, read with the record and synchronized with it by an
/// `ApiSynchronization` action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildCollection {
    /// The name an `ApiSynchronization` action gives it (`InvoiceItems`).
    pub name: &'static str,
    /// The route that lists it (`/api/invoices/{invoiceId}/items`); its one placeholder is
    /// the owning record's id.
    pub route: &'static str,
    /// The record field templates read it under (`items`, for `$.invoice.items`).
    pub field: &'static str,
}

impl ChildCollection {
    /// The child collection's route for the record `id` (see [`Routes::record_path`] on
    /// escaping).
    #[must_use]
    pub fn path(&self, id: &str) -> String {
        fill(self.route, id)
    }
}

/// A record of another module that a module's record names (an invoice's account).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelatedRecord {
    /// The related record's module (`Accounts`).
    pub module: &'static str,
    /// JSON pointers into the record where the related record's platform id may be, most
    /// specific first.
    pub id_pointers: &'static [&'static str],
    /// The placeholder the spec writes for the related record's external id in an `ApiPath`
    /// action (`{Account.IntegrationId}`, spec 2.6). In a definition the prefix is the key
    /// of the entry that synchronizes the related module.
    pub placeholder: &'static str,
}

/// A list the platform shows beside a module's record, read with the record for its templates
/// but never pushed on its own: a product's price lists. Unlike a [`ChildCollection`], no
/// `ApiSynchronization` action names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttachedList {
    /// The record field templates read it under (`pricelists`, for `$.product.pricelists`).
    pub field: &'static str,
    /// The route that lists it (`/api/products/{productId}/pricelists`); its one placeholder
    /// is the record's id.
    pub route: &'static str,
    /// What is read into each of its elements, if anything.
    pub each: Option<ElementRows>,
}

impl AttachedList {
    /// The list's route for the record `id` (see [`Routes::record_path`] on escaping).
    #[must_use]
    pub fn path(&self, id: &str) -> String {
        fill(self.route, id)
    }
}

/// The rows of a collection that concern the record, read into each element of an
/// [`AttachedList`]: the items of each of a product's price lists that price the product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementRows {
    /// The collection (`/api/pricelists/{pricelistId}/items`); its one placeholder is the
    /// element's `id`.
    pub collection: &'static str,
    /// The type of the elements' ids.
    pub element_id: IdType,
    /// The property of the collection's rows that names the record (`productId`): only rows
    /// where it equals the record's id are read.
    pub record_property: &'static str,
    /// The element field the rows are read into (`items`).
    pub field: &'static str,
}

/// A platform module a synchronization entry can be attached to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Module {
    /// The value of `module` (`Accounts`).
    pub name: &'static str,
    /// The JSONPath root under which templates read the record (`account` for `$.account`).
    pub root: &'static str,
    /// The record definition of the pushed record in the record schema (`Account`).
    pub record: &'static str,
    /// Where the records are read; `None` when the spec shows no collection (cases).
    pub routes: Option<Routes>,
    /// Child collections an `ApiSynchronization` action may name.
    pub children: &'static [ChildCollection],
    /// Lists read with the record that no entry pushes (a product's price lists).
    pub attached: &'static [AttachedList],
    /// Records of other modules this module's record names.
    pub related: &'static [RelatedRecord],
    /// The field whose change finds changed records (`updatedAt`, a 2.1 filter property of
    /// every collection); `None` when there is no collection to filter.
    pub change_cursor: Option<&'static str>,
    /// The boolean field that marks a record deleted while the platform still lists it
    /// (`isDeleted`, spec 2.1, products); `None` when the spec shows none.
    pub deletion_marker: Option<&'static str>,
    /// Whether the platform API creates (POST to the collection) and patches (PATCH of the
    /// single record, spec 4.5) this module's records: spec 4.3 shows both for accounts and
    /// products only, so only their records can be pulled onto the platform.
    pub writable: bool,
    /// For a module of lines (`InvoiceItems`): the module whose child collection of this name
    /// holds them. Lines are not listed on their own: each is pushed within its parent's push
    /// (an `ApiSynchronization` post-action naming the collection), and its templates read
    /// the parent record under the parent's root beside the line under its own.
    pub parent: Option<&'static str>,
}

impl Module {
    /// The module whose lines this module's records are, for a module of lines.
    #[must_use]
    pub fn parent_module(&self) -> Option<&'static Module> {
        self.parent.and_then(module)
    }

    /// The child collection of the parent that holds this module's records, for a module of
    /// lines.
    #[must_use]
    pub fn line_collection(&self) -> Option<&'static ChildCollection> {
        self.parent_module()?
            .children
            .iter()
            .find(|c| c.name == self.name)
    }

    /// The record roots this module's templates read: its own, then its parent's for lines.
    pub fn record_roots(&self) -> impl Iterator<Item = &'static str> + use<> {
        std::iter::once(self.root).chain(self.parent_module().map(|p| p.root))
    }

    /// The names of the child collections, in table order.
    pub fn child_names(&self) -> impl Iterator<Item = &'static str> {
        self.children.iter().map(|c| c.name)
    }

    /// What this module's record names of module `target`, if the table knows it.
    #[must_use]
    pub fn related(&self, target: &str) -> Option<&'static RelatedRecord> {
        self.related.iter().find(|r| r.module == target)
    }
}

/// The field every collection of spec 2.1 has that says when a record last changed: the
/// change cursor of every module with a collection.
pub const CHANGE_CURSOR: &str = "updatedAt";

const UPDATED_AT: Option<&str> = Some(CHANGE_CURSOR);

/// The placeholder of a record's account's external id (spec 2.6).
const ACCOUNT_PLACEHOLDER: &str = "{Account.IntegrationId}";

/// The account of an invoice or an order: its own account first (`account.id`, `accountId`),
/// the bill-to account when only that is given (`billingToId`, `billingAccount.id`).
const ACCOUNT_OR_BILL_TO: RelatedRecord = RelatedRecord {
    module: "Accounts",
    id_pointers: &[
        "/account/id",
        "/accountId",
        "/billingToId",
        "/billingAccount/id",
    ],
    placeholder: ACCOUNT_PLACEHOLDER,
};

/// The account of a record that names it by `accountId` (2.1), or by a nested `account`
/// (assumed, as on invoices).
const ACCOUNT_BY_ID: RelatedRecord = RelatedRecord {
    module: "Accounts",
    id_pointers: &["/account/id", "/accountId"],
    placeholder: ACCOUNT_PLACEHOLDER,
};

/// `Accounts`: `GET /api/accounts`, integer ids.
pub const ACCOUNTS: Module = Module {
    name: "Accounts",
    root: "account",
    record: "Account",
    routes: Some(Routes {
        collection: "/api/accounts",
        record: "/api/accounts/{accountId}",
        id_type: IdType::Integer,
    }),
    children: &[],
    attached: &[],
    related: &[],
    change_cursor: UPDATED_AT,
    deletion_marker: None,
    writable: true,
    parent: None,
};

/// `Contacts`: `GET /api/contacts`, integer ids. The single-record route is assumed: spec 4.4
/// gives `/{id}` to the collections of 2.1, and 4.3 lists no contact route beyond the list. A
/// contact belongs to an account (2.1 `accountId`; the nested `account` is assumed, as on
/// invoices).
pub const CONTACTS: Module = Module {
    name: "Contacts",
    root: "contact",
    record: "Contact",
    routes: Some(Routes {
        collection: "/api/contacts",
        record: "/api/contacts/{contactId}",
        id_type: IdType::Integer,
    }),
    children: &[],
    attached: &[],
    related: &[ACCOUNT_BY_ID],
    change_cursor: UPDATED_AT,
    deletion_marker: None,
    writable: false,
    parent: None,
};

/// `Orders`: `GET /api/orders`, GUID ids, with their items (`/api/orders/{orderId}/items`).
/// Assumed: the single-record route (spec 4.4's `/{id}` on a 2.1 collection; 4.3 does not
/// list it) and the items' field on the record (`items`, as on invoices). An order names its
/// account and bill-to account (2.1 `accountId`, `billingToId`), read as on invoices.
pub const ORDERS: Module = Module {
    name: "Orders",
    root: "order",
    record: "Order",
    routes: Some(Routes {
        collection: "/api/orders",
        record: "/api/orders/{orderId}",
        id_type: IdType::Guid,
    }),
    children: &[ChildCollection {
        name: "OrderItems",
        route: "/api/orders/{orderId}/items",
        field: "items",
    }],
    attached: &[],
    related: &[ACCOUNT_OR_BILL_TO],
    change_cursor: UPDATED_AT,
    deletion_marker: None,
    writable: false,
    parent: None,
};

/// `Invoices`: `GET /api/invoices`, GUID ids, with their items (`/api/invoices/{invoiceId}/items`)
/// read into `items`, where the catalog's templates loop. The single-record route is assumed
/// (spec 4.4's `/{id}` on a 2.1 collection; 4.3 does not list it). An invoice names its account
/// (spec 2.6 rule 5, `account`); the flat `accountId` and the bill-to fields are assumed to
/// carry the same ids as the 2.1 filter properties of the same names.
pub const INVOICES: Module = Module {
    name: "Invoices",
    root: "invoice",
    record: "Invoice",
    routes: Some(Routes {
        collection: "/api/invoices",
        record: "/api/invoices/{invoiceId}",
        id_type: IdType::Guid,
    }),
    children: &[ChildCollection {
        name: "InvoiceItems",
        route: "/api/invoices/{invoiceId}/items",
        field: "items",
    }],
    attached: &[],
    related: &[ACCOUNT_OR_BILL_TO],
    change_cursor: UPDATED_AT,
    deletion_marker: None,
    writable: false,
    parent: None,
};

/// `Products`: `GET /api/products`, GUID ids; a deleted product stays listed with
/// `isDeleted` (spec 2.1). A product carries no price of its own: it is read with its price
/// lists ([`PRODUCT_PRICE_LISTS`]).
pub const PRODUCTS: Module = Module {
    name: "Products",
    root: "product",
    record: "Product",
    routes: Some(Routes {
        collection: "/api/products",
        record: "/api/products/{productId}",
        id_type: IdType::Guid,
    }),
    children: &[],
    attached: &[PRODUCT_PRICE_LISTS],
    related: &[],
    change_cursor: UPDATED_AT,
    deletion_marker: Some("isDeleted"),
    writable: true,
    parent: None,
};

/// A product's price lists (spec 4.3 `GET /api/products/{productId}/pricelists`: those whose
/// active units match the product's), each with the items of the list that price the product
/// (`GET /api/pricelists/{pricelistId}/items`, filtered by `productId`: amount, unit, pricing
/// method, price group). Assumed, as the spec does not show it: the product's price-list
/// answer has the fields of `GET /api/pricelists` (`id`, `name`, `isActive`, `currency`, ...).
pub const PRODUCT_PRICE_LISTS: AttachedList = AttachedList {
    field: "pricelists",
    route: "/api/products/{productId}/pricelists",
    each: Some(ElementRows {
        collection: "/api/pricelists/{pricelistId}/items",
        element_id: IdType::Integer,
        record_property: "productId",
        field: "items",
    }),
};

/// `Payments`: `GET /api/payments`, GUID ids. A payment is an account's (2.1 `accountId`; the
/// nested `account` is assumed, as on invoices).
pub const PAYMENTS: Module = Module {
    name: "Payments",
    root: "payment",
    record: "Payment",
    routes: Some(Routes {
        collection: "/api/payments",
        record: "/api/payments/{paymentId}",
        id_type: IdType::Guid,
    }),
    children: &[],
    attached: &[],
    related: &[ACCOUNT_BY_ID],
    change_cursor: UPDATED_AT,
    deletion_marker: None,
    writable: false,
    parent: None,
};

/// `Cases`: a module of the vendor's list with no collection in the spec, so no route, id
/// type or cursor. Its root (`case`) is assumed, by the rule the spec's roots follow (the
/// module's singular, lower camel case).
pub const CASES: Module = Module {
    name: "Cases",
    root: "case",
    record: "Case",
    routes: None,
    children: &[],
    attached: &[],
    related: &[],
    change_cursor: None,
    deletion_marker: None,
    writable: false,
    parent: None,
};

/// `Subscriptions`: `GET /api/subscriptions`, GUID ids.
pub const SUBSCRIPTIONS: Module = Module {
    name: "Subscriptions",
    root: "subscription",
    record: "Subscription",
    routes: Some(Routes {
        collection: "/api/subscriptions",
        record: "/api/subscriptions/{subscriptionId}",
        id_type: IdType::Guid,
    }),
    children: &[],
    attached: &[],
    related: &[ACCOUNT_OR_BILL_TO],
    change_cursor: UPDATED_AT,
    deletion_marker: None,
    writable: false,
    parent: None,
};

/// `InvoiceItems`: an invoice's lines (`/api/invoices/{invoiceId}/items`, read with the
/// invoice into `items`), pushed one request each where the external system takes an
/// invoice's lines one at a time (Stripe's invoice items). A line is known by its invoice's
/// id and its own `id`.
pub const INVOICE_ITEMS: Module = lines("InvoiceItems", "invoiceItem", "InvoiceItem", "Invoices");

/// `OrderItems`: an order's lines (`/api/orders/{orderId}/items`, read with the order into
/// `items`), pushed as invoice items are.
pub const ORDER_ITEMS: Module = lines("OrderItems", "orderItem", "OrderItem", "Orders");

/// A module of lines: the records of `parent`'s child collection `name`, read under `root`.
const fn lines(
    name: &'static str,
    root: &'static str,
    record: &'static str,
    parent: &'static str,
) -> Module {
    Module {
        name,
        root,
        record,
        routes: None,
        children: &[],
        attached: &[],
        related: &[],
        change_cursor: None,
        deletion_marker: None,
        writable: false,
        parent: Some(parent),
    }
}

/// Every module, in the order the docs list them; modules of lines last.
pub const MODULES: &[Module] = &[
    ACCOUNTS,
    CONTACTS,
    ORDERS,
    INVOICES,
    PRODUCTS,
    PAYMENTS,
    CASES,
    SUBSCRIPTIONS,
    INVOICE_ITEMS,
    ORDER_ITEMS,
];

/// The module of lines whose records are the child collection `child` (`InvoiceItems`).
#[must_use]
pub fn lines_module(child: &str) -> Option<&'static Module> {
    module(child).filter(|m| m.parent.is_some())
}

/// JSONPath roots every template may read, whatever its module. What `$.syncTokens` and
/// `$.related` may hold is checked by SD407.
pub const COMMON_ROOTS: &[&str] = &[
    "serverVariables",
    "externalId",
    "syncToken",
    "syncTokens",
    "related",
];

/// The module named `name` (exact spelling: the platform matches names exactly).
#[must_use]
pub fn module(name: &str) -> Option<&'static Module> {
    MODULES.iter().find(|m| m.name == name)
}

/// The module whose record root is `root`.
#[must_use]
pub fn module_by_root(root: &str) -> Option<&'static Module> {
    MODULES.iter().find(|m| m.root == root)
}

/// The collection path of a module that has one, for the `const` tables built on this one
/// (the filter properties). Evaluated at compile time, so a module without routes named
/// there fails the build.
///
/// # Panics
/// When `module` has no routes; in a `const` table that is a compile error, not a panic at
/// run time.
#[must_use]
pub const fn collection_of(module: &Module) -> &'static str {
    match module.routes {
        Some(routes) => routes.collection,
        None => panic!("the module has no collection"),
    }
}

/// `route` with its one `{placeholder}` replaced by `id`.
fn fill(route: &str, id: &str) -> String {
    match (route.find('{'), route.find('}')) {
        (Some(open), Some(close)) if open < close => {
            format!("{}{id}{}", &route[..open], &route[close + 1..])
        }
        _ => route.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Two modules sharing a name, root, record, route or child collection would make lookups
    /// by any of them ambiguous.
    #[test]
    fn no_two_modules_share_a_name_root_or_collection() {
        let mut seen = HashSet::new();
        for m in MODULES {
            assert!(seen.insert(("name", m.name)), "name {}", m.name);
            assert!(seen.insert(("root", m.root)), "root {}", m.root);
            assert!(seen.insert(("record", m.record)), "record {}", m.record);
            if let Some(r) = m.routes {
                assert!(seen.insert(("route", r.collection)), "{}", r.collection);
                assert!(seen.insert(("route", r.record)), "{}", r.record);
            }
            for c in m.children {
                assert!(seen.insert(("child", c.name)), "child {}", c.name);
                assert!(seen.insert(("route", c.route)), "{}", c.route);
            }
            // An attached list's field beside a child collection's would hide one of them.
            for a in m.attached {
                assert!(seen.insert(("route", a.route)), "{}", a.route);
                assert!(
                    m.children.iter().all(|c| c.field != a.field),
                    "{}: field {}",
                    m.name,
                    a.field
                );
            }
        }
    }

    #[test]
    fn routes_and_related_records_are_consistent() {
        for m in MODULES {
            if let Some(r) = m.routes {
                assert!(
                    r.record.starts_with(&format!("{}/{{", r.collection)),
                    "{}",
                    m.name
                );
                assert_eq!(m.change_cursor, Some("updatedAt"), "{}", m.name);
                for c in m.children {
                    assert!(c.route.starts_with(r.collection), "{}", c.name);
                }
                for a in m.attached {
                    assert!(a.route.starts_with(r.record), "{}", a.field);
                }
            }
            for rel in m.related {
                assert!(module(rel.module).is_some(), "{}: {}", m.name, rel.module);
            }
        }
        for m in MODULES.iter().filter(|m| m.parent.is_some()) {
            assert!(m.line_collection().is_some(), "{}: no such child", m.name);
        }
        assert_eq!(module("Invoices"), Some(&INVOICES));
        assert_eq!(module_by_root("account"), Some(&ACCOUNTS));
        assert_eq!(module("invoices"), None);
    }

    #[test]
    fn routes_take_the_id() {
        let routes = INVOICES.routes.expect("invoices have routes");
        assert_eq!(routes.record_path("abc"), "/api/invoices/abc");
        assert_eq!(INVOICES.children[0].path("abc"), "/api/invoices/abc/items");
        assert_eq!(collection_of(&ACCOUNTS), "/api/accounts");
    }
}
