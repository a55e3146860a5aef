//! Conversions between `Value` and `serde_json::Value`.

use std::sync::Arc;

use super::{Map, Value, dotnet};

impl From<&serde_json::Value> for Value {
    fn from(v: &serde_json::Value) -> Self {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Value::Int(i)
                } else {
                    Value::Double(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            serde_json::Value::String(s) => Value::String(s.as_str().into()),
            serde_json::Value::Array(a) => Value::array(a.iter().map(Value::from).collect()),
            serde_json::Value::Object(o) => Value::object(
                o.iter()
                    .map(|(k, v)| (Arc::<str>::from(k.as_str()), Value::from(v)))
                    .collect::<Map>(),
            ),
        }
    }
}

impl From<serde_json::Value> for Value {
    fn from(v: serde_json::Value) -> Self {
        Value::from(&v)
    }
}

impl From<&Value> for serde_json::Value {
    /// Decimals become JSON numbers through their text, so `2.10` stays `2.10` only with
    /// `serde_json`'s `arbitrary_precision`; without it the number is the nearest `f64`.
    /// Use [`Value::to_json_compact`] for exact output.
    fn from(v: &Value) -> Self {
        match v {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(i) => serde_json::Value::from(*i),
            Value::Double(d) => serde_json::Number::from_f64(*d)
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
            Value::Decimal(d) => serde_json::Number::from_f64(dotnet::decimal_to_f64(d))
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
            Value::String(s) => serde_json::Value::String(s.to_string()),
            Value::Array(a) => serde_json::Value::Array(a.iter().map(Into::into).collect()),
            Value::Object(o) => serde_json::Value::Object(
                o.iter()
                    .map(|(k, v)| (k.to_string(), serde_json::Value::from(v)))
                    .collect(),
            ),
        }
    }
}

impl From<Value> for serde_json::Value {
    fn from(v: Value) -> Self {
        serde_json::Value::from(&v)
    }
}
