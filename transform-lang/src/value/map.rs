//! Insertion-ordered object map.

use std::fmt;
use std::slice;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use super::Value;
use super::key_index::{INDEX_AFTER, KeyIndex};

/// An object's members in insertion order.
///
/// Records and template objects have a few dozen keys at most, where a linear scan beats
/// hashing, and keeping the order is free. Objects above 32 members also keep a hash index of
/// their keys, so that building and reading a large object stays linear. Inserting an
/// existing key replaces the value in place, as `JObject` does.
///
/// An object built from a template object shares the template's key list (one reference count
/// for all keys instead of one per key, in building and in dropping); it gets keys of its own
/// the first time a key is added or removed.
#[derive(Clone)]
pub struct Map {
    repr: Repr,
}

/// Members with keys of their own, in order.
type Entries = Vec<(Arc<str>, Value)>;

#[derive(Clone)]
enum Repr {
    Entries {
        entries: Entries,
        /// Kept above `INDEX_AFTER` members.
        index: Option<Box<KeyIndex>>,
    },
    Shaped {
        shape: Shape,
        values: Vec<Value>,
    },
}

impl Default for Map {
    fn default() -> Self {
        Map::with_capacity(0)
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Key equality with cheap rejections first: lookups scan, and most keys differ in length
/// or first byte, which spares a `memcmp` call per member.
#[inline]
fn same_key(k: &str, key: &str) -> bool {
    let (a, b) = (k.as_bytes(), key.as_bytes());
    if a.len() != b.len() || a.first() != b.first() {
        return false;
    }
    // Short keys: two overlapping word loads from each end (the whole key, read as at most
    // two words) beat both a byte loop and a call to `memcmp`.
    let n = a.len();
    match n {
        0..4 => a.iter().zip(b).all(|(x, y)| x == y),
        4..8 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

/// The 8 bytes of `s` at `at` (the caller checked `at + 8 <= s.len()`).
#[inline]
fn word8(s: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&s[at..at + 8]);
    u64::from_ne_bytes(w)
}

/// The 4 bytes of `s` at `at` (the caller checked `at + 4 <= s.len()`).
#[inline]
fn word4(s: &[u8], at: usize) -> u32 {
    let mut w = [0; 4];
    w.copy_from_slice(&s[at..at + 4]);
    u32::from_ne_bytes(w)
}

impl Map {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty map with room for `n` members.
    pub fn with_capacity(n: usize) -> Self {
        Map {
            repr: Repr::Entries {
                entries: Vec::with_capacity(n),
                index: None,
            },
        }
    }

    /// An object of `shape`'s keys with `values`, in order: the keys are shared, not copied
    /// or compared. `None` when the counts differ.
    pub fn with_shape(shape: &Shape, values: Vec<Value>) -> Option<Map> {
        (shape.keys.len() == values.len()).then(|| Map::shaped(shape.clone(), values))
    }

    /// A map of `values` under the keys of `shape` (same length).
    pub(crate) fn shaped(shape: Shape, values: Vec<Value>) -> Self {
        debug_assert_eq!(shape.keys.len(), values.len());
        Map {
            repr: Repr::Shaped { shape, values },
        }
    }

    /// Gives the map keys of its own, so that keys can be added or removed; the caller keeps
    /// the index in step with the entries.
    fn entries_mut(&mut self) -> (&mut Entries, &mut Option<Box<KeyIndex>>) {
        if let Repr::Shaped { shape, values } = &mut self.repr {
            let values = std::mem::take(values);
            let entries = shape.keys.iter().cloned().zip(values).collect();
            let index = shape.index.as_deref().map(|ix| Box::new(ix.clone()));
            self.repr = Repr::Entries { entries, index };
        }
        match &mut self.repr {
            Repr::Entries { entries, index } => (entries, index),
            Repr::Shaped { .. } => unreachable!("converted above"),
        }
    }

    #[inline]
    fn position(&self, key: &str) -> Option<usize> {
        match &self.repr {
            Repr::Entries {
                entries,
                index: None,
            } => entries.iter().position(|(k, _)| same_key(k, key)),
            Repr::Entries {
                index: Some(ix), ..
            } => ix.get(key),
            Repr::Shaped { shape, .. } => shape.position(key),
        }
    }

    /// The member at `i`, a position of this map.
    fn at(&self, i: usize) -> Option<(&Arc<str>, &Value)> {
        match &self.repr {
            Repr::Entries { entries, .. } => entries.get(i).map(|(k, v)| (k, v)),
            Repr::Shaped { shape, values } => shape.keys.get(i).zip(values.get(i)),
        }
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Entries { entries, .. } => entries.len(),
            Repr::Shaped { values, .. } => values.len(),
        }
    }

    /// Whether there are no members.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.get_key_value(key).map(|(_, v)| v)
    }

    /// The stored key and value of `key`.
    pub fn get_key_value(&self, key: &str) -> Option<(&Arc<str>, &Value)> {
        // Written out rather than through `position`: this is the read of every small
        // record, where one scan that yields the member beats finding, then fetching it.
        match &self.repr {
            Repr::Entries {
                entries,
                index: None,
            } => entries
                .iter()
                .find(|(k, _)| same_key(k, key))
                .map(|(k, v)| (k, v)),
            Repr::Entries {
                entries,
                index: Some(ix),
            } => entries.get(ix.get(key)?).map(|(k, v)| (k, v)),
            Repr::Shaped { shape, values } => {
                let i = shape.position(key)?;
                shape.keys.get(i).zip(values.get(i))
            }
        }
    }

    /// The value of `key`, trying first the position `hint` remembers and remembering where
    /// the key was found. Records of one feed share their shape, so a compiled path that
    /// keeps a hint per step finds each member at the first comparison instead of scanning.
    /// Keys are unique, so a key found at the hint is the one a scan would find.
    #[inline]
    pub(crate) fn get_hinted(&self, key: &str, hint: &AtomicU32) -> Option<&Value> {
        let h = hint.load(Ordering::Relaxed) as usize;
        let found = match &self.repr {
            Repr::Entries { entries, .. } => entries
                .get(h)
                .filter(|(k, _)| same_key(k, key))
                .map(|(_, v)| v),
            Repr::Shaped { shape, values } => shape
                .keys
                .get(h)
                .filter(|k| same_key(k, key))
                .and_then(|_| values.get(h)),
        };
        // The scan is kept out of line so that a hit costs no register saves.
        found.or_else(|| self.get_and_remember(key, hint))
    }

    #[cold]
    #[inline(never)]
    fn get_and_remember(&self, key: &str, hint: &AtomicU32) -> Option<&Value> {
        let i = self.position(key)?;
        if let Ok(n) = u32::try_from(i) {
            hint.store(n, Ordering::Relaxed);
        }
        self.at(i).map(|(_, v)| v)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.position(key)?;
        match &mut self.repr {
            Repr::Entries { entries, .. } => entries.get_mut(i).map(|(_, v)| v),
            Repr::Shaped { values, .. } => values.get_mut(i),
        }
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Sets `key`: replaces the value in place if present, appends otherwise.
    pub fn insert(&mut self, key: Arc<str>, value: Value) {
        // A small map with keys of its own, the map of every parsed record: one scan finds
        // the member or shows the key is new, and the push needs no index.
        if let Repr::Entries {
            entries,
            index: None,
        } = &mut self.repr
        {
            if let Some((_, slot)) = entries.iter_mut().find(|(k, _)| same_key(k, &key)) {
                *slot = value;
                return;
            }
            if entries.len() < INDEX_AFTER {
                entries.push((key, value));
                return;
            }
        }
        self.insert_indexed(key, value);
    }

    /// `insert` into a map that is shaped, indexed, or about to be.
    #[inline(never)]
    fn insert_indexed(&mut self, key: Arc<str>, value: Value) {
        match self.get_mut(&key) {
            Some(slot) => *slot = value,
            None => self.push_unique(key, value),
        }
    }

    /// Appends without looking for a duplicate: the caller knows `key` is new.
    pub(crate) fn push_unique(&mut self, key: Arc<str>, value: Value) {
        let (entries, index) = self.entries_mut();
        match index {
            Some(ix) => ix.push(Arc::clone(&key), entries.len()),
            None if entries.len() >= INDEX_AFTER => *index = start_index(entries, &key),
            None => {}
        }
        entries.push((key, value));
    }

    /// Removes `key`, keeping the order of the others (linear in the members, as removing
    /// from a vector is).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.position(key)?;
        let (entries, index) = self.entries_mut();
        let (k, v) = entries.remove(i);
        if let Some(ix) = index {
            ix.remove(&k, i);
        }
        Some(v)
    }

    /// Removes the members whose key is in `keys`, keeping the order of the others, in one
    /// pass (removing them one by one moves the members after each, and renumbers the key
    /// index each time).
    pub(crate) fn remove_all(&mut self, keys: &std::collections::HashSet<&str>) {
        let (entries, index) = self.entries_mut();
        entries.retain(|(k, _)| !keys.contains(&**k));
        *index = if entries.len() > INDEX_AFTER {
            KeyIndex::of(entries.iter().map(|(k, _)| k)).map(Box::new)
        } else {
            None
        };
    }

    /// Members in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(match &self.repr {
            Repr::Entries { entries, .. } => IterRepr::Entries(entries.iter()),
            Repr::Shaped { shape, values } => {
                IterRepr::Shaped(shape.keys.iter().zip(values.iter()))
            }
        })
    }

    /// Values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> {
        self.iter().map(|(_, v)| v)
    }

    /// Keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Arc<str>> {
        self.iter().map(|(k, _)| k)
    }

    /// The first member.
    pub fn first(&self) -> Option<(&Arc<str>, &Value)> {
        self.iter().next()
    }
}

