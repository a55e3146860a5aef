//! The filterable and orderable properties of every collection, from spec tables 2.1 and 2.2.
//!
//! This file is data only: one `static` per collection, in the order of the spec. When the
//! platform documents more properties, add them here and nothing else changes. The modules'
//! collections (accounts, contacts, orders, invoices, products, payments, subscriptions) take
//! their filter properties from `syncdef_definitions::platform::filters`, the tables the
//! record schema's linting shares: edit those there.

use syncdef_definitions::platform::filters::{
    self, ModuleFilters, boolean, date, datetime, guid, int, num, text,
};

use super::collection::{Collection, OrderList, PathParam, Property};

const NO_PARAMS: &[PathParam] = &[];

const fn plain(
    path: &'static str,
    properties: &'static [Property],
    order: OrderList,
) -> Collection {
    Collection {
        path,
        path_params: NO_PARAMS,
        properties,
        order,
    }
}

/// The collection of a module: its filter properties are the record schema's tables.
const fn module(filters: &ModuleFilters, order: OrderList) -> Collection {
    plain(filters.collection, filters.properties, order)
}

// ---- 2.1 Main collections ----

/// `GET /api/accounts`.
pub static ACCOUNTS: Collection = module(
    &filters::ACCOUNTS,
    OrderList::Listed(&["name", "code", "email", "creditLimit", "createdAt", "updatedAt"]),
);

/// `GET /api/assets`.
pub static ASSETS: Collection = plain(
    "/api/assets",
    &[
        guid("id"), text("name"), text("customerName"), num("customerId"),
        text("billingToName"), num("billingToId"), text("status"), text("productName"),
        text("productCode"), text("productId"), boolean("isBackOrdering"), date("createdAt"),
        date("updatedAt"),
    ],
    OrderList::Listed(&[
        "billingToName", "createdAt", "customerName", "name", "productName", "updatedAt",
    ]),
);

/// `GET /api/bundles`.
pub static BUNDLES: Collection = plain(
    "/api/bundles",
    &[
        guid("id"), text("name"), text("code"), text("category"), text("industry"),
        boolean("isActive"), boolean("isDeleted"), boolean("isStorefrontEnabled"),
        datetime("createdAt"), datetime("updatedAt"),
    ],
    OrderList::NotShown,
);

/// `GET /api/bundleChildSubscriptions` (unlabelled properties of the spec are strings).
pub static BUNDLE_CHILD_SUBSCRIPTIONS: Collection = plain(
    "/api/bundleChildSubscriptions",
    &[
        guid("id"), text("name"), num("typeId"), text("typeName"), text("currency"),
        text("orderId"), text("orderCode"), num("accountId"), text("accountName"),
        num("billingToId"), text("billingToName"), num("billToContactId"),
        text("billToContactFirstName"), text("billToContactLastName"), date("startDate"),
        date("endDate"), date("activationDate"), boolean("automaticRenewal"),
        boolean("isBackordering"), text("productId"), text("productName"), text("productCode"),
        num("quantity"), text("bundleSubscriptionId"), date("createdAt"), date("updatedAt"),
    ],
    OrderList::NotShown,
);

/// `GET /api/contacts`. `accountName` is orderable too: the spec's usage examples order by it.
pub static CONTACTS: Collection = module(
    &filters::CONTACTS,
    OrderList::Listed(&["firstName", "lastName", "createdAt", "updatedAt", "accountName"]),
);

/// `GET /api/invoices`.
pub static INVOICES: Collection = module(
    &filters::INVOICES,
    OrderList::Listed(&[
        "code", "status", "billingToName", "invoiceDate", "dueDate", "createdAt", "updatedAt",
    ]),
);

/// `GET /api/payments`.
pub static PAYMENTS: Collection = module(&filters::PAYMENTS, OrderList::NotShown);

/// `GET /api/orders`.
pub static ORDERS: Collection = module(
    &filters::ORDERS,
    OrderList::Listed(&["code", "name", "accountName", "billingToName", "createdAt", "updatedAt"]),
);

/// `GET /api/products`.
pub static PRODUCTS: Collection = module(
    &filters::PRODUCTS,
    OrderList::Listed(&["name", "createdAt", "updatedAt"]),
);

/// `GET /api/pricelists`.
pub static PRICELISTS: Collection = plain(
    "/api/pricelists",
    &[
        int("id"), text("name"), boolean("isActive"), date("from"), date("to"),
        text("currency"), date("createdAt"), date("updatedAt"),
    ],
    OrderList::Listed(&["name", "isActive", "from", "to", "createdAt", "updatedAt"]),
);

