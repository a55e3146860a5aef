//! The platform record schema (`syncdef_definitions::platform`) agrees with the platform
//! client's tables of spec part 2.1: every filter property of a module's collection is a field
//! of the module's record, with the JSON type its filter type label implies. Both are written
//! from the spec; this keeps them from drifting apart.

use syncdef_definitions::platform::{JsonType, Property, builtin};
use syncdef_platform::collections::{
    ACCOUNTS, CONTACTS, INVOICES, ORDERS, PAYMENTS, PRODUCTS, SUBSCRIPTIONS,
};
use syncdef_platform::query::PropertyType;

#[test]
fn every_filter_property_is_a_record_field_of_its_type() {
    let mut mismatches = Vec::new();
    for (root, collection) in [
        ("account", &ACCOUNTS),
        ("contact", &CONTACTS),
        ("invoice", &INVOICES),
        ("order", &ORDERS),
        ("payment", &PAYMENTS),
        ("product", &PRODUCTS),
        ("subscription", &SUBSCRIPTIONS),
    ] {
        let record = builtin().record(root).expect("a record root");
        for property in collection.properties {
            let expected = match property.ty {
                PropertyType::Int => JsonType::Integer,
                PropertyType::Numeric => JsonType::Number,
                PropertyType::Boolean => JsonType::Boolean,
                PropertyType::String
                | PropertyType::Date
                | PropertyType::DateTime
                | PropertyType::Guid => JsonType::String,
            };
            match record.property(property.name) {
                Property::Known(field) if field.value_type() == Some(expected) => {}
                Property::Known(field) => mismatches.push(format!(
                    "{root}.{}: {:?}, the filter type says {expected:?}",
                    property.name,
                    field.value_type()
                )),
                _ => mismatches.push(format!("{root}.{}: missing", property.name)),
            }
        }
    }
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}
