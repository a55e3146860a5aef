//! The spanned document tree, stored in one arena.
//!
//! Every value of a document is a fixed-size [`Slot`] (16 bytes): its span, its kind and where
//! its contents are. An object's members are consecutive [`MemberSlot`]s (24 bytes: the key's
//! span and the value's slot) in one list shared by the whole document, an array's items
//! consecutive slots in another; numbers and the few strings that differ from their source
//! text (escapes, YAML folding, aliases) live in lists of their own. Keys and strings are read
//! from the document's text through their spans rather than copied.
//!
//! A document is then a handful of allocations however many objects it has: it takes about
//! as much memory as its text, where a tree of separately allocated objects took four times
//! as much, and it is freed in one step (a language server lets go of a large document's tree
//! at every keystroke). The rest of the crate reads it through small views that borrow it:
//! [`Node`], [`Member`], [`Members`], [`Items`].
//!
//! A tree is built once by a loader ([`TreeBuilder`]) and never changed afterwards; a part of
//! it that must outlive it (a template kept by the model) is copied into a tree of its own
//! ([`Tree::copy`]).

#![expect(
    clippy::cast_possible_truncation,
    reason = "offsets, lengths and counts here are bounded by one source file's size, and the loader refuses files of 1 GiB or more (`LoadErrorKind::TooLarge`), so they fit the `u32`s of slots"
)]

use std::fmt;
use std::sync::Arc;

use crate::items::Items;
use crate::members::Members;
use crate::node::{Node, NodeKind, Number, ScalarStyle, StringValue};
use crate::source::{SourceFile, Span};

/// The largest text a tree holds: offsets then leave the two high bits of a key's end free
/// for how the key is written, and an array of the most items (`[0,0,...]`, two bytes an item)
/// counts them in 29 bits.
pub const MAX_TEXT_LEN: usize = (1 << 30) - 1;

/// Objects with at least this many members are indexed: their positions sorted by key.
pub(crate) const INDEXED_FROM: usize = 12;

const TAG_SHIFT: u32 = 29;
const LOW_BITS: u32 = (1 << TAG_SHIFT) - 1;
const NULL: u32 = 0;
const BOOL: u32 = 1;
const NUMBER: u32 = 2;
const STRING: u32 = 3;
const ARRAY: u32 = 4;
const OBJECT: u32 = 5;

/// A string slot whose value is its source text (inside the quotes, for a quoted style).
const FROM_SOURCE: u32 = u32::MAX;

const KEY_MODE_SHIFT: u32 = 30;
const KEY_OFFSET: u32 = (1 << KEY_MODE_SHIFT) - 1;
/// The key is its span's text.
const KEY_PLAIN: u32 = 0;
/// The key is its span's text inside the quotes.
const KEY_QUOTED: u32 = 1;
/// The key differs from its text: it is in [`Tree::decoded_keys`].
const KEY_DECODED: u32 = 2;

/// One value: its span, its kind (three high bits of `b`) and where its contents are.
///
/// | kind | `a` | low bits of `b` |
/// |---|---|---|
/// | null | | |
/// | boolean | 0 or 1 | |
/// | number | index in `numbers` | |
/// | string | index in `decoded`, or `FROM_SOURCE` | the scalar style |
/// | array | first item in `items` | number of items |
/// | object | first member in `members` | number of members |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    start: u32,
    end: u32,
    a: u32,
    b: u32,
}

/// One member of an object: its key's span (with how the key is written in the two high bits
/// of its end) and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemberSlot {
    key_start: u32,
    key_end: u32,
    value: Slot,
}

impl Slot {
    const fn new(span: Span, tag: u32, a: u32, low: u32) -> Slot {
        Slot {
            start: span.start,
            end: span.end,
            a,
            b: (tag << TAG_SHIFT) | low,
        }
    }

    pub(crate) fn span(self) -> Span {
        Span::new(self.start, self.end)
    }

    fn tag(self) -> u32 {
        self.b >> TAG_SHIFT
    }

    fn low(self) -> u32 {
        self.b & LOW_BITS
    }

    fn with_span(self, span: Span) -> Slot {
        Slot {
            start: span.start,
            end: span.end,
            ..self
        }
    }
}

impl MemberSlot {
    pub(crate) fn key_span(self) -> Span {
        Span::new(self.key_start, self.key_end & KEY_OFFSET)
    }

    pub(crate) fn value_slot(self) -> Slot {
        self.value
    }