/// `GET /api/pricelists/{pricelistId}/items`.
pub static PRICELIST_ITEMS: Collection = Collection {
    path: "/api/pricelists/{pricelistId}/items",
    path_params: &[PathParam::any("pricelistId")],
    properties: &[
        int("id"), text("productId"), text("productName"), text("productCode"), text("unitId"),
        text("unitName"), num("volumeDiscountId"), text("volumeDiscountName"),
        text("priceGroupId"), text("priceGroupName"), text("pricingMethod"), num("amount"),
    ],
    order: OrderList::NotShown,
};

/// `GET /api/pricelists/{pricelistId}/pricegroups/{pricegroupId}` (price group items).
pub static PRICELIST_PRICEGROUP_ITEMS: Collection = Collection {
    path: "/api/pricelists/{pricelistId}/pricegroups/{pricegroupId}",
    path_params: &[PathParam::any("pricelistId"), PathParam::any("pricegroupId")],
    properties: &[
        text("unitId"), text("unitName"), num("volumeDiscountId"), text("volumeDiscountName"),
        text("pricingMethod"), num("amount"),
    ],
    order: OrderList::NotShown,
};

/// `GET /api/leads`.
pub static LEADS: Collection = plain(
    "/api/leads",
    &[
        int("id"), text("firstName"), text("lastName"), text("middleName"),
        text("compellation"), text("company"), text("jobTitle"), text("email"),
        text("currency"), text("title"), num("leadSource"), num("industry"), num("status"),
        num("rating"), num("accountId"), num("contactId"), text("phone"), text("mobilePhone"),
        text("fax"), text("website"), num("annualRevenue"), num("employees"),
        boolean("enableMassEmail"), num("countryId"), num("stateId"), text("city"),
        text("postCode"), boolean("isConverted"), date("createdAt"), date("updatedAt"),
    ],
    OrderList::Listed(&[
        "firstName", "lastName", "email", "annualRevenue", "employees", "createdAt", "updatedAt",
    ]),
);

/// `GET /api/subscriptions`: the bundle child subscription properties without
/// `bundleSubscriptionId`, plus `isTrial`, `isBundle` and `subscriptionAmount`.
pub static SUBSCRIPTIONS: Collection = module(
    &filters::SUBSCRIPTIONS,
    OrderList::Listed(&[
        "name", "startDate", "endDate", "activationDate", "quantity", "subscriptionAmount",
        "createdAt", "updatedAt",
    ]),
);

/// `GET /api/futureactions`.
pub static FUTURE_ACTIONS: Collection = plain(
    "/api/futureactions",
    &[
        guid("id"), text("subscriptionId"), text("addonId"), text("action"),
        date("requestDate"), date("effectiveDate"), date("createdAt"), date("updatedAt"),
    ],
    OrderList::Listed(&["requestDate", "effectiveDate", "createdAt", "updatedAt"]),
);

// ---- 2.2 Organization and system reference collections ----

/// `GET /api/organization/countries`.
pub static ORG_COUNTRIES: Collection = plain(
    "/api/organization/countries",
    &[int("id"), text("name"), text("code")],
    OrderList::Listed(&["name", "code"]),
);

/// `GET /api/organization/languages`.
pub static ORG_LANGUAGES: Collection = plain(
    "/api/organization/languages",
    &[guid("id"), text("code"), boolean("isDefault")],
    OrderList::Listed(&["code"]),
);

/// `GET /api/organization/currencies`.
pub static ORG_CURRENCIES: Collection = plain(
    "/api/organization/currencies",
    &[
        guid("id"), text("name"), text("mnemonic"), text("code"), boolean("isActive"),
        boolean("isDefault"),
    ],
    OrderList::Listed(&["name", "mnemonic", "code"]),
);

/// `GET /api/organization/paymentmethods`.
pub static ORG_PAYMENT_METHODS: Collection = plain(
    "/api/organization/paymentmethods",
    &[
        text("id"), text("name"), text("type"), boolean("isActive"), boolean("isDefault"),
        boolean("isStorefrontUse"), text("gatewayName"),
    ],
    OrderList::Listed(&["name", "gatewayName"]),
);

/// `GET /api/organization/taxes`.
pub static ORG_TAXES: Collection = plain(
    "/api/organization/taxes",
    &[
        int("id"), text("name"), text("displayName"), boolean("isActive"),
        boolean("isExcludedEU"),
    ],
    OrderList::Listed(&["id", "name", "displayName", "isActive", "isExcludedEU"]),
);

/// `GET /api/organization/taxauthorities`.
pub static ORG_TAX_AUTHORITIES: Collection = plain(
    "/api/organization/taxauthorities",
    &[int("id"), text("name"), text("code")],
    OrderList::Listed(&["name", "code"]),
);

