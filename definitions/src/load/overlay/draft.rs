//! The document an overlay's actions change: an owned copy of a loaded tree whose spans are
//! already those of the joined source, so that what a vendor wrote and what an action added
//! each keep the place they were written at. Built into the final [`Tree`] once every action
//! has run.

use crate::node::{Node, NodeKind, Number, ScalarStyle};
use crate::source::Span;
use crate::tree::{PendingMember, Slot, TreeBuilder};

/// One value being composed.
#[derive(Clone, Debug)]
pub(crate) struct Draft {
    pub span: Span,
    pub value: DraftValue,
}

/// What a [`Draft`] holds.
#[derive(Clone, Debug)]
pub(crate) enum DraftValue {
    Null,
    Bool(bool),
    Number(Number),
    String(String, ScalarStyle),
    Array(Vec<Draft>),
    Object(Vec<DraftMember>),
}

/// A member of a draft object: its key, where the key is written, its value.
#[derive(Clone, Debug)]
pub(crate) struct DraftMember {
    pub name: String,
    pub key_span: Span,
    pub value: Draft,
}

/// A step of a location inside a document: an object's member or an array's item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Name(String),
    Index(usize),
}

impl Draft {
    /// A copy of `node`, a node of a file whose range in the joined source starts at `base`.
    pub fn of(node: &Node<'_>, base: u32) -> Draft {
        let at = |span: Span| Span::new(span.start + base, span.end + base);
        let value = match &node.kind {
            NodeKind::Null => DraftValue::Null,
            NodeKind::Bool(b) => DraftValue::Bool(*b),
            NodeKind::Number(n) => DraftValue::Number((*n).clone()),
            NodeKind::String(s) => DraftValue::String(s.value.to_owned(), s.style),
            NodeKind::Array(items) => {
                DraftValue::Array(items.iter().map(|item| Draft::of(&item, base)).collect())
            }
            NodeKind::Object(members) => DraftValue::Object(
                members
                    .iter()
                    .map(|m| DraftMember {
                        name: m.key.name.to_owned(),
                        key_span: at(m.key.span),
                        value: Draft::of(&m.value, base),
                    })
                    .collect(),
            ),
        };
        Draft {
            span: at(node.span),
            value,
        }
    }

    /// The kind of value, as messages name it.
    pub fn kind_name(&self) -> &'static str {
        match self.value {
            DraftValue::Null => "null",
            DraftValue::Bool(_) => "boolean",
            DraftValue::Number(_) => "number",
            DraftValue::String(..) => "string",
            DraftValue::Array(_) => "array",
            DraftValue::Object(_) => "object",
        }
    }

    /// The value at `path` below this one.
    pub fn at_mut(&mut self, path: &[Step]) -> Option<&mut Draft> {
        let Some((step, rest)) = path.split_first() else {
            return Some(self);
        };
        let child = match (&mut self.value, step) {
            (DraftValue::Object(members), Step::Name(name)) => {
                &mut members.iter_mut().find(|m| &m.name == name)?.value
            }
            (DraftValue::Array(items), Step::Index(i)) => items.get_mut(*i)?,
            _ => return None,
        };
        child.at_mut(rest)
    }

    /// Merges `update` into this object as Overlay 1.0 says: a member both have is merged
    /// again when both values are objects, appended to when both are arrays, and replaced
    /// otherwise; a member only the update has is added.
    pub fn merge(&mut self, update: Draft) {
        let (DraftValue::Object(members), DraftValue::Object(added)) =
            (&mut self.value, update.value)
        else {
            return;
        };
        for member in added {
            match members.iter_mut().find(|m| m.name == member.name) {
                None => members.push(member),
                Some(existing) => match (&mut existing.value.value, member.value.value) {
                    (DraftValue::Object(_), value @ DraftValue::Object(_)) => {
                        existing.value.merge(Draft {
                            span: member.value.span,
                            value,
                        });
                    }
                    (DraftValue::Array(items), DraftValue::Array(more)) => items.extend(more),
                    (_, value) => {
                        // The value is the overlay's now: so is the key a finding underlines.
                        existing.key_span = member.key_span;
                        existing.value = Draft {
                            span: member.value.span,
                            value,
                        };
                    }
                },
            }
        }
    }

    /// Removes the member or item `step` of this value; whether there was one.
    pub fn remove(&mut self, step: &Step) -> bool {
        match (&mut self.value, step) {
            (DraftValue::Object(members), Step::Name(name)) => {
                let before = members.len();
                members.retain(|m| &m.name != name);
                members.len() < before
            }
            (DraftValue::Array(items), Step::Index(i)) if *i < items.len() => {
                items.remove(*i);
                true
            }
            _ => false,
        }
    }

    /// Builds this value into `builder`'s tree; `pending` is the members of the objects still
    /// open (shared, as the loaders share it).
    pub fn build(self, builder: &mut TreeBuilder, pending: &mut Vec<PendingMember>) -> Slot {
        match self.value {
            DraftValue::Null => TreeBuilder::null(self.span),
            DraftValue::Bool(b) => TreeBuilder::bool(self.span, b),
            DraftValue::Number(n) => builder.number(self.span, n),
            DraftValue::String(s, style) => builder.string(self.span, &s, style),
            DraftValue::Array(items) => {
                let slots: Vec<Slot> = items
                    .into_iter()
                    .map(|item| item.build(builder, pending))
                    .collect();
                builder.array(self.span, slots.into_iter())
            }
            DraftValue::Object(members) => {
                let from = pending.len();
                for member in members {
                    let value = member.value.build(builder, pending);
                    let key = builder.key(member.key_span, &member.name);
                    pending.push(PendingMember { key, value });
                }
                // Keys are unique: each loaded object's were, and a merge adds only new ones.
                builder
                    .object(self.span, pending, from)
                    .unwrap_or_else(|_| TreeBuilder::null(self.span))
            }
        }
    }
}