    fn key_mode(self) -> u32 {
        self.key_end >> KEY_MODE_SHIFT
    }
}

/// A loaded document's values, in one arena (see the module's documentation).
#[derive(Clone)]
pub struct Tree {
    source: Arc<SourceFile>,
    root: Slot,
    members: Vec<MemberSlot>,
    items: Vec<Slot>,
    numbers: Vec<Number>,
    /// Strings and keys that differ from their source text, one after the other.
    decoded: String,
    /// Where each of them is in `decoded`.
    decoded_at: Vec<(u32, u32)>,
    /// Members whose key is decoded: (member, index in `decoded_at`), by member.
    decoded_keys: Vec<(u32, u32)>,
    /// The indexed objects (by their first member), each with its members' positions sorted
    /// by key (equal keys in document order).
    indexes: Vec<(u32, Box<[u32]>)>,
}

impl Tree {
    /// The whole document.
    #[must_use]
    pub fn root(&self) -> Node<'_> {
        self.view(self.root)
    }

    /// The file the tree was read from; spans index its text.
    #[must_use]
    pub fn source(&self) -> &Arc<SourceFile> {
        &self.source
    }

    /// A tree of its own holding a copy of `node`, a value of this tree, with the same spans
    /// (into the same file): for a part that must outlive the document it came from.
    #[must_use]
    pub fn copy(&self, node: &Node<'_>) -> Tree {
        let mut builder = TreeBuilder::new(self.source.clone(), false);
        let root = builder.copy_node(node);
        builder.finish(root)
    }

    /// Bytes the tree takes beside its text (for measurements).
    #[must_use]
    pub fn heap_size(&self) -> usize {
        self.members.capacity() * size_of::<MemberSlot>()
            + self.items.capacity() * size_of::<Slot>()
            + self.numbers.capacity() * size_of::<Number>()
            + self.decoded.capacity()
            + self.decoded_at.capacity() * 8
            + self.decoded_keys.capacity() * 8
            + self
                .indexes
                .iter()
                .map(|(_, i)| i.len() * 4 + 24)
                .sum::<usize>()
    }

    pub(crate) fn view(&self, slot: Slot) -> Node<'_> {
        let kind = match slot.tag() {
            NULL => NodeKind::Null,
            BOOL => NodeKind::Bool(slot.a != 0),
            NUMBER => NodeKind::Number(&self.numbers[slot.a as usize]),
            STRING => NodeKind::String(StringValue {
                value: self.string(slot),
                style: style_from_bits(slot.low()),
            }),
            ARRAY => NodeKind::Array(Items::new(self, slot.a, slot.low())),
            _ => NodeKind::Object(Members::new(self, slot.a, slot.low())),
        };
        Node {
            span: slot.span(),
            kind,
        }
    }

    fn string(&self, slot: Slot) -> &str {
        if slot.a == FROM_SOURCE {
            let quoted = style_from_bits(slot.low()) != ScalarStyle::Plain;
            written(self.source.text(), slot.span(), quoted)
        } else {
            self.decoded_str(slot.a)
        }
    }

    fn decoded_str(&self, index: u32) -> &str {
        let (start, end) = self.decoded_at[index as usize];
        &self.decoded[start as usize..end as usize]
    }

    pub(crate) fn member_slot(&self, at: u32) -> MemberSlot {
        self.members[at as usize]
    }

    pub(crate) fn item_slot(&self, at: u32) -> Slot {
        self.items[at as usize]
    }

    /// The key of member `at`.
    pub(crate) fn key_name(&self, at: u32) -> &str {
        let member = self.members[at as usize];
        let span = member.key_span();
        match member.key_mode() {
            KEY_PLAIN => written(self.source.text(), span, false),
            KEY_QUOTED => written(self.source.text(), span, true),
            _ => {
                let found = self.decoded_keys.binary_search_by_key(&at, |&(m, _)| m);
                match found {
                    Ok(i) => self.decoded_str(self.decoded_keys[i].1),
                    Err(_) => "",
                }
            }
        }
    }

    /// The positions of the members of the object starting at member `first`, sorted by key,
    /// when it is indexed.
    pub(crate) fn index_of(&self, first: u32) -> Option<&[u32]> {
        let at = self
            .indexes
            .binary_search_by_key(&first, |(f, _)| *f)
            .ok()?;
        Some(&self.indexes[at].1)
    }
}

