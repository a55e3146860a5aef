//! Reading many records of the same shape: object keys are shared between records instead
//! of allocated for each one.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Map, Value};

/// Keys kept at most; beyond, the cache starts over (records with unbounded key sets, such as
/// maps keyed by id, must not grow it without end).
const MAX_KEYS: usize = 4096;
/// Keys longer than this are not worth interning.
const MAX_KEY_LEN: usize = 64;

/// Parses JSON records, sharing object keys across the records it reads: a JSON Lines
/// stream of one record type allocates each key once, not once per record. Use one reader per
/// thread.
///
/// ```
/// let mut reader = syncdef_transform::value::ValueReader::new();
/// let a = reader.read(r#"{"id": 1, "name": "a"}"#).unwrap();
/// let b = reader.read(r#"{"id": 2, "name": "b"}"#).unwrap();
/// assert_eq!(b.to_json_compact(), r#"{"id":2,"name":"b"}"#);
/// # let _ = a;
/// ```
#[derive(Default)]
pub struct ValueReader {
    keys: HashMap<Box<str>, Arc<str>, BuildHasherDefault<Fnv>>,
}

impl fmt::Debug for ValueReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValueReader")
            .field("keys", &self.keys.len())
            .finish()
    }
}

impl ValueReader {
    /// A reader with an empty key cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses one JSON text (strict JSON).
    pub fn read(&mut self, text: &str) -> Result<Value, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let v = ValueSeed(self).deserialize(&mut de)?;
        de.end()?;
        Ok(v)
    }

    fn key(&mut self, k: &str) -> Arc<str> {
        if k.len() > MAX_KEY_LEN {
            return k.into();
        }
        if let Some(a) = self.keys.get(k) {
            return a.clone();
        }
        if self.keys.len() >= MAX_KEYS {
            self.keys.clear();
        }
        let a: Arc<str> = k.into();
        self.keys.insert(k.into(), a.clone());
        a
    }
}

/// FNV-1a: keys are short, and a hash this simple beats SipHash on them; the input is data
/// we parse, not attacker-chosen table sizes (the cache is bounded).
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

struct ValueSeed<'r>(&'r mut ValueReader);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
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
        Ok(super::de::unsigned(n))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Value::Double(n))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.into()))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(v) = seq.next_element_seed(ValueSeed(&mut *self.0))? {
            items.push(v);
        }
        Ok(Value::array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        // As `Value`'s own parsing: a duplicate key replaces the earlier value.
        let mut map = Map::new();
        while let Some(key) = access.next_key_seed(KeySeed(&mut *self.0))? {
            let value = access.next_value_seed(ValueSeed(&mut *self.0))?;
            map.insert(key, value);
        }
        Ok(Value::object(map))
    }
}

struct KeySeed<'r>(&'r mut ValueReader);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Arc<str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Arc<str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed<'_> {
    type Value = Arc<str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object key")
    }
    fn visit_str<E>(self, s: &str) -> Result<Arc<str>, E> {
        Ok(self.0.key(s))
    }
}
