//! A serde `Deserializer` over a borrowed [`Node`].
//!
//! Typed extensions (`x-syncdef`) are read straight from the tree (no intermediate
//! `serde_json::Value`), and every error carries the JSON pointer and span of the node that
//! caused it: each level of the tree adds its key to an error rising through it.

use std::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use crate::node::{Member, Node, NodeKind, NumberValue};
use crate::pointer;
use crate::source::Span;

/// A deserialization error located at the node that caused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeError {
    /// serde's message ("missing field `info`").
    pub message: String,
    /// The innermost node the error rose through.
    pub span: Option<Span>,
    /// Path tokens, innermost first (reversed while the error rises).
    tokens: Vec<String>,
}

impl DeError {
    /// The JSON pointer of the node at fault.
    #[must_use]
    pub fn pointer(&self) -> String {
        pointer::join(self.tokens.iter().rev().map(String::as_str))
    }

    fn locate(mut self, span: Span, token: impl FnOnce() -> String) -> Self {
        self.span.get_or_insert(span);
        self.tokens.push(token());
        self
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError {
            message: msg.to_string(),
            span: None,
            tokens: Vec::new(),
        }
    }
}

/// Deserializes `T` from `node`; members of the root named in `skip_root_keys` are left out
/// (the `synchronization` section, which OpenAPI 3.0 would not accept).
///
/// # Errors
/// A [`DeError`] located at the node that does not fit `T`.
pub fn from_node<'a, T: de::Deserialize<'a>>(
    node: Node<'a>,
    skip_root_keys: &'a [&'a str],
) -> Result<T, DeError> {
    T::deserialize(NodeDeserializer {
        node,
        skip: skip_root_keys,
    })
    .map_err(|mut e| {
        e.span.get_or_insert(node.span);
        e
    })
}

/// The deserializer for one node.
#[derive(Clone, Copy)]
pub struct NodeDeserializer<'a> {
    node: Node<'a>,
    skip: &'a [&'a str],
}

impl<'a> NodeDeserializer<'a> {
    /// A deserializer for `node`.
    #[must_use]
    pub fn new(node: Node<'a>) -> Self {
        NodeDeserializer { node, skip: &[] }
    }

    fn unexpected(&self) -> de::Unexpected<'a> {
        match &self.node.kind {
            NodeKind::Null => de::Unexpected::Unit,
            NodeKind::Bool(b) => de::Unexpected::Bool(*b),
            NodeKind::Number(n) => match n.value {
                NumberValue::PosInt(u) => de::Unexpected::Unsigned(u),
                NumberValue::NegInt(i) => de::Unexpected::Signed(i),
                NumberValue::Float(f) => de::Unexpected::Float(f),
            },
            NodeKind::String(s) => de::Unexpected::Str(s.value),
            NodeKind::Array(_) => de::Unexpected::Seq,
            NodeKind::Object(_) => de::Unexpected::Map,
        }
    }
}

impl<'de> de::Deserializer<'de> for NodeDeserializer<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match &self.node.kind {
            NodeKind::Null => visitor.visit_unit(),
            NodeKind::Bool(b) => visitor.visit_bool(*b),
            NodeKind::Number(n) => match n.value {
                NumberValue::PosInt(u) => visitor.visit_u64(u),
                NumberValue::NegInt(i) => visitor.visit_i64(i),
                NumberValue::Float(f) => visitor.visit_f64(f),
            },
            NodeKind::String(s) => visitor.visit_borrowed_str(s.value),
            NodeKind::Array(items) => visitor.visit_seq(Seq {
                items: items.iter(),
                index: 0,
            }),
            NodeKind::Object(members) => visitor.visit_map(Map {
                members: members.iter(),
                skip: self.skip,
                value: None,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.node.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match &self.node.kind {
            NodeKind::String(s) => visitor.visit_enum(s.value.into_deserializer()),
            NodeKind::Object(members) if members.len() == 1 => match members.first() {
                Some(member) => visitor.visit_enum(Enum { member }),
                None => Err(de::Error::invalid_type(
                    self.unexpected(),
                    &"an object with one key",
                )),
            },
            _ => Err(de::Error::invalid_type(
                self.unexpected(),
                &"a string or an object with one key",
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

struct Seq<'a> {
    items: crate::items::ItemsIter<'a>,
    index: usize,
}

impl<'de> de::SeqAccess<'de> for Seq<'de> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(NodeDeserializer::new(item))
            .map(Some)
            .map_err(|e| e.locate(item.span, || index.to_string()))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map<'a> {
    members: crate::members::MembersIter<'a>,
    skip: &'a [&'a str],
    value: Option<Member<'a>>,
}

impl<'de> de::MapAccess<'de> for Map<'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        for member in self.members.by_ref() {
            if self.skip.contains(&member.key.name) {
                continue;
            }
            self.value = Some(member);
            let key = KeyDeserializer {
                key: member.key.name,
            };
            return seed
                .deserialize(key)
                .map(Some)
                .map_err(|e| e.locate(member.key.span, || member.key.name.to_string()));
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let Some(member) = self.value.take() else {
            return Err(de::Error::custom(
                "a map value was requested before its key",
            ));
        };
        seed.deserialize(NodeDeserializer::new(member.value))
            .map_err(|e| e.locate(member.value.span, || member.key.name.to_string()))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

/// Keys are strings; borrowing them lets serde's buffering (untagged enums, flatten) avoid a
/// copy.
struct KeyDeserializer<'a> {
    key: &'a str,
}

impl<'de> de::Deserializer<'de> for KeyDeserializer<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_borrowed_str(self.key)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct Enum<'a> {
    member: Member<'a>,
}

impl<'de> de::EnumAccess<'de> for Enum<'de> {
    type Error = DeError;
    type Variant = NodeDeserializer<'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), DeError> {
        let variant = seed.deserialize(KeyDeserializer {
            key: self.member.key.name,
        })?;
        Ok((variant, NodeDeserializer::new(self.member.value)))
    }
}

impl<'de> de::VariantAccess<'de> for NodeDeserializer<'de> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}
