//! Evaluation of steps against borrowed values.

use super::{JsonPath, Step, StepKind};
use crate::value::Value;

/// Recursive descent stops below this depth; values built by templates are bounded far
/// below it, so this only guards values assembled by hand.
const MAX_SCAN_DEPTH: usize = 2048;

/// A location segment borrowed from the value.
#[derive(Clone, Copy, Debug)]
pub(super) enum Seg<'v> {
    Key(&'v str),
    Index(usize),
}

impl Seg<'_> {
    pub(super) fn to_owned_segment(self) -> super::Segment {
        match self {
            Seg::Key(k) => super::Segment::Key(k.into()),
            Seg::Index(i) => super::Segment::Index(i),
        }
    }
}

/// Receives the selected tokens; `TRACK` says whether locations are wanted, so that plain
/// selection pays nothing for them.
trait Sink<'v> {
    const TRACK: bool;
    fn emit(&mut self, v: &'v Value, loc: &[Seg<'v>]);
}

struct Plain<'f, 'v>(&'f mut dyn FnMut(&'v Value));

impl<'v> Sink<'v> for Plain<'_, 'v> {
    const TRACK: bool = false;
    fn emit(&mut self, v: &'v Value, _: &[Seg<'v>]) {
        (self.0)(v);
    }
}

struct Located<'f, 'v>(&'f mut dyn FnMut(&'v Value, &[Seg<'v>]));

impl<'v> Sink<'v> for Located<'_, 'v> {
    const TRACK: bool = true;
    fn emit(&mut self, v: &'v Value, loc: &[Seg<'v>]) {
        (self.0)(v, loc);
    }
}

pub(super) fn select<'v>(path: &JsonPath, root: &'v Value, f: &mut dyn FnMut(&'v Value)) {
    select_steps(&path.steps, root, root, f);
}

pub(super) fn select_steps<'v>(
    steps: &[Step],
    start: &'v Value,
    root: &'v Value,
    f: &mut dyn FnMut(&'v Value),
) {
    walk(steps, start, root, &mut Vec::new(), &mut Plain(f));
}

pub(super) fn select_located<'v>(
    path: &JsonPath,
    root: &'v Value,
    f: &mut dyn FnMut(&'v Value, &[Seg<'v>]),
) {
    walk(&path.steps, root, root, &mut Vec::new(), &mut Located(f));
}

/// A filter operand such as `@.isBilling` made of names and indexes only: the one token it
/// selects from `start`, found without the callbacks of a general walk. `None` when the
/// steps are not all of that kind (`Some(None)` when they are and nothing matches).
#[expect(
    clippy::option_option,
    reason = "the two levels say different things, as documented: not a plain chain, or nothing selected"
)]
pub(super) fn select_member_chain<'v>(
    steps: &[Step],
    start: &'v Value,
) -> Option<Option<&'v Value>> {
    let mut cur = Some(start);
    for s in steps {
        if s.recursive {
            return None;
        }
        cur = match (&s.kind, cur) {
            (StepKind::Root | StepKind::Current, c) => c,
            (StepKind::Member(name), Some(Value::Object(o))) => o.get(name),
            (StepKind::Index(i), Some(Value::Array(a))) => {
                usize::try_from(*i).ok().and_then(|i| a.get(i))
            }
            (StepKind::Member(_) | StepKind::Index(_), _) => None,
            _ => return None,
        };
    }
    Some(cur)
}

fn walk<'v, S: Sink<'v>>(
    steps: &[Step],
    node: &'v Value,
    root: &'v Value,
    loc: &mut Vec<Seg<'v>>,
    sink: &mut S,
) {
    let Some((step, rest)) = steps.split_first() else {
        sink.emit(node, loc);
        return;
    };
    if step.recursive {
        match &step.kind {
            StepKind::Filter(expr) => {
                descendants_and_self(node, loc, 0, &mut |d, loc| {
                    if expr.matches(d, root) {
                        walk(rest, d, root, loc, sink);
                    }
                });
            }
            // Newtonsoft ignores `..` before index selectors.
            StepKind::Index(_)
            | StepKind::Indexes(_)
            | StepKind::AnyIndex
            | StepKind::Slice { .. } => apply(step, rest, node, root, loc, sink),
            kind => scan(kind, rest, node, root, loc, sink, 0),
        }
        return;
    }
    apply(step, rest, node, root, loc, sink);
}

fn with<'v, S: Sink<'v>>(
    seg: Seg<'v>,
    rest: &[Step],
    v: &'v Value,
    root: &'v Value,
    loc: &mut Vec<Seg<'v>>,
    sink: &mut S,
) {
    if S::TRACK {
        loc.push(seg);
    }
    walk(rest, v, root, loc, sink);
    if S::TRACK {
        loc.pop();
    }
}