/// A tree of nothing, which empty views borrow (an absent object reads as one without
/// members).
pub(crate) static EMPTY: std::sync::LazyLock<Tree> = std::sync::LazyLock::new(|| {
    TreeBuilder::new(Arc::new(SourceFile::new("", "")), false)
        .finish(TreeBuilder::null(Span::empty(0)))
});

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.root(), f)
    }
}

impl PartialEq for Tree {
    fn eq(&self, other: &Self) -> bool {
        self.root() == other.root()
    }
}

/// The text written at `span`, inside its quotes when `quoted`: the value of a key or a string
/// read from its source. Builders make such spans only where the text has them; any other
/// reads as empty, on reading and on deciding alike.
fn written(text: &str, span: Span, quoted: bool) -> &str {
    let (start, end) = (span.start as usize, span.end as usize);
    let range = if quoted {
        start + 1..end.saturating_sub(1)
    } else {
        start..end
    };
    text.get(range).unwrap_or("")
}

fn style_bits(style: ScalarStyle) -> u32 {
    match style {
        ScalarStyle::Json => 0,
        ScalarStyle::Plain => 1,
        ScalarStyle::SingleQuoted => 2,
        ScalarStyle::DoubleQuoted => 3,
        ScalarStyle::Literal => 4,
        ScalarStyle::Folded => 5,
    }
}

fn style_from_bits(bits: u32) -> ScalarStyle {
    match bits {
        0 => ScalarStyle::Json,
        1 => ScalarStyle::Plain,
        2 => ScalarStyle::SingleQuoted,
        3 => ScalarStyle::DoubleQuoted,
        4 => ScalarStyle::Literal,
        _ => ScalarStyle::Folded,
    }
}

/// A key read by a loader, before its object closes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PendingKey {
    span: Span,
    /// `KEY_PLAIN`, `KEY_QUOTED`, or the index of the decoded key in `decoded_at`.
    mode: PendingMode,
}

#[derive(Clone, Copy, Debug)]
enum PendingMode {
    Plain,
    Quoted,
    Decoded(u32),
}

impl PendingKey {
    pub(crate) fn span(self) -> Span {
        self.span
    }
}

/// A member read by a loader, before its object closes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PendingMember {
    pub key: PendingKey,
    pub value: Slot,
}

/// An `x-syncdef-ignore` member taken out of its object while loading (see
/// [`crate::ignore`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TakenIgnore {
    /// The object it was written in: its first member and number of members, which an alias
    /// of the object shares.
    pub object: (u32, u32),
    pub key: Span,
    pub value: Slot,
}

/// Two members of one object with the same key.
#[derive(Clone, Debug)]
pub(crate) struct DuplicateKey {
    pub first: Span,
    pub second: Span,
    /// The key, decoded.
    pub name: String,
}

/// Builds a [`Tree`] value by value, children before their parent: what the loaders call.
pub(crate) struct TreeBuilder {
    tree: Tree,
    /// Whether `x-syncdef-ignore` members are taken out.
    take_ignores: bool,
    /// The members taken out as `x-syncdef-ignore`, in the order their objects closed.
    pub ignores: Vec<TakenIgnore>,
}

impl TreeBuilder {
    pub(crate) fn new(source: Arc<SourceFile>, take_ignores: bool) -> TreeBuilder {
        TreeBuilder {
            take_ignores,
            tree: Tree {
                source,
                root: Slot::new(Span::empty(0), NULL, 0, 0),
                members: Vec::new(),
                items: Vec::new(),
                numbers: Vec::new(),
                decoded: String::new(),
                decoded_at: Vec::new(),
                decoded_keys: Vec::new(),
                indexes: Vec::new(),
            },
            ignores: Vec::new(),
        }
    }

    /// A builder for loading the whole text of `source`, with room for its members.
    ///
    /// Every member is written with a `:` after its key, so their count bounds the members
    /// (colons inside strings make it an overestimate, given back by `finish`): the list is
    /// allocated once instead of doubling, which held up to twice its size and left the
    /// blocks of each step to the allocator. A text of colons alone (a hostile string) would
    /// make that 24 bytes a byte: a member takes 8 bytes of text or more in every real
    /// document (14 in the densest we measure), so no more is reserved than that.
    pub(crate) fn for_text(source: Arc<SourceFile>, take_ignores: bool) -> TreeBuilder {
        let text = source.text();
        let members = memchr::memchr_iter(b':', text.as_bytes())
            .count()
            .min(text.len() / 8);
        let mut builder = TreeBuilder::new(source, take_ignores);
        builder.tree.members.reserve_exact(members);
        builder
    }

