//! Filter expressions `[?( ... )]` and their Newtonsoft semantics.

use std::cmp::Ordering;

use super::Step;
use super::eval;
use crate::value::{Value, dotnet};

/// A filter expression.
#[derive(Clone, Debug, PartialEq)]
pub enum FilterExpr {
    /// `a || b`.
    Or(Box<FilterExpr>, Box<FilterExpr>),
    /// `a && b`.
    And(Box<FilterExpr>, Box<FilterExpr>),
    /// A lone path: true when it selects anything (a `null` value counts).
    Exists(Operand),
    /// `left op right`: true when any pair of selected tokens satisfies `op`.
    Compare {
        /// Left side.
        left: Operand,
        /// Operator.
        op: CmpOp,
        /// Right side.
        right: Operand,
    },
    /// `left =~ /regex/flags`.
    Matches {
        /// The tested side.
        left: Operand,
        /// The compiled regular expression.
        regex: PathRegex,
    },
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator that gives the same answer with its sides swapped (`a < b` is `b > a`).
    pub(super) fn turned_around(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            same => same,
        }
    }
}

/// One side of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A path from `@` (the current item) or `$` (the root); its first step says which.
    Path(Vec<Step>),
    /// A literal.
    Literal(Value),
}

/// A regular expression compiled with the path (never at evaluation time).
#[derive(Clone, Debug)]
pub struct PathRegex(regex::Regex);

impl PartialEq for PathRegex {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

impl PathRegex {
    /// Compiles `/body/flags` (flags `i`, `m`, `s`, `x` as in .NET).
    pub(super) fn new(body: &str, flags: &str) -> Result<Self, String> {
        let mut b = regex::RegexBuilder::new(body);
        for f in flags.chars() {
            match f {
                'i' => b.case_insensitive(true),
                'm' => b.multi_line(true),
                's' => b.dot_matches_new_line(true),
                'x' => b.ignore_whitespace(true),
                other => return Err(format!("unknown regular expression flag '{other}'")),
            };
        }
        // Keep hostile patterns from allocating without bound.
        b.size_limit(1 << 20);
        b.build()
            .map(PathRegex)
            .map_err(|e| format!("invalid regular expression: {e}"))
    }

    /// The pattern text.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl FilterExpr {
    pub(super) fn matches(&self, current: &Value, root: &Value) -> bool {
        match self {
            FilterExpr::Or(a, b) => a.matches(current, root) || b.matches(current, root),
            FilterExpr::And(a, b) => a.matches(current, root) && b.matches(current, root),
            FilterExpr::Exists(op) => {
                let mut found = false;
                op.each(current, root, &mut |_| found = true);
                found
            }
            FilterExpr::Compare { left, op, right } => {
                // The usual filter, `@.member == literal`: each side is one token at most.
                if let (Some(l), Some(r)) =
                    (left.single(current, root), right.single(current, root))
                {
                    return matches!((l, r), (Some(l), Some(r)) if compare(l, *op, r));
                }
                let mut hit = false;
                left.each(current, root, &mut |l| {
                    if !hit {
                        right.each(current, root, &mut |r| {
                            hit = hit || compare(l, *op, r);
                        });
                    }
                });
                hit
            }
            FilterExpr::Matches { left, regex } => {
                let mut hit = false;
                left.each(current, root, &mut |l| {
                    hit = hit || l.as_str().is_some_and(|s| regex.0.is_match(s));
                });
                hit
            }
        }
    }
}

impl Operand {
    /// The one token a literal or a path of member names and indexes stands for (`None`
    /// when the operand may select several).
    #[inline]
    #[expect(
        clippy::option_option,
        reason = "the two levels say different things, as documented: several tokens possible, or none selected"
    )]
    fn single<'v>(&'v self, current: &'v Value, root: &'v Value) -> Option<Option<&'v Value>> {
        match self {
            Operand::Literal(v) => Some(Some(v)),
            Operand::Path(steps) => eval::select_member_chain(steps, self.start(current, root)),
        }
    }

    fn start<'v>(&self, current: &'v Value, root: &'v Value) -> &'v Value {
        match self {
            Operand::Path(steps)
                if matches!(steps.first().map(|s| &s.kind), Some(super::StepKind::Root)) =>
            {
                root
            }
            _ => current,
        }
    }

    fn each<'v>(&'v self, current: &'v Value, root: &'v Value, f: &mut dyn FnMut(&'v Value)) {
        match self {
            Operand::Literal(v) => f(v),
            Operand::Path(steps) => {
                let start = self.start(current, root);
                match eval::select_member_chain(steps, start) {
                    Some(found) => found.into_iter().for_each(f),
                    None => eval::select_steps(steps, start, root, f),
                }
            }
        }
    }
}

/// Newtonsoft's `EqualsWithStringCoercion` and `JValue.Compare`: values of the same kind
/// compare, numbers compare across integer and float; containers only satisfy `!=`.
pub(super) fn compare(l: &Value, op: CmpOp, r: &Value) -> bool {
    let containers = |v: &Value| matches!(v, Value::Array(_) | Value::Object(_));
    if containers(l) || containers(r) {
        return op == CmpOp::Ne;
    }
    let ord: Option<Ordering> = match (l, r) {
        (Value::Null, Value::Null) => Some(Ordering::Equal),
        (Value::Bool(a), Value::Bool(b)) => Some(a.cmp(b)),
        (Value::String(a), Value::String(b)) => Some(a.as_ref().cmp(b.as_ref())),
        (a, b) if a.is_number() && b.is_number() => dotnet::cmp_numbers(a, b),
        _ => None,
    };
    match op {
        CmpOp::Eq => ord == Some(Ordering::Equal),
        CmpOp::Ne => ord != Some(Ordering::Equal),
        CmpOp::Lt => ord == Some(Ordering::Less),
        CmpOp::Le => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
        CmpOp::Gt => ord == Some(Ordering::Greater),
        CmpOp::Ge => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
    }
}
