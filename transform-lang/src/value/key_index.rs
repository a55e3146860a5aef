//! The hash index of a large object's keys: key -> position among its members.
//!
//! Records and template objects have a few dozen keys at most, where a scan beats hashing, so
//! only objects above [`INDEX_AFTER`] members keep an index; without it, an object of many
//! members (a record keyed by id, a hostile input) would make building it and reading its
//! members quadratic. The default hasher is randomly keyed, so chosen keys cannot make the
//! index itself degrade.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;

/// Members an object holds before it keeps a key index.
pub(crate) const INDEX_AFTER: usize = 32;

/// Key -> position among the members.
#[derive(Clone, Debug, Default)]
pub(super) struct KeyIndex(HashMap<Arc<str>, usize>);

impl KeyIndex {
    /// The index of distinct `keys`, in order; `None` when one repeats.
    pub(super) fn of<'a>(keys: impl ExactSizeIterator<Item = &'a Arc<str>>) -> Option<KeyIndex> {
        let mut index = HashMap::with_capacity(keys.len());
        for (i, k) in keys.enumerate() {
            match index.entry(Arc::clone(k)) {
                Entry::Occupied(_) => return None,
                Entry::Vacant(slot) => {
                    slot.insert(i);
                }
            }
        }
        Some(KeyIndex(index))
    }

    /// The position of `key`.
    #[inline]
    pub(super) fn get(&self, key: &str) -> Option<usize> {
        self.0.get(key).copied()
    }

    /// Records a new key appended at position `at`.
    pub(super) fn push(&mut self, key: Arc<str>, at: usize) {
        self.0.insert(key, at);
    }

    /// Forgets `key`, removed from position `at`: the members after it move one place up.
    pub(super) fn remove(&mut self, key: &str, at: usize) {
        self.0.remove(key);
        for p in self.0.values_mut() {
            if *p > at {
                *p -= 1;
            }
        }
    }
}
