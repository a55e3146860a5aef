//! JSON text validated in place: one scan of the text into a flat index of its values (kind and
//! byte range, no allocation per string or map), read by the `jsonschema` crate through its
//! `Json` traits.
//!
//! Why: a push renders its request body as text, and parsing that text into a
//! `serde_json::Value` to validate it cost about 45 % of a push against an instant server
//! (allocations of every string and map; docs/benchmarks.md, "Request body validation"). The
//! index is one `Vec` of entries; strings without escapes are read as slices of the text.

#![expect(
    clippy::cast_possible_truncation,
    reason = "`Indexed::new` refuses a text of `u32::MAX` bytes or more; offsets and entry counts are below its length"
)]

use std::borrow::Cow;

use jsonschema::JsonType;
use jsonschema::json::{Array, Json, JsonNumber, Node, NodeIdentity, Object};
use serde_json::Value;

/// Deeper text is not indexed (the caller then parses it the ordinary way).
const MAX_DEPTH: u32 = 128;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Null,
    True,
    False,
    Number,
    /// A string; `true` when it holds a backslash escape (then decoded when read).
    String(bool),
    Array,
    Object,
}

/// One value of the text: for a container, its members follow it (an object's as key, value
/// pairs) and `end` is the index after its last descendant.
#[derive(Clone, Copy, Debug)]
struct Entry {
    kind: Kind,
    /// Byte range in the text: inside the quotes for a string, the literal otherwise.
    start: u32,
    stop: u32,
    /// Index of the entry after this value and its descendants.
    end: u32,
    /// Members of an object, items of an array.
    count: u32,
}

/// The index of one JSON text.
pub(crate) struct Indexed<'t> {
    text: &'t str,
    entries: Vec<Entry>,
}

impl<'t> Indexed<'t> {
    /// The index of `text`, or `None` when it is not one JSON value (or nests deeper than
    /// [`MAX_DEPTH`]).
    pub fn new(text: &'t str) -> Option<Indexed<'t>> {
        if text.len() >= u32::MAX as usize {
            return None;
        }
        let mut scan = Scan {
            bytes: text.as_bytes(),
            at: 0,
            entries: Vec::with_capacity(text.len() / 8 + 4),
        };
        scan.value(0)?;
        scan.space();
        if scan.at != scan.bytes.len() {
            return None;
        }
        Some(Indexed {
            text,
            entries: scan.entries,
        })
    }

    pub fn root(&self) -> TextNode<'_> {
        TextNode { doc: self, at: 0 }
    }
}

struct Scan<'b> {
    bytes: &'b [u8],
    at: usize,
    entries: Vec<Entry>,
}

