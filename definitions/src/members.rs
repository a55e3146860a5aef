//! The members of an object node: in document order, found by key in logarithmic time when
//! there are many.
//!
//! Objects are read in order and most are small, so members stay a vector and a small object
//! is searched from the front. Large ones (`components/schemas` of a real description holds
//! thousands of entries, and every `$ref` hop looks one up) carry an index: the positions of
//! the members sorted by key, searched by bisection. Linear search there made resolving
//! references quadratic in the size of the document.

#![expect(
    clippy::cast_possible_truncation,
    reason = "offsets, lengths and counts here are bounded by one source file's size, and the loader refuses files over 4 GiB (`LoadErrorKind::TooLarge`), so they fit the `u32` of spans"
)]

use std::fmt;
use std::ops::Deref;

use crate::node::Member;

/// Objects with at least this many members are indexed.
const INDEXED_FROM: usize = 12;

/// The members of an object, in document order.
#[derive(Clone, Default)]
pub struct Members {
    members: Vec<Member>,
    /// Positions of `members` sorted by key (ties in document order), for large objects.
    index: Option<Box<Index>>,
}

#[derive(Clone)]
struct Index(Box<[u32]>);

impl Members {
    /// The members `members`, indexed when there are many.
    #[must_use]
    pub fn new(members: Vec<Member>) -> Self {
        let index = Self::index_of(&members);
        Members { members, index }
    }

    fn index_of(members: &[Member]) -> Option<Box<Index>> {
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
        Some(Box::new(Index(order.into_boxed_slice())))
    }

    /// The first member named `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Member> {
        self.members.get(self.position(key)?)
    }

    /// The position (document order) of the first member named `key`.
    #[must_use]
    pub fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            None => self.members.iter().position(|m| same(&m.key.name, key)),
            Some(index) => {
                let name = |i: u32| &*self.members[i as usize].key.name;
                let at = index.0.partition_point(|&i| name(i) < key);
                let found = *index.0.get(at)?;
                (name(found) == key).then_some(found as usize)
            }
        }
    }

    /// The positions of the members sorted by key (equal keys in document order), when the
    /// object is large enough to be indexed.
    #[must_use]
    pub fn sorted_positions(&self) -> Option<&[u32]> {
        self.index.as_deref().map(|index| &*index.0)
    }

    /// Removes and returns the member at `position` (document order).
    pub fn remove(&mut self, position: usize) -> Member {
        let member = self.members.remove(position);
        self.index = Self::index_of(&self.members);
        member
    }

    /// The members, in document order.
    #[must_use]
    pub fn as_slice(&self) -> &[Member] {
        &self.members
    }

    /// The value of the first member named `key`, to change in place (keys cannot change:
    /// the index is by key).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut crate::node::Node> {
        let position = self.position(key)?;
        Some(&mut self.members[position].value)
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
        &self.members
    }
}

impl<'a> IntoIterator for &'a Members {
    type Item = &'a Member;
    type IntoIter = std::slice::Iter<'a, Member>;

    fn into_iter(self) -> Self::IntoIter {
        self.members.iter()
    }
}

impl PartialEq for Members {
    fn eq(&self, other: &Self) -> bool {
        self.members == other.members
    }
}

impl fmt::Debug for Members {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.members, f)
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
