//! The members of an object node: in document order, found by key in logarithmic time when
//! there are many.
//!
//! Objects are read in order and most are small, so a small object is searched from the
//! front. Large ones (`components/schemas` of a real description holds thousands of entries,
//! and every `$ref` hop looks one up) carry an index built when they were loaded: the positions
//! of the members sorted by key, searched by bisection. Linear search there made resolving
//! references quadratic in the size of the document.

#![expect(
    clippy::cast_possible_truncation,
    reason = "a position below a list's length, which the tree counts in `u32`"
)]

use std::fmt;

use crate::node::{Key, Member};
use crate::tree::Tree;
use crate::view_iter::ViewIter;

/// The members of an object, in document order: a view into its [`Tree`].
#[derive(Clone, Copy)]
pub struct Members<'t> {
    tree: &'t Tree,
    first: u32,
    len: u32,
}

impl<'t> Members<'t> {
    pub(crate) fn new(tree: &'t Tree, first: u32, len: u32) -> Self {
        Members { tree, first, len }
    }

    /// Where the members are in the tree's list: the first and how many. Two objects share
    /// them only when one is a YAML alias of the other.
    pub(crate) fn range(&self) -> (u32, u32) {
        (self.first, self.len)
    }

    /// How many members there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the object is `{}`.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The members, in document order.
    #[must_use]
    pub fn iter(&self) -> MembersIter<'t> {
        ViewIter::new(self.tree, self.first, self.len, member_at)
    }

    /// The member at `position` (document order).
    #[must_use]
    pub fn at(&self, position: usize) -> Option<Member<'t>> {
        (position < self.len()).then(|| self.member(self.first + position as u32))
    }

    /// The member of an object that has exactly one.
    #[must_use]
    pub fn only(&self) -> Option<Member<'t>> {
        if self.len == 1 { self.first() } else { None }
    }

    /// The first member.
    #[must_use]
    pub fn first(&self) -> Option<Member<'t>> {
        self.at(0)
    }

    /// The last member.
    #[must_use]
    pub fn last(&self) -> Option<Member<'t>> {
        self.len().checked_sub(1).and_then(|at| self.at(at))
    }

    /// The key of the member at `position`, without reading its value.
    #[must_use]
    pub fn name_at(&self, position: usize) -> Option<&'t str> {
        (position < self.len()).then(|| self.tree.key_name(self.first + position as u32))
    }

    fn member(&self, at: u32) -> Member<'t> {
        member_at(self.tree, at, at - self.first)
    }

    /// The first member named `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<Member<'t>> {
        let at = self.position(key)?;
        Some(self.member(self.first + at as u32))
    }

    /// The position (document order) of the first member named `key`.
    #[must_use]
    pub fn position(&self, key: &str) -> Option<usize> {
        let name = |i: u32| self.tree.key_name(self.first + i);
        match self.sorted_positions() {
            None => (0..self.len).position(|i| same(name(i), key)),
            Some(index) => {
                let at = index.partition_point(|&i| name(i) < key);
                let found = *index.get(at)?;
                (name(found) == key).then_some(found as usize)
            }
        }
    }

    /// The positions of the members sorted by key (equal keys in document order), when the
    /// object is large enough to be indexed.
    #[must_use]
    pub fn sorted_positions(&self) -> Option<&'t [u32]> {
        if (self.len as usize) < crate::tree::INDEXED_FROM {
            return None;
        }
        self.tree.index_of(self.first)
    }
}

/// The view of member `at` of `tree`'s list, the `position`th of its object.
fn member_at(tree: &Tree, at: u32, position: u32) -> Member<'_> {
    let slot = tree.member_slot(at);
    Member {
        key: Key {
            name: tree.key_name(at),
            span: slot.key_span(),
        },
        value: tree.view(slot.value_slot()),
        position,
    }
}

/// String equality that settles most mismatches of short keys without calling `memcmp`:
/// member lookups on small objects are the most frequent operation of a lint.
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// The members of an object, in document order.
pub type MembersIter<'t> = ViewIter<'t, Member<'t>>;

impl<'t> IntoIterator for Members<'t> {
    type Item = Member<'t>;
    type IntoIter = MembersIter<'t>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'t> IntoIterator for &Members<'t> {
    type Item = Member<'t>;
    type IntoIter = MembersIter<'t>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Default for Members<'_> {
    /// No members (of no tree).
    fn default() -> Self {
        Members::new(&crate::tree::EMPTY, 0, 0)
    }
}

impl PartialEq for Members<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for Members<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use crate::SourceFile;
    use crate::tree::INDEXED_FROM;

    fn object(keys: &[String]) -> String {
        let members: Vec<String> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| format!("\"{k}\": {i}"))
            .collect();
        format!("{{{}}}", members.join(", "))
    }

    #[test]
    fn large_and_small_objects_find_what_a_front_to_back_search_finds() {
        for size in [3, INDEXED_FROM, 1000] {
            let keys: Vec<String> = (0..size).map(|i| format!("k{i}")).collect();
            let doc = crate::load::load(SourceFile::new("t.json", object(&keys))).expect("loads");
            let root = doc.tree.root();
            let members = root.as_object().expect("an object");
            assert_eq!(members.sorted_positions().is_some(), size >= INDEXED_FROM);
            for (i, m) in members.iter().enumerate() {
                assert_eq!(members.get(m.key.name), Some(m));
                assert_eq!(members.position(m.key.name), Some(i));
            }
            assert_eq!(members.get("absent"), None);
            assert_eq!(members.get(""), None);
        }
    }

    #[test]
    fn escaped_keys_are_found_by_their_decoded_name() {
        let doc =
            crate::load::load(SourceFile::new("t.json", r#"{"a\/b": 1, "c": 2}"#)).expect("loads");
        let root = doc.tree.root();
        assert_eq!(root.member("a/b").map(|m| m.key.span.start), Some(1));
        assert_eq!(root.member("c").map(|m| m.key.name), Some("c"));
    }
}