    /// The tree whose root is `root`, its lists cut to their size.
    pub(crate) fn finish(mut self, root: Slot) -> Tree {
        self.tree.root = root;
        let tree = &mut self.tree;
        tree.members.shrink_to_fit();
        tree.items.shrink_to_fit();
        tree.numbers.shrink_to_fit();
        tree.decoded.shrink_to_fit();
        tree.decoded_at.shrink_to_fit();
        tree.decoded_keys.shrink_to_fit();
        tree.indexes.shrink_to_fit();
        self.tree
    }

    pub(crate) fn null(span: Span) -> Slot {
        Slot::new(span, NULL, 0, 0)
    }

    pub(crate) fn bool(span: Span, value: bool) -> Slot {
        Slot::new(span, BOOL, u32::from(value), 0)
    }

    pub(crate) fn number(&mut self, span: Span, number: Number) -> Slot {
        let at = self.tree.numbers.len() as u32;
        self.tree.numbers.push(number);
        Slot::new(span, NUMBER, at, 0)
    }

    /// A string whose value is its text at `span` (inside the quotes, for a quoted `style`):
    /// no escape, no folding.
    pub(crate) fn source_string(span: Span, style: ScalarStyle) -> Slot {
        Slot::new(span, STRING, FROM_SOURCE, style_bits(style))
    }

    /// A key written in quotes at `span` without escapes.
    pub(crate) fn quoted_key(span: Span) -> PendingKey {
        PendingKey {
            span,
            mode: PendingMode::Quoted,
        }
    }

    /// A string whose decoded value is `value`, written at `span` in `style`.
    pub(crate) fn string(&mut self, span: Span, value: &str, style: ScalarStyle) -> Slot {
        let text = self.tree.source.text();
        let source = match style {
            ScalarStyle::Literal | ScalarStyle::Folded => None,
            _ => Some(written(text, span, style != ScalarStyle::Plain)),
        };
        let a = if source == Some(value) {
            FROM_SOURCE
        } else {
            self.decode(value)
        };
        Slot::new(span, STRING, a, style_bits(style))
    }

    /// A key whose decoded name is `name`, written at `span` (quotes included when quoted).
    pub(crate) fn key(&mut self, span: Span, name: &str) -> PendingKey {
        let text = self.tree.source.text();
        let mode = if written(text, span, false) == name {
            PendingMode::Plain
        } else if span.len() >= 2 && written(text, span, true) == name {
            PendingMode::Quoted
        } else {
            PendingMode::Decoded(self.decode(name))
        };
        PendingKey { span, mode }
    }

    fn decode(&mut self, value: &str) -> u32 {
        let start = self.tree.decoded.len() as u32;
        self.tree.decoded.push_str(value);
        let at = self.tree.decoded_at.len() as u32;
        self.tree
            .decoded_at
            .push((start, self.tree.decoded.len() as u32));
        at
    }

    /// The decoded name of a key read but not yet stored.
    pub(crate) fn pending_name(&self, key: PendingKey) -> &str {
        let text = self.tree.source.text();
        match key.mode {
            PendingMode::Plain => written(text, key.span, false),
            PendingMode::Quoted => written(text, key.span, true),
            PendingMode::Decoded(at) => self.tree.decoded_str(at),
        }
    }

    /// The array of `items`, written at `span`.
    pub(crate) fn array(&mut self, span: Span, items: impl ExactSizeIterator<Item = Slot>) -> Slot {
        let first = self.tree.items.len() as u32;
        let count = items.len() as u32;
        self.tree.items.extend(items);
        Slot::new(span, ARRAY, first, count)
    }