impl Scan<'_> {
    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn push(&mut self, kind: Kind, start: usize, stop: usize) -> usize {
        self.entries.push(Entry {
            kind,
            start: start as u32,
            stop: stop as u32,
            end: 0,
            count: 0,
        });
        self.entries.len() - 1
    }

    fn close(&mut self, index: usize, count: u32) {
        let end = self.entries.len() as u32;
        if let Some(e) = self.entries.get_mut(index) {
            e.end = end;
            e.count = count;
        }
    }

    /// Closes a container whose closing bracket ends before `self.at`.
    fn close_container(&mut self, index: usize, count: u32) {
        self.close(index, count);
        let stop = self.at as u32;
        if let Some(e) = self.entries.get_mut(index) {
            e.stop = stop;
        }
    }

    fn literal(&mut self, word: &[u8], kind: Kind) -> Option<()> {
        if self.bytes.get(self.at..self.at + word.len())? != word {
            return None;
        }
        let i = self.push(kind, self.at, self.at + word.len());
        self.at += word.len();
        self.close(i, 0);
        Some(())
    }

    fn string(&mut self) -> Option<()> {
        // At the opening quote. (A plain byte loop: a body's strings are short, so a
        // vectorised search for the closing quote measured slower.)
        let start = self.at + 1;
        let mut i = start;
        let mut escaped = false;
        loop {
            match *self.bytes.get(i)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    i += 2;
                }
                0..=0x1f => return None,
                _ => i += 1,
            }
        }
        let e = self.push(Kind::String(escaped), start, i);
        self.close(e, 0);
        self.at = i + 1;
        Some(())
    }

    fn number(&mut self) -> Option<()> {
        let start = self.at;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
        }
        // Only what JSON allows: the value is read by Rust's parser, which takes more.
        let literal = std::str::from_utf8(self.bytes.get(start..self.at)?).ok()?;
        if self.at == start || literal.starts_with(['+', '.']) || literal.parse::<f64>().is_err() {
            return None;
        }
        let e = self.push(Kind::Number, start, self.at);
        self.close(e, 0);
        Some(())
    }

    fn value(&mut self, depth: u32) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.space();
        match *self.bytes.get(self.at)? {
            b'"' => self.string(),
            b'n' => self.literal(b"null", Kind::Null),
            b't' => self.literal(b"true", Kind::True),
            b'f' => self.literal(b"false", Kind::False),
            b'[' => {
                let e = self.push(Kind::Array, self.at, self.at);
                self.at += 1;
                let mut count = 0;
                self.space();
                if self.bytes.get(self.at) == Some(&b']') {
                    self.at += 1;
                } else {
                    loop {
                        self.value(depth + 1)?;
                        count += 1;
                        self.space();
                        match *self.bytes.get(self.at)? {
                            b',' => self.at += 1,
                            b']' => {
                                self.at += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                self.close_container(e, count);
                Some(())
            }
            b'{' => {
                let e = self.push(Kind::Object, self.at, self.at);
                self.at += 1;
                let mut count = 0;
                self.space();
                if self.bytes.get(self.at) == Some(&b'}') {
                    self.at += 1;
                } else {
                    loop {
                        self.space();
                        if self.bytes.get(self.at) != Some(&b'"') {
                            return None;
                        }
                        self.string()?;
                        self.space();
                        if self.bytes.get(self.at) != Some(&b':') {
                            return None;
                        }
                        self.at += 1;
                        self.value(depth + 1)?;
                        count += 1;
                        self.space();
                        match *self.bytes.get(self.at)? {
                            b',' => self.at += 1,
                            b'}' => {
                                self.at += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                self.close_container(e, count);
                Some(())
            }
            _ => self.number(),
        }
    }
}

/// The representation: nodes of an [`Indexed`] text.
pub(crate) struct TextJson;

/// One value of an indexed text.
#[derive(Clone, Copy)]
pub(crate) struct TextNode<'a> {
    doc: &'a Indexed<'a>,
    at: usize,
}

impl<'a> TextNode<'a> {
    fn entry(&self) -> Entry {
        // `at` always indexes an entry: nodes are made from the index only.
        self.doc.entries.get(self.at).copied().unwrap_or(Entry {
            kind: Kind::Null,
            start: 0,
            stop: 0,
            end: self.at as u32 + 1,
            count: 0,
        })
    }

    fn raw(&self) -> &'a str {
        let e = self.entry();
        self.doc
            .text
            .get(e.start as usize..e.stop as usize)
            .unwrap_or_default()
    }

    fn string(&self) -> Option<Cow<'a, str>> {
        match self.entry().kind {
            Kind::String(false) => Some(Cow::Borrowed(self.raw())),
            Kind::String(true) => {
                let e = self.entry();
                let quoted = self
                    .doc
                    .text
                    .get(e.start as usize - 1..e.stop as usize + 1)?;
                serde_json::from_str::<String>(quoted).ok().map(Cow::Owned)
            }
            _ => None,
        }
    }

    /// The entries of a container's children, in order (for an object: keys and values).
    fn children(&self) -> Children<'a> {
        Children {
            doc: self.doc,
            next: self.at + 1,
            end: self.entry().end as usize,
        }
    }
}

pub(crate) struct Children<'a> {
    doc: &'a Indexed<'a>,
    next: usize,
    end: usize,
}

impl<'a> Iterator for Children<'a> {
    type Item = TextNode<'a>;

    fn next(&mut self) -> Option<TextNode<'a>> {
        if self.next >= self.end {
            return None;
        }
        let node = TextNode {
            doc: self.doc,
            at: self.next,
        };
        self.next = node.entry().end as usize;
        Some(node)
    }
}

/// A number as written in the text.
pub(crate) struct TextNumber<'a>(&'a str);

impl JsonNumber for TextNumber<'_> {
    fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    fn as_f64(&self) -> Option<f64> {
        self.0.parse().ok()
    }

    fn as_str(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.0)
    }

    fn to_number(&self) -> Cow<'_, serde_json::Number> {
        Cow::Owned(serde_json::from_str(self.0).unwrap_or_else(|_| serde_json::Number::from(0u8)))
    }
}

impl Json for TextJson {
    type Node<'a> = TextNode<'a>;
    type PreparedKey = String;
    type StringBuffer = String;

    // Members are found by a walk over the object's keys: a pass over them costs no more.
    const KEYS_PER_LOOKUP: usize = 64;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(
        buffer: &mut String,
        string: &str,
        f: impl FnOnce(TextNode<'_>) -> T,
    ) -> T {
        buffer.clear();
        buffer.push_str(&Value::from(string).to_string());
        // A JSON string literal always indexes.
        let indexed = Indexed::new(buffer).unwrap_or(Indexed {
            text: "",
            entries: vec![Entry {
                kind: Kind::String(false),
                start: 0,
                stop: 0,
                end: 1,
                count: 0,
            }],
        });
        f(indexed.root())
    }
}

impl<'a> Node<'a, TextJson> for TextNode<'a> {
    type Object = TextObject<'a>;
    type Array = TextArray<'a>;
    type Number = TextNumber<'a>;

