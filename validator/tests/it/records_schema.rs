//! The platform record schema (`syncdef_definitions::platform`) and the filter properties of
//! the modules' collections (`platform::filters`, spec 2.1) agree: a filter property is a field
//! of the pushed record, or the filter table says which field carries it instead (or that none
//! does). Where the vendor does not document the pushed object, the record assumes every filter
//! property with the JSON type its filter type label implies.

use syncdef_definitions::platform::filters::{MODULES, ModuleFilters, PropertyType};
use syncdef_definitions::platform::{FieldSchema, JsonType, Property, builtin};
use syncdef_platform::query::Collection;

fn record(module: &ModuleFilters) -> FieldSchema<'static> {
    let root = builtin()
        .input()
        .property_names()
        .into_iter()
        .find(|root| {
            builtin()
                .record(root)
                .is_some_and(|r| r.definition() == Some(module.record))
        })
        .unwrap_or_else(|| panic!("{}: no record root", module.module));
    builtin().record(root).expect("a record root")
}

fn json_type(ty: PropertyType) -> JsonType {
    match ty {
        PropertyType::Int => JsonType::Integer,
        PropertyType::Numeric => JsonType::Number,
        PropertyType::Boolean => JsonType::Boolean,
        PropertyType::String | PropertyType::Date | PropertyType::DateTime | PropertyType::Guid => {
            JsonType::String
        }
    }
}

#[test]
fn every_filter_property_is_a_record_field_or_says_which_field_carries_it() {
    let mut mismatches = Vec::new();
    for module in MODULES {
        let record = record(module);
        for property in module.properties {
            let name = property.name;
            let found = record.property(name);
            match (module.filter_only(name), found) {
                (Some(_), Property::Known(_)) => mismatches.push(format!(
                    "{}.{name}: listed as filter-only, but the record has it",
                    module.record
                )),
                (Some(only), _) => {
                    if let Some(field) = only.field
                        && record.at_dotted(field).is_none()
                    {
                        mismatches.push(format!(
                            "{}.{name}: carried as `{field}`, which the record does not have",
                            module.record
                        ));
                    }
                }
                (None, Property::Known(field)) => {
                    let expected = json_type(property.ty);
                    if !module.documented && field.value_type() != Some(expected) {
                        mismatches.push(format!(
                            "{}.{name}: {:?}, the filter type says {expected:?}",
                            module.record,
                            field.value_type()
                        ));
                    }
                }
                (None, _) => mismatches.push(format!(
                    "{}.{name}: neither a record field nor listed as filter-only",
                    module.record
                )),
            }
        }
    }
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

#[test]
fn the_account_is_the_vendors_object_not_its_collections_filters() {
    let account = builtin().record("account").expect("account");
    for (filter, field, ty) in [
        ("email", "corpEmail", JsonType::String),
        ("website", "webSite", JsonType::String),
        ("taxable", "isTaxable", JsonType::Boolean),
        ("orderingEnabled", "enableOrdering", JsonType::Boolean),
        ("creditLimit", "creditLimitAmount", JsonType::Number),
    ] {
        assert!(
            matches!(account.property(filter), Property::Unknown),
            "{filter} is a filter property, not a field of the pushed account"
        );
        let found = account.at_dotted(field).map(|f| f.value_type());
        assert_eq!(found, Some(Some(ty)), "{field}");
    }
    // The vendor's currency fields are Currency objects, beside the spec's `accountCurrency`.
    for path in [
        "currency.mnemonic",
        "transactionCurrency.name",
        "accountCurrency.currency.mnemonic",
    ] {
        assert!(account.at_dotted(path).is_some(), "{path}");
    }
}

#[test]
fn the_platform_client_filters_the_modules_collections_by_the_same_tables() {
    for module in MODULES {
        let collection = Collection::find(module.collection)
            .unwrap_or_else(|| panic!("{}: no client collection", module.collection));
        assert_eq!(
            collection.properties, module.properties,
            "{}",
            module.module
        );
    }
}