    /// The object of `members` (in document order), written at `span`. A member
    /// `x-syncdef-ignore` is taken out (into [`TreeBuilder::ignores`]); a key written twice
    /// is an error.
    pub(crate) fn object(
        &mut self,
        span: Span,
        members: &mut Vec<PendingMember>,
        from: usize,
    ) -> Result<Slot, DuplicateKey> {
        let ignore = self.take_ignore(members, from);
        let list = &members[from..];
        let order = self.sorted_positions(list);
        if let Some(duplicate) = self.duplicate(list, order.as_deref()) {
            return Err(duplicate);
        }
        let mut first = self.tree.members.len() as u32;
        let count = list.len() as u32;
        if let Some(ignore) = ignore {
            if count == 0 {
                // An empty range is otherwise placed where the next object's members start:
                // this one must stay apart from every other object to be found again.
                first = u32::MAX - self.ignores.len() as u32;
            }
            self.ignores.push(TakenIgnore {
                object: (first, count),
                key: ignore.key.span,
                value: ignore.value,
            });
        }
        for (i, member) in list.iter().enumerate() {
            let (mode, decoded) = match member.key.mode {
                PendingMode::Plain => (KEY_PLAIN, None),
                PendingMode::Quoted => (KEY_QUOTED, None),
                PendingMode::Decoded(at) => (KEY_DECODED, Some(at)),
            };
            if let Some(at) = decoded {
                self.tree.decoded_keys.push((first + i as u32, at));
            }
            self.tree.members.push(MemberSlot {
                key_start: member.key.span.start,
                key_end: member.key.span.end | (mode << KEY_MODE_SHIFT),
                value: member.value,
            });
        }
        if let Some(order) = order {
            self.tree.indexes.push((first, order.into_boxed_slice()));
        }
        members.truncate(from);
        Ok(Slot::new(span, OBJECT, first, count))
    }

    /// Takes an `x-syncdef-ignore` member out of `members[from..]`; its value, when there
    /// was one.
    fn take_ignore(&self, members: &mut Vec<PendingMember>, from: usize) -> Option<PendingMember> {
        if !self.take_ignores {
            return None;
        }
        let at = members[from..]
            .iter()
            .position(|m| self.pending_name(m.key) == crate::ignore::IGNORE_KEY)?;
        Some(members.remove(from + at))
    }

    /// The positions of `list` sorted by key (stable), for an object large enough to index.
    fn sorted_positions(&self, list: &[PendingMember]) -> Option<Vec<u32>> {
        if list.len() < INDEXED_FROM {
            return None;
        }
        let mut order: Vec<u32> = (0..list.len() as u32).collect();
        order.sort_by(|&a, &b| {
            self.pending_name(list[a as usize].key)
                .cmp(self.pending_name(list[b as usize].key))
        });
        Some(order)
    }

    /// The first key (in document order) that repeats an earlier one, with that earlier one.
    fn duplicate(&self, list: &[PendingMember], order: Option<&[u32]>) -> Option<DuplicateKey> {
        let name = |i: usize| self.pending_name(list[i].key);
        let (first, second) = match order {
            None => (1..list.len()).find_map(|second| {
                (0..second)
                    .find(|&first| name(first) == name(second))
                    .map(|first| (first, second))
            }),
            Some(order) => order
                .windows(2)
                .filter(|w| name(w[0] as usize) == name(w[1] as usize))
                .map(|w| (w[0] as usize, w[1] as usize))
                .min_by_key(|&(_, second)| second),
        }?;
        Some(DuplicateKey {
            first: list[first].key.span,
            second: list[second].key.span,
            name: name(second).to_owned(),
        })
    }

    /// `slot` again at `span` (a YAML alias): its contents are shared; a string that was read
    /// from its source text keeps its value.
    pub(crate) fn alias(&mut self, slot: Slot, span: Span) -> Slot {
        if slot.tag() == STRING && slot.a == FROM_SOURCE {
            let value = self.tree.string(slot).to_owned();
            let at = self.decode(&value);
            return Slot { a: at, ..slot }.with_span(span);
        }
        slot.with_span(span)
    }

    /// The decoded string of a string slot (an anchored key's value).
    pub(crate) fn string_of(&self, slot: Slot) -> Option<&str> {
        (slot.tag() == STRING).then(|| self.tree.string(slot))
    }

    /// Nodes in the value of `slot`, itself included (what an alias of it expands to).
    pub(crate) fn count_nodes(&self, slot: Slot) -> u64 {
        let mut count = 0;
        let mut stack = vec![slot];
        while let Some(slot) = stack.pop() {
            count += 1;
            let (first, len) = (slot.a as usize, slot.low() as usize);
            match slot.tag() {
                ARRAY => stack.extend_from_slice(&self.tree.items[first..first + len]),
                OBJECT => stack.extend(
                    self.tree.members[first..first + len]
                        .iter()
                        .map(|m| m.value),
                ),
                _ => {}
            }
        }
        count
    }

