//! A vendor's address read from the record's billing address: the record's `addresses`, the one
//! picked by `[?(@.isBilling==true)]` (spec 2.6 rule 3), each of its fields by the names vendors
//! give it (`Line1`, `addressLine1`, `postal_code`, ...), as the catalog's definitions read it.

use crate::platform::{self, Property};

/// Vendors' names of each billing address field, lower case without separators, and the
/// record's field.
const FIELDS: &[(&[&str], &str)] = &[
    (
        &[
            "line1",
            "address1",
            "addressline1",
            "street",
            "street1",
            "streetaddress",
        ],
        "address1",
    ),
    (
        &["line2", "address2", "addressline2", "street2"],
        "address2",
    ),
    (&["city", "town", "locality"], "city"),
    (&["postcode", "postalcode", "zip", "zipcode"], "postCode"),
    (
        &["region", "state", "province", "countrysubdivisioncode"],
        "region",
    ),
    (&["country", "countryname"], "countryName"),
    (
        &["countrycode", "countryiso", "countryisocode"],
        "countryCode",
    ),
];

/// Fields one of which makes a group of properties an address (a `state` and a `country`
/// alone may be a tax jurisdiction's).
const STREET_OR_CITY: &[&str] = &["address1", "city", "postCode"];

/// The record's billing address, where the record has addresses.
#[derive(Clone, Debug)]
pub(super) struct BillingAddress {
    /// The JSONPath that picks it (`$.account.addresses[?(@.isBilling==true)]`).
    path: String,
    /// The record's address fields of [`FIELDS`] its schema declares.
    declared: Vec<&'static str>,
}

impl BillingAddress {
    /// The billing address of the record under `root`, when its schema has `addresses`.
    pub fn of(root: &str) -> Option<Self> {
        let record = platform::builtin().record(root)?;
        let Property::Known(addresses) = record.property("addresses") else {
            return None;
        };
        let item = addresses.items()?;
        let declared: Vec<&'static str> = FIELDS
            .iter()
            .map(|(_, field)| *field)
            .filter(|field| matches!(item.property(field), Property::Known(_)))
            .collect();
        if !matches!(item.property("isBilling"), Property::Known(_)) || declared.is_empty() {
            return None;
        }
        Some(BillingAddress {
            path: format!("$.{root}.addresses[?(@.isBilling==true)]"),
            declared,
        })
    }

    /// The address field a vendor's text property `name` stands for.
    pub fn field(&self, name: &str) -> Option<&'static str> {
        let key = super::name_key(name);
        let (_, field) = FIELDS
            .iter()
            .find(|(names, _)| names.contains(&key.as_str()))?;
        self.declared.contains(field).then_some(*field)
    }

    /// Whether the fields `found` (of one object) make an address.
    pub fn is_address(found: &[&str]) -> bool {
        found.len() >= 2 && found.iter().any(|f| STREET_OR_CITY.contains(f))
    }

    /// The read of `field` of the billing address.
    pub fn read(&self, field: &str) -> String {
        format!("#valueof({}.{field})", self.path)
    }

    /// The `#ifgroup` key that writes its members when the record has a billing address.
    pub fn group(&self) -> String {
        format!("#ifgroup(#exists({}))", self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::BillingAddress;

    #[test]
    fn an_account_s_billing_address_by_the_names_vendors_give_its_fields() {
        let billing = BillingAddress::of("account").expect("accounts have addresses");
        assert_eq!(billing.field("Line1"), Some("address1"));
        assert_eq!(billing.field("addressLine2"), Some("address2"));
        assert_eq!(billing.field("postal_code"), Some("postCode"));
        assert_eq!(billing.field("CountrySubDivisionCode"), Some("region"));
        assert_eq!(billing.field("name"), None);
        // A county is not the region a state is: a description may have both.
        assert_eq!(billing.field("county"), None);
        assert_eq!(
            billing.read("city"),
            "#valueof($.account.addresses[?(@.isBilling==true)].city)"
        );
        assert!(BillingAddress::is_address(&["address1", "city"]));
        assert!(!BillingAddress::is_address(&["region", "countryName"]));
        assert!(!BillingAddress::is_address(&["city"]));
        assert!(BillingAddress::of("contact").is_none());
    }
}
