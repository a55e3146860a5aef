//! The filter properties of the platform modules' collections (spec 2.1), and what the pushed
//! record carries in their place.
//!
//! Filter properties are query fields of a collection (`GET /api/accounts?$filter=email eq
//! '…'`), not fields of the record the platform pushes to a synchronization: the pushed account
//! has `corpEmail` where its collection filters by `email`. The platform client checks `$filter`
//! against these tables; the linter uses them to tell a template that reads a filter property
//! as a record field which field the pushed record has instead.

use std::fmt;

use super::modules::{self, collection_of};

/// The type labels of spec part 2; they decide which literals a property accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PropertyType {
    /// `int`: whole numbers only.
    Int,
    /// `numeric`: whole or decimal numbers.
    Numeric,
    /// `string`: quoted text.
    String,
    /// `boolean`: `true` or `false`.
    Boolean,
    /// `date`: a `datetime'…'` literal (the time part is optional).
    Date,
    /// `dateTime`: a `datetime'…'` literal.
    DateTime,
    /// `Guid`: a GUID literal.
    Guid,
}

impl PropertyType {
    /// The label the spec uses, for messages.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Int => "int",
            Self::Numeric => "numeric",
            Self::String => "string",
            Self::Boolean => "boolean",
            Self::Date => "date",
            Self::DateTime => "dateTime",
            Self::Guid => "Guid",
        }
    }
}

impl fmt::Display for PropertyType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A filterable property and its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Property {
    /// Name as written in `$filter`.
    pub name: &'static str,
    /// Its type label.
    pub ty: PropertyType,
}

impl Property {
    /// A property (used by the `const` tables).
    #[must_use]
    pub const fn new(name: &'static str, ty: PropertyType) -> Self {
        Self { name, ty }
    }
}

/// An `int` property, for the tables (here and in the platform client's catalog).
#[must_use]
pub const fn int(name: &'static str) -> Property {
    Property::new(name, PropertyType::Int)
}
/// A `numeric` property.
#[must_use]
pub const fn num(name: &'static str) -> Property {
    Property::new(name, PropertyType::Numeric)
}
/// A `string` property.
#[must_use]
pub const fn text(name: &'static str) -> Property {
    Property::new(name, PropertyType::String)
}
/// A `boolean` property.
#[must_use]
pub const fn boolean(name: &'static str) -> Property {
    Property::new(name, PropertyType::Boolean)
}
/// A `date` property.
#[must_use]
pub const fn date(name: &'static str) -> Property {
    Property::new(name, PropertyType::Date)
}
/// A `dateTime` property.
#[must_use]
pub const fn datetime(name: &'static str) -> Property {
    Property::new(name, PropertyType::DateTime)
}
/// A `Guid` property.
#[must_use]
pub const fn guid(name: &'static str) -> Property {
    Property::new(name, PropertyType::Guid)
}

/// A filter property the pushed record does not carry under its own name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilterOnly {
    /// The filter property (`email`).
    pub filter: &'static str,
    /// The field of the pushed record that holds the same value, as a dotted path
    /// (`corpEmail`, `type.id`), when the vendor's object shows one.
    pub field: Option<&'static str>,
}

const fn renamed(filter: &'static str, field: &'static str) -> FilterOnly {
    FilterOnly {
        filter,
        field: Some(field),
    }
}

const fn absent(filter: &'static str) -> FilterOnly {
    FilterOnly {
        filter,
        field: None,
    }
}

/// One module's collection: its filter properties and how they relate to the pushed record.
/// The module's name, record definition and collection come from [`super::modules`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModuleFilters {
    /// The module (`Accounts`).
    pub module: &'static str,
    /// The record definition of the pushed record in the record schema (`Account`).
    pub record: &'static str,
    /// The collection path (`/api/accounts`).
    pub collection: &'static str,
    /// The filter properties of spec 2.1, in the spec's order.
    pub properties: &'static [Property],
    /// Whether the vendor documents the object the platform pushes for this module. When it
    /// does not, the record schema assumes the pushed record carries every filter property
    /// under its name, with its type (docs/platform-records.md).
    pub documented: bool,
    /// The filter properties the documented pushed record lacks (empty when not documented).
    pub filter_only: &'static [FilterOnly],
}

