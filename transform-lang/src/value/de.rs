//! Parsing JSON text straight into `Value` (no intermediate `serde_json::Value`).

use std::fmt;
use std::sync::Arc;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Map, Value};

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Int(n))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(unsigned(n))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Value::Double(n))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.into()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s.into()))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Deserialize::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        // A duplicate key replaces the earlier value (Newtonsoft's default); the map indexes
        // its keys once large, so that many keys cannot make parsing quadratic.
        let mut map = Map::new();
        while let Some(key) = access.next_key::<KeyString>()? {
            let value: Value = access.next_value()?;
            map.insert(key.0, value);
        }
        Ok(Value::object(map))
    }
}

struct KeyString(Arc<str>);

impl<'de> Deserialize<'de> for KeyString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = KeyString;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_str<E>(self, s: &str) -> Result<KeyString, E> {
                Ok(KeyString(s.into()))
            }
        }
        d.deserialize_str(V)
    }
}

/// An unsigned JSON integer. Beyond `long`, Newtonsoft reads a `BigInteger`; a double is the
/// closest we keep.
#[expect(
    clippy::cast_precision_loss,
    reason = "the closest double is the documented result"
)]
pub(super) fn unsigned(n: u64) -> Value {
    i64::try_from(n).map_or(Value::Double(n as f64), Value::Int)
}