    fn as_object(&self) -> Option<TextObject<'a>> {
        (self.entry().kind == Kind::Object).then_some(TextObject(*self))
    }

    fn as_array(&self) -> Option<TextArray<'a>> {
        (self.entry().kind == Kind::Array).then_some(TextArray(*self))
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        self.string()
    }

    fn as_number(&self) -> Option<TextNumber<'a>> {
        (self.entry().kind == Kind::Number).then(|| TextNumber(self.raw()))
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.entry().kind {
            Kind::True => Some(true),
            Kind::False => Some(false),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        self.entry().kind == Kind::Null
    }

    fn json_type(&self) -> JsonType {
        match self.entry().kind {
            Kind::Null => JsonType::Null,
            Kind::True | Kind::False => JsonType::Boolean,
            Kind::Number => JsonType::Number,
            Kind::String(_) => JsonType::String,
            Kind::Array => JsonType::Array,
            Kind::Object => JsonType::Object,
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        let e = self.entry();
        let range = match e.kind {
            // With its quotes.
            Kind::String(_) => e.start as usize - 1..e.stop as usize + 1,
            _ => e.start as usize..e.stop as usize,
        };
        Cow::Owned(
            self.doc
                .text
                .get(range)
                .and_then(|t| serde_json::from_str(t).ok())
                .unwrap_or(Value::Null),
        )
    }

    fn identity(&self) -> Option<NodeIdentity> {
        self.doc
            .entries
            .get(self.at)
            .map(|e| NodeIdentity::new(std::ptr::from_ref(e) as usize))
    }
}

/// An object of an indexed text.
#[derive(Clone, Copy)]
pub(crate) struct TextObject<'a>(TextNode<'a>);

pub(crate) struct Members<'a>(Children<'a>);

impl<'a> Iterator for Members<'a> {
    type Item = (Cow<'a, str>, TextNode<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let key = self.0.next()?;
        let value = self.0.next()?;
        Some((key.string().unwrap_or_default(), value))
    }
}

impl<'a> Object<'a, TextJson> for TextObject<'a> {
    type Node = TextNode<'a>;
    type MemberName = Cow<'a, str>;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        self.0.entry().count as usize
    }

    fn get(&self, key: &String) -> Option<TextNode<'a>> {
        let mut children = self.0.children();
        while let Some(name) = children.next() {
            let value = children.next()?;
            let same = match name.entry().kind {
                Kind::String(false) => name.raw() == key,
                _ => name.string().is_some_and(|n| n == *key),
            };
            if same {
                return Some(value);
            }
        }
        None
    }

    fn members(&self) -> Members<'a> {
        Members(self.0.children())
    }
}

/// An array of an indexed text.
#[derive(Clone, Copy)]
pub(crate) struct TextArray<'a>(TextNode<'a>);

impl<'a> Array<'a, TextJson> for TextArray<'a> {
    type Node = TextNode<'a>;
    type ElementsIter = Children<'a>;

    fn len(&self) -> usize {
        self.0.entry().count as usize
    }

    fn elements(&self) -> Children<'a> {
        self.0.children()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_index_reads_what_serde_json_reads() {
        let text = r#" {"a": [1, -2.5e3, true, false, null], "b\"c": "d\u00e9\n", "e": {}, "f": [], "g": {"h": "é"}} "#;
        let indexed = Indexed::new(text).expect("indexes");
        let root = indexed.root();
        assert_eq!(
            root.to_value().into_owned(),
            serde_json::from_str::<Value>(text).expect("JSON")
        );
        let object = root.as_object().expect("object");
        assert_eq!(object.len(), 5);
        let a = object
            .get(&"a".to_owned())
            .expect("a")
            .as_array()
            .expect("array");
        assert_eq!(a.len(), 5);
        assert_eq!(
            a.elements().map(|n| n.json_type()).collect::<Vec<_>>(),
            [
                JsonType::Number,
                JsonType::Number,
                JsonType::Boolean,
                JsonType::Boolean,
                JsonType::Null
            ]
        );
        let key = object.get(&"b\"c".to_owned()).expect("escaped key");
        assert_eq!(key.as_string().as_deref(), Some("dé\n"));
        assert_eq!(
            object
                .get(&"g".to_owned())
                .expect("g")
                .to_value()
                .into_owned(),
            json!({"h": "é"})
        );
        assert_eq!(
            object
                .get(&"f".to_owned())
                .expect("f")
                .to_value()
                .into_owned(),
            json!([])
        );
        assert!(object.get(&"z".to_owned()).is_none());
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "\"\u{1}\"", "1 2", "[1]]"] {
            assert!(Indexed::new(bad).is_none(), "{bad:?}");
        }
    }
}