fn apply<'v, S: Sink<'v>>(
    step: &Step,
    rest: &[Step],
    node: &'v Value,
    root: &'v Value,
    loc: &mut Vec<Seg<'v>>,
    sink: &mut S,
) {
    match (&step.kind, node) {
        (StepKind::Root | StepKind::Current, _) => walk(rest, node, root, loc, sink),
        (StepKind::Member(name), Value::Object(o)) => {
            if let Some((k, v)) = o.get_key_value(name) {
                with(Seg::Key(k), rest, v, root, loc, sink);
            }
        }
        (StepKind::Members(names), Value::Object(o)) => {
            for name in names {
                if let Some((k, v)) = o.get_key_value(name) {
                    with(Seg::Key(k), rest, v, root, loc, sink);
                }
            }
        }
        (StepKind::AnyMember, Value::Object(o)) => {
            for (k, v) in o.iter() {
                with(Seg::Key(k), rest, v, root, loc, sink);
            }
        }
        (StepKind::Index(i), Value::Array(a)) => {
            if let Some((i, v)) = usize::try_from(*i).ok().and_then(|i| Some((i, a.get(i)?))) {
                with(Seg::Index(i), rest, v, root, loc, sink);
            }
        }
        (StepKind::Indexes(ix), Value::Array(a)) => {
            for i in ix {
                if let Some((i, v)) = usize::try_from(*i).ok().and_then(|i| Some((i, a.get(i)?))) {
                    with(Seg::Index(i), rest, v, root, loc, sink);
                }
            }
        }
        (StepKind::AnyIndex, Value::Array(a)) => {
            for (i, v) in a.iter().enumerate() {
                with(Seg::Index(i), rest, v, root, loc, sink);
            }
        }
        (StepKind::Slice { start, end, step }, Value::Array(a)) => {
            for i in slice_indexes(a.len(), *start, *end, *step) {
                with(Seg::Index(i), rest, &a[i], root, loc, sink);
            }
        }
        (StepKind::Filter(expr), Value::Array(a)) => {
            for (i, v) in a.iter().enumerate() {
                if expr.matches(v, root) {
                    with(Seg::Index(i), rest, v, root, loc, sink);
                }
            }
        }
        _ => {}
    }
}

/// Newtonsoft's `ArraySliceFilter` indexes.
#[expect(
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "`len` is a vector's length (at most `isize::MAX`) and only indexes inside `0..len` are cast back"
)]
fn slice_indexes(
    len: usize,
    start: Option<i64>,
    end: Option<i64>,
    step: Option<i64>,
) -> Vec<usize> {
    let n = len as i64;
    let step = step.unwrap_or(1);
    if step == 0 {
        return Vec::new();
    }
    let positive = step > 0;
    let mut s = start.unwrap_or(if positive { 0 } else { n - 1 });
    let mut e = end.unwrap_or(if positive { n } else { -1 });
    if start.is_some_and(|x| x < 0) {
        s += n;
    }
    if end.is_some_and(|x| x < 0) {
        e += n;
    }
    s = if positive {
        s.max(0).min(n)
    } else {
        s.min(n - 1)
    };
    e = e.max(-1).min(n);
    let mut out = Vec::new();
    let mut i = s;
    while if positive { i < e } else { i > e } {
        if (0..n).contains(&i) {
            out.push(i as usize);
        }
        i += step;
    }
    out
}

/// Newtonsoft's `ScanFilter`: visits descendants in document order and selects member values
/// whose name matches (every descendant for `..*`).
fn scan<'v, S: Sink<'v>>(
    kind: &StepKind,
    rest: &[Step],
    node: &'v Value,
    root: &'v Value,
    loc: &mut Vec<Seg<'v>>,
    sink: &mut S,
    depth: usize,
) {
    if depth > MAX_SCAN_DEPTH {
        return;
    }
    match node {
        Value::Object(o) => {
            for (k, v) in o.iter() {
                let hit = match kind {
                    StepKind::Member(n) => n.as_ref() == k.as_ref(),
                    StepKind::Members(ns) => ns.iter().any(|n| n.as_ref() == k.as_ref()),
                    StepKind::AnyMember => true,
                    _ => false,
                };
                if S::TRACK {
                    loc.push(Seg::Key(k));
                }
                if hit {
                    walk(rest, v, root, loc, sink);
                }
                scan(kind, rest, v, root, loc, sink, depth + 1);
                if S::TRACK {
                    loc.pop();
                }
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                if S::TRACK {
                    loc.push(Seg::Index(i));
                }
                if matches!(kind, StepKind::AnyMember) {
                    walk(rest, v, root, loc, sink);
                }
                scan(kind, rest, v, root, loc, sink, depth + 1);
                if S::TRACK {
                    loc.pop();
                }
            }
        }
        _ => {}
    }
}

fn descendants_and_self<'v>(
    node: &'v Value,
    loc: &mut Vec<Seg<'v>>,
    depth: usize,
    f: &mut dyn FnMut(&'v Value, &mut Vec<Seg<'v>>),
) {
    if depth > MAX_SCAN_DEPTH {
        return;
    }
    f(node, loc);
    match node {
        Value::Object(o) => {
            for (k, v) in o.iter() {
                loc.push(Seg::Key(k));
                descendants_and_self(v, loc, depth + 1, f);
                loc.pop();
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                loc.push(Seg::Index(i));
                descendants_and_self(v, loc, depth + 1, f);
                loc.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::slice_indexes;

    #[test]
    fn slices_follow_newtonsoft() {
        assert_eq!(slice_indexes(5, None, None, None), vec![0, 1, 2, 3, 4]);
        assert_eq!(slice_indexes(5, Some(1), Some(3), None), vec![1, 2]);
        assert_eq!(slice_indexes(5, Some(-2), None, None), vec![3, 4]);
        assert_eq!(slice_indexes(5, None, None, Some(-1)), vec![4, 3, 2, 1, 0]);
        assert_eq!(slice_indexes(5, None, None, Some(2)), vec![0, 2, 4]);
    }
}