/// The index of `entries` and the `key` about to be appended: the member that makes a map
/// large starts its index, kept from then on.
#[cold]
fn start_index(entries: &Entries, key: &Arc<str>) -> Option<Box<KeyIndex>> {
    let keys: Vec<&Arc<str>> = entries.iter().map(|(k, _)| k).chain([key]).collect();
    KeyIndex::of(keys.into_iter()).map(Box::new)
}

/// Iterator over a map's members.
pub struct Iter<'a>(IterRepr<'a>);

enum IterRepr<'a> {
    Entries(slice::Iter<'a, (Arc<str>, Value)>),
    Shaped(std::iter::Zip<slice::Iter<'a, Arc<str>>, slice::Iter<'a, Value>>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Arc<str>, &'a Value);

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            IterRepr::Entries(i) => i.next().map(|(k, v)| (k, v)),
            IterRepr::Shaped(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            IterRepr::Entries(i) => i.size_hint(),
            IterRepr::Shaped(i) => i.size_hint(),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// Distinct keys, in order, shared by every object made with them by [`Map::with_shape`]: for
/// objects built many times with the same members (an engine's template input), where adding
/// the keys one by one would compare each with those before it and count a reference to each.
/// A shape of many keys indexes them once for all its objects.
#[derive(Clone)]
pub struct Shape {
    keys: Arc<[Arc<str>]>,
    /// Kept above `INDEX_AFTER` keys, shared by the objects of the shape.
    index: Option<Arc<KeyIndex>>,
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Shape").field(&self.keys).finish()
    }
}

impl Shape {
    /// The shape of `keys`; `None` when one repeats.
    pub fn new(keys: impl IntoIterator<Item = Arc<str>>) -> Option<Shape> {
        let keys: Arc<[Arc<str>]> = keys.into_iter().collect();
        if keys.len() > INDEX_AFTER {
            let index = KeyIndex::of(keys.iter())?;
            return Some(Shape {
                keys,
                index: Some(Arc::new(index)),
            });
        }
        let distinct = keys
            .iter()
            .enumerate()
            .all(|(i, k)| !keys[..i].iter().any(|before| same_key(before, k)));
        distinct.then_some(Shape { keys, index: None })
    }

    /// The shape of `keys`, which the caller knows are distinct (a template object's).
    pub(crate) fn of_distinct(keys: Arc<[Arc<str>]>) -> Shape {
        let index = if keys.len() > INDEX_AFTER {
            KeyIndex::of(keys.iter()).map(Arc::new)
        } else {
            None
        };
        Shape { keys, index }
    }

    /// The keys, in order.
    pub fn keys(&self) -> &[Arc<str>] {
        &self.keys
    }

    #[inline]
    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            None => self.keys.iter().position(|k| same_key(k, key)),
            Some(ix) => ix.get(key),
        }
    }
}

impl PartialEq for Map {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
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
    fn into_iter(mut self) -> Self::IntoIter {
        std::mem::take(self.entries_mut().0).into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Arc<str>, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}
