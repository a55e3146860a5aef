//! Insertion-ordered object map.

use std::sync::Arc;

use super::Value;

/// An object's members in insertion order.
///
/// A plain vector with linear lookup: records and template objects have a few dozen keys at
/// most, where a scan beats hashing, and keeping order is free. Inserting an existing key
/// replaces the value in place, as `JObject` does.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map {
    entries: Vec<(Arc<str>, Value)>,
}

impl Map {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty map with room for `n` members.
    pub fn with_capacity(n: usize) -> Self {
        Map {
            entries: Vec::with_capacity(n),
        }
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| same_key(k, key))
            .map(|(_, v)| v)
    }

    /// The stored key and value of `key`.
    pub fn get_key_value(&self, key: &str) -> Option<(&Arc<str>, &Value)> {
        self.entries
            .iter()
            .find(|(k, _)| same_key(k, key))
            .map(|(k, v)| (k, v))
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.entries
            .iter_mut()
            .find(|(k, _)| same_key(k, key))
            .map(|(_, v)| v)
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key`: replaces the value in place if present, appends otherwise.
    pub fn insert(&mut self, key: Arc<str>, value: Value) {
        match self.get_mut(&key) {
            Some(slot) => *slot = value,
            None => self.entries.push((key, value)),
        }
    }

    /// Appends without looking for a duplicate: the caller knows `key` is new.
    pub(crate) fn push_unique(&mut self, key: Arc<str>, value: Value) {
        self.entries.push((key, value));
    }

    /// Removes `key`, keeping the order of the others.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.entries.iter().position(|(k, _)| k.as_ref() == key)?;
        Some(self.entries.remove(i).1)
    }

    /// Members in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Arc<str>, &Value)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> {
        self.entries.iter().map(|(_, v)| v)
    }

    /// Values in order, mutably.
    pub fn values_mut(&mut self) -> impl ExactSizeIterator<Item = &mut Value> {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// Keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Arc<str>> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The first member.
    pub fn first(&self) -> Option<(&Arc<str>, &Value)> {
        self.entries.first().map(|(k, v)| (k, v))
    }
}

/// Key equality with cheap rejections first: lookups scan, and most keys differ in length
/// or first byte, which spares a `memcmp` call per member.
#[inline]
fn same_key(k: &str, key: &str) -> bool {
    k.len() == key.len() && k.as_bytes().first() == key.as_bytes().first() && k == key
}

impl FromIterator<(Arc<str>, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (Arc<str>, Value)>>(iter: I) -> Self {
        let mut m = Map::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

impl IntoIterator for Map {
    type Item = (Arc<str>, Value);
    type IntoIter = std::vec::IntoIter<(Arc<str>, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}
