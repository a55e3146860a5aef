//! Paths that are singular but for one filter step.
//!
//! `$.account.addresses[?(@.isBilling==true)].city` is how templates pick one item of a list,
//! and a template often reads several members of that item: each read would otherwise take
//! the general walk, with a callback per step and a linear member search at every level.
//! Here the part before the filter and the part after it are walked like singular paths
//! (remembering where each member was found), and the filter runs over the array between.

use std::sync::Arc;

use super::filter::compare;
use super::{CmpOp, FilterExpr, Hops, Operand, Step, StepKind};
use crate::value::Value;

#[derive(Clone, Debug)]
pub(super) struct Filtered {
    /// The path's text up to and including the filter: two paths with the same prefix text
    /// select the same items of the same array from the same root, which is what lets a
    /// [`FilterMemo`] serve the second.
    prefix: Arc<str>,
    /// The singular steps before the filter (the root step dropped).
    before: Hops,
    filter: Test,
    /// The singular steps after the filter.
    after: Hops,
}

/// The filter's test of one item.
#[derive(Clone, Debug)]
enum Test {
    /// `@.a.b op literal` (or `literal op @.a.b`, turned around): one member read the way
    /// singular paths read them, one comparison.
    Member {
        member: Hops,
        op: CmpOp,
        literal: Value,
    },
    /// Any other filter.
    General(FilterExpr),
}

impl Test {
    fn of(filter: &FilterExpr) -> Test {
        let FilterExpr::Compare { left, op, right } = filter else {
            return Test::General(filter.clone());
        };
        let (steps, op, literal) = match (left, right) {
            (Operand::Path(steps), Operand::Literal(v)) => (steps, *op, v),
            (Operand::Literal(v), Operand::Path(steps)) => (steps, op.turned_around(), v),
            _ => return Test::General(filter.clone()),
        };
        match steps.split_first() {
            Some((first, rest)) if first.kind == StepKind::Current && !first.recursive => {
                match Hops::of(rest) {
                    Some(member) => Test::Member {
                        member,
                        op,
                        literal: literal.clone(),
                    },
                    None => Test::General(filter.clone()),
                }
            }
            _ => Test::General(filter.clone()),
        }
    }

    #[inline]
    fn passes(&self, item: &Value, root: &Value) -> bool {
        match self {
            Test::Member {
                member,
                op,
                literal,
            } => member
                .select(item)
                .is_some_and(|v| compare(v, *op, literal)),
            Test::General(filter) => filter.matches(item, root),
        }
    }
}

impl Filtered {
    /// The shape of `steps`, if exactly one of them is a filter, it is not a recursive
    /// descent, and every other step is a member name or an index.
    pub(super) fn of(steps: &[Step], text: &str) -> Option<Filtered> {
        let at = steps
            .iter()
            .position(|s| matches!(s.kind, StepKind::Filter(_)))?;
        let step = &steps[at];
        let StepKind::Filter(filter) = &step.kind else {
            return None;
        };
        if step.recursive {
            return None;
        }
        Some(Filtered {
            prefix: text.get(..step.span.end)?.into(),
            before: Hops::of(&steps[..at])?,
            filter: Test::of(filter),
            after: Hops::of(&steps[at + 1..])?,
        })
    }

    /// Calls `f` with every selected token, in document order, as the general walk would.
    #[inline]
    pub(super) fn select<'v>(&self, root: &'v Value, mut f: impl FnMut(&'v Value)) {
        // The general walk applies a filter to array items only.
        let Some(Value::Array(items)) = self.before.select(root) else {
            return;
        };
        for item in items.iter() {
            if self.filter.passes(item, root)
                && let Some(v) = self.after.select(item)
            {
                f(v);
            }
        }
    }
}

/// The items the last filtered read of one apply kept, for the reads after it.
///
/// A template that picks one item of a list usually reads several of its members
/// (`$.account.addresses[?(@.isBilling==true)].city`, then `.region`, ...): every read would
/// walk to the array and test each item again. The memo keeps, for the last prefix read, the
/// root it was read from, the array and which items passed (arrays of up to 64 items).
///
/// The root is recognised by the address of its shared object or array, and the memo holds a
/// reference to it: values are never changed in place while shared, and the address cannot
/// be reused for another value while the memo keeps this one alive, so the same address means
/// the same value. A root that is not an object or an array is never remembered.
#[derive(Debug, Default)]
pub(crate) struct FilterMemo {
    last: Option<Kept>,
}

#[derive(Debug)]
struct Kept {
    prefix: Arc<str>,
    root: Value,
    items: Arc<Vec<Value>>,
    /// Bit `i` is set when item `i` passed the filter.
    passed: u64,
}

impl FilterMemo {
    fn holds(&self, prefix: &Arc<str>, root: &Value) -> bool {
        let Some(kept) = &self.last else {
            return false;
        };
        let same_root = match (&kept.root, root) {
            (Value::Object(a), Value::Object(b)) => Arc::ptr_eq(a, b),
            (Value::Array(a), Value::Array(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        same_root && (Arc::ptr_eq(&kept.prefix, prefix) || kept.prefix == *prefix)
    }
}

impl Filtered {
    /// [`Filtered::select`], through `memo`: the items a read of the same prefix from the same
    /// root kept are used as they are, and this read's are kept otherwise.
    #[inline]
    pub(super) fn select_memo<'m>(
        &self,
        root: &'m Value,
        memo: &'m mut FilterMemo,
        mut f: impl FnMut(&'m Value),
    ) {
        if !memo.holds(&self.prefix, root) {
            let Some(Value::Array(items)) = self.before.select(root) else {
                return;
            };
            if items.len() > 64 {
                return self.select(root, f);
            }
            let mut passed = 0u64;
            for (i, item) in items.iter().enumerate() {
                if self.filter.passes(item, root) {
                    passed |= 1 << i;
                }
            }
            memo.last = Some(Kept {
                prefix: self.prefix.clone(),
                root: root.clone(),
                items: items.clone(),
                passed,
            });
        }
        let memo: &'m FilterMemo = memo;
        let Some(kept) = &memo.last else {
            return;
        };
        let mut passed = kept.passed;
        while passed != 0 {
            let i = passed.trailing_zeros() as usize;
            passed &= passed - 1;
            if let Some(v) = kept.items.get(i).and_then(|item| self.after.select(item)) {
                f(v);
            }
        }
    }
}
