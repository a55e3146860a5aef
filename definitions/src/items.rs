//! The items of an array node, behind one thin pointer.
//!
//! Like an object's [`Members`](crate::Members), the items live in one shared allocation
//! ([`triomphe::ThinArc`]) so that an array takes one word inside its node. Copying a node
//! shares its items; an item changes in place when the array owns its list
//! ([`Items::update`]), else on a copy.

use std::fmt;
use std::ops::Deref;

use triomphe::ThinArc;

use crate::node::Node;

/// The items of an array, in document order.
#[derive(Clone)]
pub struct Items(ThinArc<(), Node>);

impl Items {
    /// The items `items`.
    #[must_use]
    pub fn new(items: Vec<Node>) -> Self {
        Items(ThinArc::from_header_and_iter((), items.into_iter()))
    }

    /// The items `items` yields, without a list in between (the loaders' scratch stacks
    /// drain straight into the node).
    pub(crate) fn from_exact(items: impl ExactSizeIterator<Item = Node>) -> Self {
        Items(ThinArc::from_header_and_iter((), items))
    }

    /// Changes the item at `position` with `change`: in place when this array is the only
    /// owner of its list, else on a copy.
    ///
    /// # Panics
    /// When `position` is not below the number of items, as slice indexing does.
    pub fn update<R>(&mut self, position: usize, change: impl FnOnce(&mut Node) -> R) -> R {
        let attempt = self
            .0
            .with_arc_mut(|arc| match triomphe::Arc::get_mut(arc) {
                Some(inner) => Ok(change(&mut inner.slice_mut()[position])),
                None => Err(change),
            });
        match attempt {
            Ok(result) => result,
            Err(change) => self.edit(|list| change(&mut list[position])),
        }
    }

    /// The items, in document order.
    #[must_use]
    pub fn as_slice(&self) -> &[Node] {
        &self.0.slice
    }

    /// Changes the items with `change`, on a copy of the list (nested values are shared, not
    /// copied).
    pub fn edit<R>(&mut self, change: impl FnOnce(&mut Vec<Node>) -> R) -> R {
        let mut items = self.as_slice().to_vec();
        let result = change(&mut items);
        *self = Items::new(items);
        result
    }
}

impl Default for Items {
    fn default() -> Self {
        Items::new(Vec::new())
    }
}

impl From<Vec<Node>> for Items {
    fn from(items: Vec<Node>) -> Self {
        Items::new(items)
    }
}

impl FromIterator<Node> for Items {
    fn from_iter<I: IntoIterator<Item = Node>>(iter: I) -> Self {
        Items::new(iter.into_iter().collect())
    }
}

impl Deref for Items {
    type Target = [Node];

    fn deref(&self) -> &[Node] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Items {
    type Item = &'a Node;
    type IntoIter = std::slice::Iter<'a, Node>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl PartialEq for Items {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for Items {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}
