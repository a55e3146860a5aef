//! The JSONPath dialect of JUST.net: Newtonsoft's `SelectToken` (Json.NET 13 JPath).
//!
//! A path is parsed once into [`JsonPath`], whose [`Step`]s carry their byte range in the path
//! text so that tools (the validator) can point at the exact step that names an unknown
//! property. Evaluation borrows from the input: nothing is cloned until the caller asks for
//! an owned [`Value`].

mod eval;
mod filter;
mod filtered;
mod parse;

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::AtomicU32;

pub use filter::{CmpOp, FilterExpr, Operand};
pub(crate) use filtered::FilterMemo;
use filtered::Filtered;

use crate::value::Value;

/// A compiled JSONPath.
#[derive(Clone, Debug)]
pub struct JsonPath {
    text: Arc<str>,
    steps: Vec<Step>,
    /// The walk of a path whose every step selects at most one token (member names and
    /// indexes only): such paths are walked without allocating or calling back.
    singular: Option<Hops>,
    /// The walk of a path that is singular but for one filter step (`$.a.b[?(@.c==1)].d`),
    /// the shape templates use to pick one item of a list: walked without callbacks too.
    filtered: Option<Filtered>,
}

/// What a path selects, borrowed from the value it was evaluated against.
#[derive(Debug)]
pub(crate) enum Selection<'v> {
    /// No token.
    Nothing,
    /// Exactly one token.
    One(&'v Value),
    /// Several tokens, in document order.
    Many(Vec<&'v Value>),
}

impl<'v> Selection<'v> {
    fn push(&mut self, v: &'v Value) {
        *self = match std::mem::replace(self, Selection::Nothing) {
            Selection::Nothing => Selection::One(v),
            Selection::One(first) => Selection::Many(vec![first, v]),
            Selection::Many(mut all) => {
                all.push(v);
                Selection::Many(all)
            }
        };
    }

    /// JUST's selection result: `null` for nothing, the token itself for one, an array of
    /// them all for several.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Selection::Nothing => Value::Null,
            Selection::One(v) => (*v).clone(),
            Selection::Many(all) => Value::array(all.iter().map(|v| (*v).clone()).collect()),
        }
    }
}

/// A singular path flattened for its walk: the root step dropped, each member name next to
/// the position it was found at last time.
#[derive(Debug)]
struct Hops(Box<[Hop]>);

#[derive(Debug)]
enum Hop {
    /// A member, and where it was found last time. Shared by every thread applying the
    /// template: a stale or raced hint only costs the scan it would have saved, never a
    /// wrong member, because the key at the hinted position is compared before it is used.
    Member { name: Arc<str>, hint: AtomicU32 },
    /// An array item.
    Index(usize),
    /// A negative index: selects nothing.
    Nothing,
}

impl Hops {
    /// The hops of `steps`, if every step is singular.
    fn of(steps: &[Step]) -> Option<Hops> {
        steps
            .iter()
            .filter(|s| s.kind != StepKind::Root || s.recursive)
            .map(|s| match &s.kind {
                _ if s.recursive => None,
                StepKind::Member(name) => Some(Hop::Member {
                    name: name.clone(),
                    hint: AtomicU32::new(0),
                }),
                StepKind::Index(i) => Some(usize::try_from(*i).map_or(Hop::Nothing, Hop::Index)),
                _ => None,
            })
            .collect::<Option<Box<[Hop]>>>()
            .map(Hops)
    }
}

impl Hops {
    /// The one token the path selects from `root`, if any.
    #[inline]
    fn select<'v>(&self, root: &'v Value) -> Option<&'v Value> {
        let mut cur = root;
        for hop in &self.0 {
            cur = match (hop, cur) {
                (Hop::Member { name, hint }, Value::Object(o)) => o.get_hinted(name, hint)?,
                (Hop::Index(i), Value::Array(a)) => a.get(*i)?,
                _ => return None,
            };
        }
        Some(cur)
    }
}

impl Clone for Hops {
    /// A copy starts with fresh hints.
    fn clone(&self) -> Self {
        Hops(
            self.0
                .iter()
                .map(|h| match h {
                    Hop::Member { name, .. } => Hop::Member {
                        name: name.clone(),
                        hint: AtomicU32::new(0),
                    },
                    Hop::Index(i) => Hop::Index(*i),
                    Hop::Nothing => Hop::Nothing,
                })
                .collect(),
        )
    }
}

/// One step of a path and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// What the step selects.
    pub kind: StepKind,
    /// Whether the step is preceded by `..` (recursive descent).
    pub recursive: bool,
    /// Byte range of the step in the path text (including its `.`/`..`/brackets).
    pub span: Range<usize>,
}

/// What a step selects.
#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    /// `$`: the root the path is evaluated against.
    Root,
    /// `@`: the current item (only inside filters).
    Current,
    /// `.name` or `['name']`.
    Member(Arc<str>),
    /// `['a','b']`.
    Members(Vec<Arc<str>>),
    /// `.*`: every member value of an object.
    AnyMember,
    /// `[n]`.
    Index(i64),
    /// `[0,2]`.
    Indexes(Vec<i64>),
    /// `[*]`: every array item.
    AnyIndex,
    /// `[start:end:step]`, Python semantics.
    Slice {
        /// First index (negative counts from the end).
        start: Option<i64>,
        /// End index, exclusive.
        end: Option<i64>,
        /// Step, never 0.
        step: Option<i64>,
    },
    /// `[?(expr)]`: array items for which `expr` holds.
    Filter(Box<FilterExpr>),
}