    fn copy_node(&mut self, node: &Node<'_>) -> Slot {
        match &node.kind {
            NodeKind::Null => Self::null(node.span),
            NodeKind::Bool(b) => Self::bool(node.span, *b),
            NodeKind::Number(n) => self.number(node.span, (*n).clone()),
            NodeKind::String(s) => self.string(node.span, s.value, s.style),
            NodeKind::Array(items) => {
                let slots: Vec<Slot> = items.iter().map(|item| self.copy_node(&item)).collect();
                self.array(node.span, slots.into_iter())
            }
            NodeKind::Object(members) => {
                let mut pending = Vec::with_capacity(members.len());
                for m in members {
                    let key = self.key(m.key.span, m.key.name);
                    let value = self.copy_node(&m.value);
                    pending.push(PendingMember { key, value });
                }
                // A copy of an object of a loaded tree has neither duplicates nor ignores.
                self.object(node.span, &mut pending, 0)
                    .unwrap_or_else(|_| Self::null(node.span))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Tree;
    use crate::SourceFile;
    use crate::node::NodeKind;

    fn load(name: &str, text: &str) -> Tree {
        crate::load::load(SourceFile::new(name, text))
            .unwrap_or_else(|e| panic!("{}", e.render()))
            .tree
    }

    /// Every way a key or a string can be written reads back as its decoded value: as its
    /// text, inside its quotes, or decoded beside the text.
    #[test]
    fn keys_and_strings_read_back_decoded_whatever_their_style() {
        let yaml = "plain: a b\n'single': 'it''s'\n\"dou\\tble\": \"x\\ny\"\nfolded: >\n  one\n  two\nlit: |\n  l\n";
        assert_eq!(
            load("t.yaml", yaml).root().to_json(),
            json!({"plain": "a b", "single": "it's", "dou\tble": "x\ny", "folded": "one two\n", "lit": "l\n"})
        );
        let text = r#"{"a\"b": "\u00e9", "plain": "text", "": ""}"#;
        assert_eq!(
            load("t.json", text).root().to_json(),
            json!({"a\"b": "é", "plain": "text", "": ""})
        );
    }

    /// An alias reads as its anchor's value at the alias's place; a string read from its text
    /// keeps its value there (the alias's own text is `*name`), as a value and as a key.
    #[test]
    fn aliases_share_their_anchor_and_keep_its_strings() {
        let tree = load(
            "t.yaml",
            "a: &k name\nb: *k\n*k : 1\nc: &o {x: [1, 2]}\nd: *o\n",
        );
        let root = tree.root();
        assert_eq!(
            root.to_json(),
            json!({"a": "name", "b": "name", "name": 1, "c": {"x": [1, 2]}, "d": {"x": [1, 2]}})
        );
        let b = root.get("b").expect("b");
        assert_eq!(tree.source().slice(b.span), "*k");
        let (c, d) = (root.get("c").expect("c"), root.get("d").expect("d"));
        assert_ne!(c.identity(), d.identity(), "an alias is a node of its own");
        assert_eq!(c.get("x").map(|x| x.span), d.get("x").map(|x| x.span));
    }

    /// What is reserved for members before loading follows the text's colons, and a text of
    /// colons alone reserves no more than a member per 8 bytes.
    #[test]
    fn members_are_reserved_from_the_colons_and_bounded_by_the_size() {
        let reserved = |text: &str| {
            let source = std::sync::Arc::new(SourceFile::new("t.yaml", text));
            super::TreeBuilder::for_text(source, true)
                .tree
                .members
                .capacity()
        };
        let plain = "key: value\n".repeat(100);
        assert!(reserved(&plain) >= 100);
        let colons = format!("x: '{}'", ":".repeat(1 << 20));
        assert!(reserved(&colons) <= colons.len() / 8);
    }

    /// A copy holds the value with the spans it had, and nothing else of the document.
    #[test]
    fn a_copy_keeps_values_and_spans() {
        let tree = load(
            "t.yaml",
            "keep: {\"a b\": [1, 'x', {c: null}]}\nother: [2]\n",
        );
        let original = tree.root().get("keep").expect("keep");
        let copy = tree.copy(&original);
        assert_eq!(copy.root(), original);
        assert_eq!(copy.root().to_json(), json!({"a b": [1, "x", {"c": null}]}));
        assert_eq!(
            copy.root().member("a b").map(|m| m.key.span),
            original.member("a b").map(|m| m.key.span)
        );
        assert!(copy.heap_size() < tree.heap_size());
        assert!(matches!(copy.root().kind, NodeKind::Object(_)));
    }
}
