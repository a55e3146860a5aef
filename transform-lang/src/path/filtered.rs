//! Paths that are singular but for one filter step.
//!
//! `$.account.addresses[?(@.isBilling==true)].city` is how templates pick one item of a list,
//! and a template often reads several members of that item: each read would otherwise take
//! the general walk, with a callback per step and a linear member search at every level.
//! Here the part before the filter and the part after it are walked like singular paths
//! (remembering where each member was found), and the filter runs over the array between.

use super::filter::compare;
use super::{CmpOp, FilterExpr, Hops, Operand, Step, StepKind};
use crate::value::Value;

#[derive(Clone, Debug)]
pub(super) struct Filtered {
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
    pub(super) fn of(steps: &[Step]) -> Option<Filtered> {
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
                f(v)
            }
        }
    }
}