/// A path that does not parse, with the byte range of the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError {
    /// What is wrong.
    pub message: String,
    /// Byte range in the path text.
    pub span: Range<usize>,
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.span.start)
    }
}

impl std::error::Error for PathError {}

impl JsonPath {
    /// Parses a path. A leading `$` is optional; backticks read as single quotes.
    pub fn parse(text: &str) -> Result<Self, PathError> {
        let steps = parse::parse(text)?;
        let singular = Hops::of(&steps);
        let filtered = match singular {
            None => Filtered::of(&steps, text),
            Some(_) => None,
        };
        Ok(JsonPath {
            text: text.into(),
            steps,
            singular,
            filtered,
        })
    }

    /// The path as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The path as written, shared (no copy).
    pub(crate) fn text_shared(&self) -> Arc<str> {
        self.text.clone()
    }

    /// The steps, in order (a leading `$` is a [`StepKind::Root`] step).
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The member names the path reads directly from its root, in order, stopping at the first
    /// step that is not a plain member or index (used by schema checks).
    pub fn member_chain(&self) -> impl Iterator<Item = (&str, &Range<usize>)> {
        self.steps
            .iter()
            .skip_while(|s| s.kind == StepKind::Root)
            .take_while(|s| {
                !s.recursive
                    && matches!(
                        s.kind,
                        StepKind::Member(_)
                            | StepKind::Index(_)
                            | StepKind::AnyIndex
                            | StepKind::Filter(_)
                    )
            })
            .filter_map(|s| match &s.kind {
                StepKind::Member(m) => Some((m.as_ref(), &s.span)),
                _ => None,
            })
    }

    /// Every token the path selects, in document order.
    pub fn select<'v>(&self, root: &'v Value) -> Vec<&'v Value> {
        let mut out = Vec::new();
        eval::select(self, root, &mut |v| out.push(v));
        out
    }

    /// Whether the path selects at most one token (member names and indexes only).
    pub(crate) fn is_singular(&self) -> bool {
        self.singular.is_some()
    }

    /// The token a singular path selects, borrowed (`None` also when the path is not
    /// singular: see [`JsonPath::is_singular`]).
    #[inline]
    pub(crate) fn select_singular<'v>(&self, root: &'v Value) -> Option<&'v Value> {
        self.singular.as_ref().and_then(|hops| hops.select(root))
    }

    /// JUST's selection result: `null` when nothing matches, the token itself for one match, an
    /// array of all matches for several.
    #[inline]
    pub fn select_value(&self, root: &Value) -> Value {
        if let Some(hops) = &self.singular {
            return hops.select(root).cloned().unwrap_or(Value::Null);
        }
        self.selection_walked(root).to_value()
    }

    /// What the path selects, borrowed (for writers that copy nothing they do not keep), with
    /// the items of a filter the last read kept (see [`FilterMemo`]): for the reads of one
    /// apply.
    #[inline]
    pub(crate) fn selection_memo<'v>(
        &self,
        root: &'v Value,
        memo: &'v mut FilterMemo,
    ) -> Selection<'v> {
        match (&self.singular, &self.filtered) {
            (Some(hops), _) => hops.select(root).map_or(Selection::Nothing, Selection::One),
            (None, Some(filtered)) => Self::selection_filtered(filtered, root, memo),
            (None, None) => self.selection_walked(root),
        }
    }

    /// [`JsonPath::select_value`] through a [`FilterMemo`].
    #[inline]
    pub(crate) fn select_value_memo(&self, root: &Value, memo: &mut FilterMemo) -> Value {
        if let Some(hops) = &self.singular {
            return hops.select(root).cloned().unwrap_or(Value::Null);
        }
        self.selection_memo(root, memo).to_value()
    }

    #[inline(never)]
    fn selection_filtered<'v>(
        filtered: &Filtered,
        root: &'v Value,
        memo: &'v mut FilterMemo,
    ) -> Selection<'v> {
        let mut found = Selection::Nothing;
        filtered.select_memo(root, memo, |v| found.push(v));
        found
    }

    /// What a path that is not singular selects, kept out of line so that the singular case
    /// inlines small.
    #[inline(never)]
    fn selection_walked<'v>(&self, root: &'v Value) -> Selection<'v> {
        let mut found = Selection::Nothing;
        match &self.filtered {
            Some(filtered) => filtered.select(root, |v| found.push(v)),
            None => eval::select(self, root, &mut |v| found.push(v)),
        }
        found
    }

    /// Whether the path selects at least one token (a JSON `null` counts).
    pub fn exists(&self, root: &Value) -> bool {
        if let Some(hops) = &self.singular {
            return hops.select(root).is_some();
        }
        let mut found = false;
        match &self.filtered {
            Some(filtered) => filtered.select(root, |_| found = true),
            None => eval::select(self, root, &mut |_| found = true),
        }
        found
    }

    /// Locations (member names and indexes from the root) of every selected token, used to
    /// replace or delete them.
    pub fn locations(&self, root: &Value) -> Vec<Vec<Segment>> {
        let mut out = Vec::new();
        eval::select_located(self, root, &mut |_, loc| {
            out.push(loc.iter().map(|s| s.to_owned_segment()).collect());
        });
        out
    }

    /// Whether the written path ends with a bracket step (`[...]`): JUST then wraps a single
    /// non-array result of a loop into an array.
    pub fn ends_with_bracket(&self) -> bool {
        self.text.trim_end().ends_with(']')
    }
}

/// One segment of a token's location.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// An object member.
    Key(Arc<str>),
    /// An array item.
    Index(usize),
}
