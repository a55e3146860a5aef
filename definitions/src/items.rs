//! The items of an array node: a view into its [`Tree`], in document order.

#![expect(
    clippy::cast_possible_truncation,
    reason = "a position below a list's length, which the tree counts in `u32`"
)]

use std::fmt;

use crate::node::Node;
use crate::tree::Tree;
use crate::view_iter::ViewIter;

/// The items of an array, in document order.
#[derive(Clone, Copy)]
pub struct Items<'t> {
    tree: &'t Tree,
    first: u32,
    len: u32,
}

impl<'t> Items<'t> {
    pub(crate) fn new(tree: &'t Tree, first: u32, len: u32) -> Self {
        Items { tree, first, len }
    }

    /// Where the items are in the tree's list: the first and how many.
    pub(crate) fn range(&self) -> (u32, u32) {
        (self.first, self.len)
    }

    /// How many items there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the array is `[]`.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The item at `position`.
    #[must_use]
    pub fn get(&self, position: usize) -> Option<Node<'t>> {
        (position < self.len()).then(|| {
            self.tree
                .view(self.tree.item_slot(self.first + position as u32))
        })
    }

    /// The first item.
    #[must_use]
    pub fn first(&self) -> Option<Node<'t>> {
        self.get(0)
    }

    /// The last item.
    #[must_use]
    pub fn last(&self) -> Option<Node<'t>> {
        self.len().checked_sub(1).and_then(|at| self.get(at))
    }

    /// The items, in document order.
    #[must_use]
    pub fn iter(&self) -> ItemsIter<'t> {
        ViewIter::new(self.tree, self.first, self.len, item_at)
    }
}

/// The items of an array, in document order.
pub type ItemsIter<'t> = ViewIter<'t, Node<'t>>;

/// The view of item `at` of `tree`'s list.
fn item_at(tree: &Tree, at: u32, _position: u32) -> Node<'_> {
    tree.view(tree.item_slot(at))
}

impl<'t> IntoIterator for Items<'t> {
    type Item = Node<'t>;
    type IntoIter = ItemsIter<'t>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'t> IntoIterator for &Items<'t> {
    type Item = Node<'t>;
    type IntoIter = ItemsIter<'t>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Default for Items<'_> {
    /// No items (of no tree).
    fn default() -> Self {
        Items::new(&crate::tree::EMPTY, 0, 0)
    }
}

impl PartialEq for Items<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for Items<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
