//! The value type templates read and build.
//!
//! `Value` mirrors what JUST.net handles at run time: Newtonsoft tokens plus the .NET numbers
//! its functions return. Numbers keep their .NET type because the output differs: a `long`
//! prints `3`, a `double` prints `3.0`, a `decimal` prints with its scale (`3.00`).
//! Strings, arrays and objects are shared behind `Arc`, so cloning a value is a reference count
//! increment; mutation is copy-on-write (`Arc::make_mut`).

mod convert;
mod de;
pub(crate) mod dotnet;
mod key_index;
mod map;
mod reader;
pub(crate) mod ser;

use std::sync::Arc;

pub use map::{Iter as MapIter, Map, Shape};
pub use reader::ValueReader;
pub use rust_decimal::Decimal;
pub use ser::{to_string_compact, to_string_pretty, write_compact, write_pretty};

/// A JSON value with .NET number types, cheap to clone.
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// JSON `null`.
    #[default]
    Null,
    /// JSON `true` / `false`.
    Bool(bool),
    /// An integer (.NET `long` or `int`): prints `123`.
    Int(i64),
    /// A floating point number (.NET `double`): prints in round-trip form, `1.0` keeps `.0`.
    Double(f64),
    /// A .NET `decimal`: prints with its scale and always a decimal point (`123.0`, `2.10`).
    Decimal(Decimal),
    /// A string, shared.
    String(Arc<str>),
    /// An array, shared.
    Array(Arc<Vec<Value>>),
    /// An object keeping insertion order, shared.
    Object(Arc<Map>),
}

// Every record and every output node is a `Value`: keep it at three words.
const _: () = assert!(std::mem::size_of::<Value>() == 24);

impl Value {
    /// A string value.
    pub fn string(s: impl Into<Arc<str>>) -> Self {
        Value::String(s.into())
    }

    /// An array value.
    pub fn array(items: Vec<Value>) -> Self {
        Value::Array(Arc::new(items))
    }

    /// An object value.
    pub fn object(map: Map) -> Self {
        Value::Object(Arc::new(map))
    }

    /// Parses one JSON text (strict JSON, as a record arrives) into a value.
    pub fn from_json_str(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Parses JSON bytes into a value.
    pub fn from_json_slice(bytes: &[u8]) -> Result<Self, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The array items, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// Whether this is a number of any .NET type.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Double(_) | Value::Decimal(_))
    }

    /// Member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|o| o.get(key))
    }

    /// The JSON type name, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::Double(_) | Value::Decimal(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// Compact JSON text (one line, keys in output order), numbers as Newtonsoft writes them.
    pub fn to_json_compact(&self) -> String {
        to_string_compact(self)
    }

    /// Indented JSON text (two spaces), as Newtonsoft's `Formatting.Indented`.
    pub fn to_json_pretty(&self) -> String {
        to_string_pretty(self)
    }

    /// Nesting depth: 0 for scalars, 1 for a flat array or object.
    pub fn depth(&self) -> usize {
        // Iterative so that a deep value cannot overflow the stack here.
        let mut max = 0;
        let mut stack: Vec<(&Value, usize)> = vec![(self, 0)];
        while let Some((v, d)) = stack.pop() {
            match v {
                Value::Array(a) => {
                    max = max.max(d + 1);
                    stack.extend(a.iter().map(|x| (x, d + 1)));
                }
                Value::Object(o) => {
                    max = max.max(d + 1);
                    stack.extend(o.values().map(|x| (x, d + 1)));
                }
                _ => {}
            }
        }
        max
    }
}

/// Structural equality as JSON: numbers compare by value across types (`1` == `1.0`).
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        use Value::{Array, Bool, Null, Object, String};
        match (self, other) {
            (Null, Null) => true,
            (Bool(a), Bool(b)) => a == b,
            (String(a), String(b)) => a == b,
            (Array(a), Array(b)) => Arc::ptr_eq(a, b) || a == b,
            (Object(a), Object(b)) => Arc::ptr_eq(a, b) || a == b,
            (a, b) if a.is_number() && b.is_number() => {
                dotnet::cmp_numbers(a, b).is_some_and(std::cmp::Ordering::is_eq)
            }
            _ => false,
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Int(n)
    }
}
impl From<i32> for Value {
    fn from(n: i32) -> Self {
        Value::Int(n.into())
    }
}
impl From<f64> for Value {
    fn from(n: f64) -> Self {
        Value::Double(n)
    }
}
impl From<Decimal> for Value {
    fn from(n: Decimal) -> Self {
        Value::Decimal(n)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.into())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s.into())
    }
}
impl From<Vec<Value>> for Value {
    fn from(a: Vec<Value>) -> Self {
        Value::array(a)
    }
}
impl From<Map> for Value {
    fn from(m: Map) -> Self {
        Value::object(m)
    }
}
impl From<&Value> for Value {
    fn from(v: &Value) -> Self {
        v.clone()
    }
}

impl std::fmt::Display for Value {
    /// Compact JSON.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_json_compact())
    }
}

impl Value {
    /// The value at `loc`, mutably (copy-on-write along the way).
    pub fn pointer_mut(&mut self, loc: &[crate::path::Segment]) -> Option<&mut Value> {
        use crate::path::Segment;
        let mut cur = self;
        for seg in loc {
            cur = match (cur, seg) {
                (Value::Object(o), Segment::Key(k)) => Arc::make_mut(o).get_mut(k)?,
                (Value::Array(a), Segment::Index(i)) => Arc::make_mut(a).get_mut(*i)?,
                _ => return None,
            };
        }
        Some(cur)
    }

    /// Removes the member or item at `loc`; returns it.
    pub fn remove_at(&mut self, loc: &[crate::path::Segment]) -> Option<Value> {
        use crate::path::Segment;
        let (last, parent) = loc.split_last()?;
        match (self.pointer_mut(parent)?, last) {
            (Value::Object(o), Segment::Key(k)) => Arc::make_mut(o).remove(k),
            (Value::Array(a), Segment::Index(i)) if *i < a.len() => {
                Some(Arc::make_mut(a).remove(*i))
            }
            _ => None,
        }
    }
}
