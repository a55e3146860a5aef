//! The platform's modules as synchronization definitions see them.
//!
//! Sources: the spec (part 2.6: `module` values such as `Accounts` and `Invoices`, template
//! roots `$.account` and `$.invoice`) and the vendor's list of entities the integration
//! framework synchronizes (Account, Contact, Order, Invoice, Product, Payment, Case,
//! Subscription). The spec shows roots for accounts and invoices only; the other roots follow
//! the same rule (the module's singular, lower camel case). Child collections are the records a
//! module owns that an `ApiSynchronization` action may push with it: invoice items
//! (spec 4.3 `GET /api/invoices/{invoiceId}/items`) and order items (`/api/orders/{orderId}/items`).

/// A platform module a synchronization entry can be attached to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Module {
    /// The value of `module` (`Accounts`).
    pub name: &'static str,
    /// The JSONPath root under which templates read the record (`account` for `$.account`).
    pub root: &'static str,
    /// Child collections an `ApiSynchronization` action may name.
    pub children: &'static [&'static str],
}

/// Every module, in the order the docs list them.
pub const MODULES: &[Module] = &[
    Module {
        name: "Accounts",
        root: "account",
        children: &[],
    },
    Module {
        name: "Contacts",
        root: "contact",
        children: &[],
    },
    Module {
        name: "Orders",
        root: "order",
        children: &["OrderItems"],
    },
    Module {
        name: "Invoices",
        root: "invoice",
        children: &["InvoiceItems"],
    },
    Module {
        name: "Products",
        root: "product",
        children: &[],
    },
    Module {
        name: "Payments",
        root: "payment",
        children: &[],
    },
    Module {
        name: "Cases",
        root: "case",
        children: &[],
    },
    Module {
        name: "Subscriptions",
        root: "subscription",
        children: &[],
    },
];

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

/// A Markdown table of the modules, for the generated docs.
#[must_use]
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| `module` | template root | child collections (`ApiSynchronization`) |\n|---|---|---|\n",
    );
    for m in MODULES {
        let children = if m.children.is_empty() {
            "none".to_owned()
        } else {
            m.children
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str(&format!(
            "| `{}` | `$.{}` | {} |\n",
            m.name, m.root, children
        ));
    }
    out
}
