//! Typed ids of platform records, read from records and written into paths.

use std::fmt;

use serde_json::Value;
use syncdef_definitions::platform::modules::IdType;

use crate::guid::Guid;

/// A record's id was missing or of the wrong type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the record's `{field}` {problem}; expected {expected}")]
pub struct IdError {
    /// The field read (`id`).
    pub field: &'static str,
    /// What was found.
    pub problem: String,
    /// What the id type needs.
    pub expected: &'static str,
}

/// An id type: how it is read from a record and written into a path segment.
pub trait RecordId: Sized + fmt::Display {
    /// What the id looks like, for messages.
    const EXPECTED: &'static str;

    /// Reads the id from a JSON value.
    fn from_value(value: &Value) -> Option<Self>;

    /// Reads the `id` field of a record.
    fn from_record(record: &Value) -> Result<Self, IdError> {
        let error = |problem: String| IdError {
            field: "id",
            problem,
            expected: Self::EXPECTED,
        };
        match record.get("id") {
            None | Some(Value::Null) => Err(error("is missing".to_owned())),
            Some(value) => {
                Self::from_value(value).ok_or_else(|| error(format!("is {}", describe(value))))
            }
        }
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {:?}", truncate(s)),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

fn truncate(s: &str) -> &str {
    match s.char_indices().nth(64) {
        Some((end, _)) => &s[..end],
        None => s,
    }
}

/// Id of an account: an integer (spec 2.1, `id int`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccountId(pub i64);

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl RecordId for AccountId {
    const EXPECTED: &'static str = "an integer";

    /// Numbers, and numeric strings (some platform payloads quote ids).
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Number(n) => n.as_i64().map(Self),
            Value::String(s) => s.trim().parse().ok().map(Self),
            _ => None,
        }
    }
}

/// The `id` of a record whose ids are of the module table's `id_type`, as text: the id types
/// of each shape read it, so their messages name the shape only.
pub fn record_id(id_type: IdType, record: &Value) -> Result<String, IdError> {
    match id_type {
        IdType::Integer => AccountId::from_record(record).map(|i| i.to_string()),
        IdType::Guid => InvoiceId::from_record(record).map(|i| i.to_string()),
    }
}

macro_rules! guid_id {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub Guid);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl RecordId for $name {
            const EXPECTED: &'static str = "a GUID";

            fn from_value(value: &Value) -> Option<Self> {
                value.as_str().and_then(|s| Guid::parse(s).ok()).map(Self)
            }
        }

        impl std::str::FromStr for $name {
            type Err = crate::guid::InvalidGuid;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Guid::parse(s).map(Self)
            }
        }
    )*};
}

guid_id! {
    /// Id of an invoice (spec 2.1, `id Guid`).
    InvoiceId;
    /// Id of an order (spec 2.1, `id Guid`).
    OrderId;
    /// Id of a product (spec 2.1, `id Guid`).
    ProductId;
    /// Id of a subscription (spec 2.1, `id Guid`).
    SubscriptionId;
    /// Id of a payment (spec 2.1, `id Guid`).
    PaymentId;
}

macro_rules! text_id {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub String);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl RecordId for $name {
            const EXPECTED: &'static str = "a string or a number";

            fn from_value(value: &Value) -> Option<Self> {
                match value {
                    Value::String(s) if !s.is_empty() => Some(Self(s.clone())),
                    Value::Number(n) => Some(Self(n.to_string())),
                    _ => None,
                }
            }
        }

        impl From<&str> for $name {
            fn from(value: &str) -> Self {
                Self(value.to_owned())
            }
        }
    )*};
}

text_id! {
    /// Id of an order item; its type is not shown in the spec, so it is kept as text.
    OrderItemId;
    /// Id of an installment plan; its type is not shown in the spec.
    InstallmentPlanId;
    /// Id (code) of an external system instance, as in `/syncoptions/{systemId}`.
    SystemId;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_are_read_from_records() {
        assert_eq!(
            AccountId::from_record(&json!({"id": 42})),
            Ok(AccountId(42))
        );
        assert_eq!(
            AccountId::from_record(&json!({"id": "42"})),
            Ok(AccountId(42))
        );
        let guid = "3f2b1c4d-0000-4e5f-8a9b-0123456789ab";
        assert_eq!(
            InvoiceId::from_record(&json!({ "id": guid })).map(|id| id.to_string()),
            Ok(guid.to_owned())
        );
        assert_eq!(
            OrderItemId::from_record(&json!({"id": 7})),
            Ok(OrderItemId("7".to_owned()))
        );
    }

    #[test]
    fn bad_ids_say_what_was_found() {
        let missing = AccountId::from_record(&json!({"name": "x"})).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "the record's `id` is missing; expected an integer"
        );
        let wrong = InvoiceId::from_record(&json!({"id": 5})).unwrap_err();
        assert_eq!(
            wrong.to_string(),
            "the record's `id` is the number 5; expected a GUID"
        );
    }
}
