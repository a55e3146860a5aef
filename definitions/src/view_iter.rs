//! Iterating the views of consecutive entries of one of a tree's lists: an object's members
//! ([`crate::MembersIter`]) and an array's items ([`crate::ItemsIter`]).

use crate::tree::Tree;

/// Makes the view of entry `at` of a list, the `position`th of its object or array.
pub(crate) type MakeView<'t, V> = fn(&'t Tree, u32, u32) -> V;

/// The views of the entries `first..end` of a tree's list, made as they are read.
#[derive(Clone)]
pub struct ViewIter<'t, V> {
    tree: &'t Tree,
    first: u32,
    next: u32,
    end: u32,
    view: MakeView<'t, V>,
}

impl<'t, V> ViewIter<'t, V> {
    pub(crate) fn new(tree: &'t Tree, first: u32, len: u32, view: MakeView<'t, V>) -> Self {
        ViewIter {
            tree,
            first,
            next: first,
            end: first.saturating_add(len),
            view,
        }
    }
}

impl<V> Iterator for ViewIter<'_, V> {
    type Item = V;

    fn next(&mut self) -> Option<V> {
        if self.next >= self.end {
            return None;
        }
        let at = self.next;
        self.next += 1;
        Some((self.view)(self.tree, at, at - self.first))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.end - self.next) as usize;
        (left, Some(left))
    }

    fn nth(&mut self, n: usize) -> Option<V> {
        self.next = self
            .next
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX))
            .min(self.end);
        self.next()
    }
}

impl<V> DoubleEndedIterator for ViewIter<'_, V> {
    fn next_back(&mut self) -> Option<V> {
        if self.next >= self.end {
            return None;
        }
        self.end -= 1;
        Some((self.view)(self.tree, self.end, self.end - self.first))
    }
}

impl<V> ExactSizeIterator for ViewIter<'_, V> {}
