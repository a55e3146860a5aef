//! The members of an object node: in document order, found by key in logarithmic time when
//! there are many.
//!
//! Objects are read in order and most are small, so members stay a list and a small object
//! is searched from the front. Large ones (`components/schemas` of a real description holds
//! thousands of entries, and every `$ref` hop looks one up) carry an index: the positions of
//! the members sorted by key, searched by bisection. Linear search there made resolving
//! references quadratic in the size of the document.
//!
//! The list and its index live in one shared allocation behind a thin pointer
//! ([`triomphe::ThinArc`]): an object is one word inside its node, which keeps every node of
//! the tree at 24 bytes and every member at 40 (a document's memory is mostly nodes and
//! members). A tree is read far more than it is changed: a value changes in place when its
//! object owns its list ([`Members::update`]), a list that is shared (a YAML alias) or changes
//! its keys is copied first ([`Members::edit`]); copying a node shares its children.

#![expect(
    clippy::cast_possible_truncation,
    reason = "offsets, lengths and counts here are bounded by one source file's size, and the loader refuses files over 4 GiB (`LoadErrorKind::TooLarge`), so they fit the `u32` of spans"
)]

use std::fmt;
use std::ops::Deref;

use triomphe::ThinArc;

use crate::node::{Member, Node};

/// Objects with at least this many members are indexed.
const INDEXED_FROM: usize = 12;

/// The members of an object, in document order.
#[derive(Clone)]
pub struct Members(ThinArc<Option<Index>, Member>);

/// Positions of the members sorted by key (ties in document order), for large objects. Boxed:
/// it rides in the header of every object's allocation, and most objects have none.
#[derive(Clone)]
struct Index(Box<Box<[u32]>>);

impl Members {
    /// The members `members`, indexed when there are many.
    #[must_use]
    pub fn new(members: Vec<Member>) -> Self {
        let index = Self::index_of(&members);
        Members(ThinArc::from_header_and_iter(index, members.into_iter()))
    }

    /// The members `members` yields, without a list in between (the loaders' scratch stacks
    /// drain straight into the node), indexed when there are many.
    pub(crate) fn from_exact(members: impl ExactSizeIterator<Item = Member>) -> Self {
        let mut this = Members(ThinArc::from_header_and_iter(None, members));
        if let Some(index) = Self::index_of(this.as_slice()) {
            // The allocation was made just now and has no other owner. Were it shared, the
            // object would stay unindexed: lookups as right, only linear.
            this.0.with_arc_mut(|arc| {
                if let Some(inner) = triomphe::Arc::get_mut(arc) {
                    *inner.header_mut() = Some(index);
                }
            });
        }
        this
    }

    fn index_of(members: &[Member]) -> Option<Index> {
        if members.len() < INDEXED_FROM {
            return None;
        }
        let mut order: Vec<u32> = (0..members.len() as u32).collect();
        // Stable: among equal keys (loaders refuse them; built trees may not) the first stays
        // first, so lookups answer what a front-to-back search answers.
        order.sort_by(|&a, &b| {
            members[a as usize]
                .key
                .name
                .cmp(&members[b as usize].key.name)
        });
        Some(Index(Box::new(order.into_boxed_slice())))
    }

    fn index(&self) -> Option<&[u32]> {
        self.0.header.header.as_ref().map(|index| &**index.0)
    }

    /// The first member named `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Member> {
        self.as_slice().get(self.position(key)?)
    }

    /// The position (document order) of the first member named `key`.
    #[must_use]
    pub fn position(&self, key: &str) -> Option<usize> {
        let members = self.as_slice();
        match self.index() {
            None => members.iter().position(|m| same(&m.key.name, key)),
            Some(index) => {
                let name = |i: u32| &*members[i as usize].key.name;
                let at = index.partition_point(|&i| name(i) < key);
                let found = *index.get(at)?;
                (name(found) == key).then_some(found as usize)
            }
        }
    }

    /// The positions of the members sorted by key (equal keys in document order), when the
    /// object is large enough to be indexed.
    #[must_use]
    pub fn sorted_positions(&self) -> Option<&[u32]> {
        self.index()
    }

    /// Removes and returns the member at `position` (document order).
    ///
    /// # Panics
    /// When `position` is not below the number of members, as [`Vec::remove`] does.
    pub fn remove(&mut self, position: usize) -> Member {
        self.edit(|members| members.remove(position))
    }

    /// Changes the members with `change`, on a copy of the list (values are shared, not
    /// copied), then indexes the result again: keys may change.
    pub fn edit<R>(&mut self, change: impl FnOnce(&mut Vec<Member>) -> R) -> R {
        let mut members = self.as_slice().to_vec();
        let result = change(&mut members);
        *self = Members::new(members);
        result
    }

    /// Changes the value of the member at `position` with `change`: in place when this object
    /// is the only owner of its list, else on a copy.
    ///
    /// # Panics
    /// When `position` is not below the number of members, as slice indexing does.
    pub fn update<R>(&mut self, position: usize, change: impl FnOnce(&mut Node) -> R) -> R {
        let attempt = self
            .0
            .with_arc_mut(|arc| match triomphe::Arc::get_mut(arc) {
                Some(inner) => Ok(change(&mut inner.slice_mut()[position].value)),
                None => Err(change),
            });
        match attempt {
            Ok(result) => result,
            Err(change) => self.edit(|list| change(&mut list[position].value)),
        }
    }

    /// The members, in document order.
    #[must_use]
    pub fn as_slice(&self) -> &[Member] {
        &self.0.slice
    }
}

impl Default for Members {
    fn default() -> Self {
        Members::new(Vec::new())
    }
}

/// String equality that settles most mismatches of short keys without calling `memcmp`:
/// member lookups on small objects are the most frequent operation of a lint.
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

impl From<Vec<Member>> for Members {
    fn from(members: Vec<Member>) -> Self {
        Members::new(members)
    }
}

impl Deref for Members {
    type Target = [Member];

    fn deref(&self) -> &[Member] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Members {
    type Item = &'a Member;
    type IntoIter = std::slice::Iter<'a, Member>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl PartialEq for Members {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for Members {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{Key, Node, NodeKind};
    use crate::source::Span;

    fn member(name: &str, value: bool) -> Member {
        Member {
            key: Key {
                name: name.into(),
                span: Span::new(0, 0),
            },
            value: Node::new(Span::new(0, 0), NodeKind::Bool(value)),
        }
    }

    #[test]
    fn large_and_small_objects_find_what_a_front_to_back_search_finds() {
        for size in [3, INDEXED_FROM, 1000] {
            let mut list: Vec<Member> = (0..size).map(|i| member(&format!("k{i}"), true)).collect();
            // A repeated key: the first one is the one found.
            list.push(member("k1", false));
            let members = Members::new(list.clone());
            for m in &list {
                let front = list.iter().find(|x| x.key.name == m.key.name);
                assert_eq!(members.get(&m.key.name), front);
            }
            assert_eq!(members.get("absent"), None);
            assert_eq!(members.get(""), None);
        }
    }

    #[test]
    fn removing_a_member_keeps_lookups_right() {
        let mut members = Members::new((0..40).map(|i| member(&format!("k{i}"), true)).collect());
        let removed = members.remove(7);
        assert_eq!(&*removed.key.name, "k7");
        assert_eq!(members.get("k7"), None);
        assert_eq!(members.get("k39").map(|m| &*m.key.name), Some("k39"));
        assert_eq!(members.len(), 39);
    }
}