impl ModuleFilters {
    /// The filter property called `name` (exact, case-sensitive, as the platform is).
    #[must_use]
    pub fn property(&self, name: &str) -> Option<&'static Property> {
        self.properties.iter().find(|p| p.name == name)
    }

    /// What the pushed record has in place of filter property `name`, when it lacks it.
    #[must_use]
    pub fn filter_only(&self, name: &str) -> Option<&'static FilterOnly> {
        self.filter_only.iter().find(|f| f.filter == name)
    }
}

/// The module whose pushed record follows record definition `record` (`Account`).
#[must_use]
pub fn of_record(record: &str) -> Option<&'static ModuleFilters> {
    MODULES.iter().find(|m| m.record == record)
}

/// Every module with a collection in spec 2.1 (cases have none).
pub const MODULES: &[ModuleFilters] = &[
    ACCOUNTS,
    CONTACTS,
    ORDERS,
    INVOICES,
    PRODUCTS,
    PAYMENTS,
    SUBSCRIPTIONS,
];

/// `GET /api/accounts`. The pushed account is the vendor's Account object
/// (docs/platform-records.md); the names it lacks map to its fields where the object shows
/// the same value (`typeId` is the id of its `type`).
#[rustfmt::skip]
pub const ACCOUNTS: ModuleFilters = ModuleFilters {
    module: modules::ACCOUNTS.name,
    record: modules::ACCOUNTS.record,
    collection: collection_of(&modules::ACCOUNTS),
    properties: &[
        int("id"), text("name"), text("code"), text("phone"), text("fax"), text("website"),
        text("email"), text("folder"), boolean("orderingEnabled"), num("billToAccountId"),
        text("billToAccountName"), boolean("separateInvoices"), boolean("isBackOrdering"),
        boolean("isNetworkReseller"), text("currency"), text("transactionCurrency"),
        boolean("taxable"), num("creditLimit"), text("paymentMethod"),
        text("registrationNumber"), boolean("autoInvoiceNotification"),
        boolean("resellingEnabled"), num("typeId"), num("industryId"), num("leadSourceId"),
        text("tradingName"), text("businessActivity"), num("taxAuthorityId"), text("noteType"),
        date("createdAt"), date("updatedAt"),
    ],
    documented: true,
    filter_only: &[
        renamed("website", "webSite"),
        renamed("email", "corpEmail"),
        absent("folder"),
        renamed("orderingEnabled", "enableOrdering"),
        absent("billToAccountId"),
        absent("billToAccountName"),
        renamed("separateInvoices", "separateInvoicesEnabled"),
        absent("isBackOrdering"),
        absent("isNetworkReseller"),
        renamed("taxable", "isTaxable"),
        renamed("creditLimit", "creditLimitAmount"),
        absent("registrationNumber"),
        renamed("autoInvoiceNotification", "autoInvoiceNotificationEnabled"),
        renamed("resellingEnabled", "enableReselling"),
        renamed("typeId", "type.id"),
        renamed("industryId", "industry.id"),
        renamed("leadSourceId", "source.id"),
        absent("tradingName"),
        absent("businessActivity"),
        absent("taxAuthorityId"),
    ],
};

/// `GET /api/contacts`.
#[rustfmt::skip]
pub const CONTACTS: ModuleFilters = ModuleFilters {
    module: modules::CONTACTS.name,
    record: modules::CONTACTS.record,
    collection: collection_of(&modules::CONTACTS),
    properties: &[
        int("id"), text("firstName"), text("lastName"), text("email"), text("accountName"),
        num("accountId"), boolean("storefrontUserEnabled"), boolean("billToContact"),
        boolean("primaryContact"), date("createdAt"), date("updatedAt"),
    ],
    documented: false,
    filter_only: &[],
};