/// `GET /api/organization/accounts/types`.
pub static ORG_ACCOUNT_TYPES: Collection = plain(
    "/api/organization/accounts/types",
    &[int("id"), text("name"), boolean("isDefault")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/invoices/statuses`.
pub static ORG_INVOICE_STATUSES: Collection = plain(
    "/api/organization/invoices/statuses",
    &[int("id"), text("name"), text("type")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/invoices/types`.
pub static ORG_INVOICE_TYPES: Collection = plain(
    "/api/organization/invoices/types",
    &[int("id"), text("name"), text("type")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/leads/statuses`.
pub static ORG_LEAD_STATUSES: Collection = plain(
    "/api/organization/leads/statuses",
    &[
        int("id"), text("name"), text("type"), boolean("isActive"), boolean("isDefault"),
    ],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/leads/sources`.
pub static ORG_LEAD_SOURCES: Collection = plain(
    "/api/organization/leads/sources",
    &[int("id"), text("name"), boolean("isActive"), boolean("isDefault")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/leads/ratings`.
pub static ORG_LEAD_RATINGS: Collection = plain(
    "/api/organization/leads/ratings",
    &[int("id"), text("name"), boolean("isDefault")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/titles`.
pub static ORG_TITLES: Collection = plain(
    "/api/organization/titles",
    &[int("id"), text("name"), text("mnemonic")],
    OrderList::Listed(&["name", "mnemonic"]),
);

/// `GET /api/organization/producttypes`.
pub static ORG_PRODUCT_TYPES: Collection = plain(
    "/api/organization/producttypes",
    &[
        guid("id"), text("name"), text("basicTypeName"), text("vendor"), text("assetType"),
    ],
    OrderList::Listed(&["name", "basicTypeName"]),
);

/// `GET /api/organization/unitgroups`.
pub static ORG_UNIT_GROUPS: Collection = plain(
    "/api/organization/unitgroups",
    &[int("id"), text("name")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/volumediscounts`.
pub static ORG_VOLUME_DISCOUNTS: Collection = plain(
    "/api/organization/volumediscounts",
    &[int("id"), text("name"), boolean("isScalable"), boolean("isActive")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/unitsofmeasure`.
pub static ORG_UNITS_OF_MEASURE: Collection = plain(
    "/api/organization/unitsofmeasure",
    &[guid("id"), text("name"), boolean("isActive"), boolean("isDefault")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/pricegroups`.
pub static ORG_PRICE_GROUPS: Collection = plain(
    "/api/organization/pricegroups",
    &[guid("id"), text("name")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/products/industries`.
pub static ORG_PRODUCT_INDUSTRIES: Collection = plain(
    "/api/organization/products/industries",
    &[int("id"), text("name"), boolean("isActive"), boolean("isDefault")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/industries`.
pub static ORG_INDUSTRIES: Collection = plain(
    "/api/organization/industries",
    &[int("id"), text("name"), boolean("isDefault")],
    OrderList::Listed(&["name"]),
);

/// `GET /api/organization/{module}/customfields`.
pub static ORG_CUSTOM_FIELDS: Collection = Collection {
    path: "/api/organization/{module}/customfields",
    path_params: &[PathParam::one_of(
        "module",
        &[
            "accounts", "assets", "contacts", "invoices", "leads", "orders", "pricelists",
            "products", "subscriptions",
        ],
    )],
    properties: &[
        int("id"), text("name"), num("groupId"), text("groupName"), text("type"),
        boolean("isCompulsory"), boolean("isReadOnly"),
    ],
    order: OrderList::Listed(&["name"]),
};

/// `GET /api/system/countries`.
pub static SYSTEM_COUNTRIES: Collection = plain(
    "/api/system/countries",
    &[text("name"), text("code")],
    OrderList::Listed(&["name", "code"]),
);

/// Every collection of spec tables 2.1 and 2.2.
pub static ALL: &[&Collection] = &[
    &ACCOUNTS, &ASSETS, &BUNDLES, &BUNDLE_CHILD_SUBSCRIPTIONS, &CONTACTS, &INVOICES, &PAYMENTS,
    &ORDERS, &PRODUCTS, &PRICELISTS, &PRICELIST_ITEMS, &PRICELIST_PRICEGROUP_ITEMS, &LEADS,
    &SUBSCRIPTIONS, &FUTURE_ACTIONS, &ORG_COUNTRIES, &ORG_LANGUAGES, &ORG_CURRENCIES,
    &ORG_PAYMENT_METHODS, &ORG_TAXES, &ORG_TAX_AUTHORITIES, &ORG_ACCOUNT_TYPES,
    &ORG_INVOICE_STATUSES, &ORG_INVOICE_TYPES, &ORG_LEAD_STATUSES, &ORG_LEAD_SOURCES,
    &ORG_LEAD_RATINGS, &ORG_TITLES, &ORG_PRODUCT_TYPES, &ORG_UNIT_GROUPS, &ORG_VOLUME_DISCOUNTS,
    &ORG_UNITS_OF_MEASURE, &ORG_PRICE_GROUPS, &ORG_PRODUCT_INDUSTRIES, &ORG_INDUSTRIES,
    &ORG_CUSTOM_FIELDS, &SYSTEM_COUNTRIES,
];
