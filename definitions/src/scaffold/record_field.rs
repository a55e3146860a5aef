//! Which field of the platform record a property of the vendor's request body stands for: the
//! same name (case, `_` and `-` aside), else a common synonym, and only when exactly one field
//! of a type the property takes matches; anything less certain is left as a constant.

use super::address::BillingAddress;
use crate::platform::modules::Module;
use crate::platform::{self, JsonType};

/// Names that mean the same thing, written lower case without separators. A vendor's property
/// named with one of them stands for the record field named with another of the same group.
const SYNONYMS: &[&[&str]] = &[
    &["name", "displayname", "fullname"],
    &[
        "email",
        "emailaddress",
        "mail",
        "corpemail",
        "primaryemail",
        "primaryemailaddress",
    ],
    &[
        "phone",
        "phonenumber",
        "telephone",
        "telephonenumber",
        "tel",
    ],
    &["fax", "faxnumber"],
    &["website", "webaddress", "homepage", "websiteurl"],
    &[
        "vatnumber",
        "vatid",
        "taxnumber",
        "taxid",
        "vatregistrationnumber",
        "taxregistrationnumber",
    ],
    &["firstname", "givenname"],
    &["lastname", "familyname", "surname"],
    &["currency", "currencycode", "currencyiso", "currencyisocode"],
];

/// Record fields deeper than the record's own, each by the name a vendor's property would
/// have, with the paths that hold it, most specific first: the first path a record has is its
/// field of that name (an account's currency code is `accountCurrency.currency.mnemonic`, spec
/// 2.6 rule 4).
const NESTED: &[(&str, &[&str])] = &[(
    "currency",
    &[
        "accountCurrency.currency.mnemonic",
        "transactionCurrency.mnemonic",
        "currency.mnemonic",
    ],
)];

/// Fields that are the platform's own bookkeeping, never a vendor's: a vendor's `id` is its
/// own id, not the platform's.
const BOOKKEEPING: &[&str] = &["id", "integrationId", "createdAt", "updatedAt"];

/// A field of the platform record a template may read.
#[derive(Clone, Debug)]
struct Field {
    name: &'static str,
    key: String,
    kind: JsonType,
}

/// The scalar fields of one module's platform record, and its billing address.
#[derive(Clone, Debug)]
pub(super) struct RecordFields {
    /// The record's JSONPath root (`account`).
    pub root: &'static str,
    /// The record's billing address, when it has addresses.
    pub billing: Option<BillingAddress>,
    fields: Vec<Field>,
}

impl RecordFields {
    /// The fields of `module`'s record, as the shipped record schema declares them.
    pub fn of(module: &Module) -> Self {
        let fields: Vec<Field> = platform::builtin()
            .record(module.root)
            .map(|record| {
                record
                    .property_names()
                    .into_iter()
                    .filter(|name| !BOOKKEEPING.contains(name))
                    .filter_map(|name| {
                        let platform::Property::Known(schema) = record.property(name) else {
                            return None;
                        };
                        let kind = schema.value_type().filter(|k| is_scalar(*k))?;
                        Some(Field {
                            name,
                            key: key(name),
                            kind,
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut record = RecordFields {
            root: module.root,
            billing: BillingAddress::of(module.root),
            fields,
        };
        record.add_nested(module);
        record
    }

    /// The [`NESTED`] fields `module`'s record has, under names none of its own fields has.
    fn add_nested(&mut self, module: &Module) {
        let Some(record) = platform::builtin().record(module.root) else {
            return;
        };
        for (name, paths) in NESTED {
            if self.fields.iter().any(|f| f.key == *name) {
                continue;
            }
            let found = paths.iter().find_map(|path| {
                let kind = record
                    .at_dotted(path)?
                    .value_type()
                    .filter(|k| is_scalar(*k))?;
                Some(Field {
                    name: path,
                    key: (*name).to_owned(),
                    kind,
                })
            });
            self.fields.extend(found);
        }
    }

    /// The record field a property `name` of type `kind` (an OpenAPI type) stands for.
    pub fn matching(&self, name: &str, kind: &str) -> Option<&'static str> {
        let takes = |field: &&Field| takes(kind, field.kind);
        let wanted = key(name);
        let same: Vec<&Field> = self.fields.iter().filter(|f| f.key == wanted).collect();
        if let [one] = same.as_slice() {
            return takes(one).then_some(one.name);
        }
        let group = SYNONYMS
            .iter()
            .find(|group| group.contains(&wanted.as_str()))?;
        let synonyms: Vec<&Field> = self
            .fields
            .iter()
            .filter(|f| group.contains(&f.key.as_str()))
            .filter(takes)
            .collect();
        match synonyms.as_slice() {
            [one] => Some(one.name),
            _ => None,
        }
    }
}

/// A name as it is compared: lower case, without `_`, `-` and spaces.
fn key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether values of type `kind` are read into one property (objects and lists are not).
fn is_scalar(kind: JsonType) -> bool {
    !matches!(kind, JsonType::Object | JsonType::Array | JsonType::Null)
}

/// Whether a vendor's property of OpenAPI type `kind` takes a platform field of type `field`.
fn takes(kind: &str, field: JsonType) -> bool {
    match kind {
        "string" => field == JsonType::String,
        "integer" => field == JsonType::Integer,
        "number" => matches!(field, JsonType::Number | JsonType::Integer),
        "boolean" => field == JsonType::Boolean,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::RecordFields;
    use crate::platform::modules::{ACCOUNTS, CONTACTS};

    #[test]
    fn the_same_name_in_any_case_or_a_synonym_of_one_field() {
        let account = RecordFields::of(&ACCOUNTS);
        assert_eq!(account.root, "account");
        assert_eq!(account.matching("Name", "string"), Some("name"));
        assert_eq!(account.matching("DisplayName", "string"), Some("name"));
        assert_eq!(
            account.matching("EmailAddress", "string"),
            Some("corpEmail")
        );
        assert_eq!(account.matching("web_site", "string"), Some("webSite"));
        assert_eq!(account.matching("TaxNumber", "string"), Some("vatNumber"));
        assert_eq!(account.matching("Taxable", "boolean"), None);
        assert_eq!(account.matching("isTaxable", "boolean"), Some("isTaxable"));
        let contact = RecordFields::of(&CONTACTS);
        assert_eq!(contact.matching("Email", "string"), Some("email"));
        assert_eq!(contact.matching("given_name", "string"), Some("firstName"));
    }

    #[test]
    fn a_currency_code_is_the_account_s_currency_mnemonic() {
        let account = RecordFields::of(&ACCOUNTS);
        let code = Some("accountCurrency.currency.mnemonic");
        assert_eq!(account.matching("currency", "string"), code);
        assert_eq!(account.matching("CurrencyCode", "string"), code);
        assert_eq!(account.matching("currency", "integer"), None);
        assert_eq!(
            RecordFields::of(&CONTACTS).matching("currency", "string"),
            None
        );
    }

    #[test]
    fn a_type_the_property_does_not_take_or_the_platform_id_is_no_match() {
        let account = RecordFields::of(&ACCOUNTS);
        assert_eq!(account.matching("name", "integer"), None);
        assert_eq!(account.matching("phone", "object"), None);
        assert_eq!(account.matching("id", "integer"), None);
        assert_eq!(account.matching("Id", "string"), None);
        assert_eq!(account.matching("createdAt", "string"), None);
        // A contact has a first and a last name, and no name of its own.
        assert_eq!(RecordFields::of(&CONTACTS).matching("name", "string"), None);
    }
}