/// `GET /api/orders`.
#[rustfmt::skip]
pub const ORDERS: ModuleFilters = ModuleFilters {
    module: modules::ORDERS.name,
    record: modules::ORDERS.record,
    collection: collection_of(&modules::ORDERS),
    properties: &[
        guid("id"), text("code"), text("name"), text("status"), num("accountId"),
        text("accountName"), num("billingToId"), text("billingToName"), text("paymentMethod"),
        date("createdAt"), date("updatedAt"),
    ],
    documented: false,
    filter_only: &[],
};

/// `GET /api/invoices`.
#[rustfmt::skip]
pub const INVOICES: ModuleFilters = ModuleFilters {
    module: modules::INVOICES.name,
    record: modules::INVOICES.record,
    collection: collection_of(&modules::INVOICES),
    properties: &[
        guid("id"), text("code"), text("status"), date("invoiceDate"), date("dueDate"),
        num("billingToId"), text("billingToName"), text("paymentMethod"),
        text("transactionCurrency"), date("createdAt"), date("updatedAt"),
    ],
    documented: false,
    filter_only: &[],
};

/// `GET /api/products`.
#[rustfmt::skip]
pub const PRODUCTS: ModuleFilters = ModuleFilters {
    module: modules::PRODUCTS.name,
    record: modules::PRODUCTS.record,
    collection: collection_of(&modules::PRODUCTS),
    properties: &[
        guid("id"), text("code"), text("name"), boolean("isActive"), boolean("isDeleted"),
        boolean("isAddon"), text("category"), text("industry"), text("productType"),
        text("productTypeId"), boolean("isStorefrontPublished"), date("createdAt"),
        date("updatedAt"),
    ],
    documented: false,
    filter_only: &[],
};

/// `GET /api/payments`.
#[rustfmt::skip]
pub const PAYMENTS: ModuleFilters = ModuleFilters {
    module: modules::PAYMENTS.name,
    record: modules::PAYMENTS.record,
    collection: collection_of(&modules::PAYMENTS),
    properties: &[
        guid("id"), text("status"), date("paymentDate"), num("accountId"), text("accountName"),
        guid("paymentMethodId"), text("paymentMethodName"), text("paymentMethodType"),
        text("currency"), text("transactionCurrency"), date("createdAt"), date("updatedAt"),
    ],
    documented: false,
    filter_only: &[],
};

/// `GET /api/subscriptions`: the bundle child subscription properties without
/// `bundleSubscriptionId`, plus `isTrial`, `isBundle` and `subscriptionAmount`.
#[rustfmt::skip]
pub const SUBSCRIPTIONS: ModuleFilters = ModuleFilters {
    module: modules::SUBSCRIPTIONS.name,
    record: modules::SUBSCRIPTIONS.record,
    collection: collection_of(&modules::SUBSCRIPTIONS),
    properties: &[
        guid("id"), text("name"), num("typeId"), text("typeName"), text("currency"),
        text("orderId"), text("orderCode"), num("accountId"), text("accountName"),
        num("billingToId"), text("billingToName"), num("billToContactId"),
        text("billToContactFirstName"), text("billToContactLastName"), date("startDate"),
        date("endDate"), date("activationDate"), boolean("automaticRenewal"),
        boolean("isBackordering"), text("productId"), text("productName"), text("productCode"),
        num("quantity"), date("createdAt"), date("updatedAt"), boolean("isTrial"),
        boolean("isBundle"), num("subscriptionAmount"),
    ],
    documented: false,
    filter_only: &[],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_only_names_are_filter_properties_of_their_collection() {
        for module in MODULES {
            for f in module.filter_only {
                assert!(
                    module.property(f.filter).is_some(),
                    "{}: {}",
                    module.module,
                    f.filter
                );
            }
            assert!(
                module.documented || module.filter_only.is_empty(),
                "{}",
                module.module
            );
        }
        assert_eq!(of_record("Account").map(|m| m.module), Some("Accounts"));
        assert_eq!(
            ACCOUNTS.filter_only("email").and_then(|f| f.field),
            Some("corpEmail")
        );
        assert_eq!(ACCOUNTS.filter_only("corpEmail"), None);
    }
}
