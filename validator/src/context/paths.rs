//! `paths` indexed once, and operation references matched against it.
//!
//! A reference matches a path template segment by segment. Literal text must be equal; a
//! template parameter (`{id}`) takes any non-empty text of the reference, including its
//! placeholders. This one rule covers plain segments (`customer/{id}`), OData keys
//! (`SalesInvoice(No='{No}',Document_Type='{Document_Type}')` filled by
//! `SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')`) and composite segments
//! (`companies({companyId})`). Templates are bucketed by segment count, so a lookup scans only
//! paths of the right length, never all of a 13 MB document's paths.

use std::collections::HashMap;

use syncdef_definitions::operation_ref::HttpMethod;
use syncdef_definitions::{Node, Span};

/// One piece of a template segment.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece<'a> {
    Lit(&'a str),
    Param(&'a str),
}

/// One path of `paths`.
#[derive(Debug)]
pub(crate) struct PathEntry<'a> {
    /// The template as written (`/v3/company/{realmId}/customer`).
    pub template: &'a str,
    /// Where the key is written.
    pub key_span: Span,
    /// The path item object.
    pub item: &'a Node,
    segments: Vec<Vec<Piece<'a>>>,
}

impl<'a> PathEntry<'a> {
    /// The operation object of `method`, with the span of its key.
    pub fn operation(&self, method: HttpMethod) -> Option<(&'a Node, Span)> {
        let member = self.item.member(method.as_str())?;
        Some((&member.value, member.key.span))
    }

    /// The methods the path item has, in OpenAPI order.
    pub fn methods(&self) -> Vec<HttpMethod> {
        HttpMethod::ALL
            .into_iter()
            .filter(|m| self.item.get(m.as_str()).is_some())
            .collect()
    }
}

/// What a path parameter of the template received from the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Binding<'a> {
    /// The template's parameter name.
    pub param: &'a str,
    /// Byte range, in the reference's path, of the text filling it.
    pub range: std::ops::Range<usize>,
}

/// A successful match.
#[derive(Debug)]
pub(crate) struct PathMatch<'a, 'i> {
    /// The matched path.
    pub entry: &'i PathEntry<'a>,
    /// Each template parameter and what fills it.
    pub bindings: Vec<Binding<'a>>,
}

/// Every path of the document, bucketed by segment count.
#[derive(Debug, Default)]
pub(crate) struct PathIndex<'a> {
    entries: Vec<PathEntry<'a>>,
    by_len: HashMap<usize, Vec<usize>>,
}

impl<'a> PathIndex<'a> {
    /// Indexes the `paths` object of the document root, if any.
    pub fn new(root: &'a Node) -> Self {
        let mut index = PathIndex::default();
        let Some(members) = root.get("paths").and_then(Node::as_object) else {
            return index;
        };
        for member in members {
            let template: &str = &member.key.name;
            let segments: Vec<Vec<Piece<'a>>> = template.split('/').map(pieces).collect();
            index
                .by_len
                .entry(segments.len())
                .or_default()
                .push(index.entries.len());
            index.entries.push(PathEntry {
                template,
                key_span: member.key.span,
                item: &member.value,
                segments,
            });
        }
        index
    }

    /// All paths, in document order.
    pub fn entries(&self) -> &[PathEntry<'a>] {
        &self.entries
    }

    /// The best match of a reference's path: the one with the most literal characters in
    /// common (so `/customer/query` prefers a literal `query` over `{id}`), the first in
    /// document order on ties.
    pub fn find<'i>(&'i self, path: &'a str) -> Option<PathMatch<'a, 'i>> {
        let segments: Vec<(usize, &'a str)> = split_with_offsets(path);
        let candidates = self.by_len.get(&segments.len())?;
        let mut best: Option<(usize, PathMatch<'a, 'i>)> = None;
        for &i in candidates {
            let entry = &self.entries[i];
            let mut bindings = Vec::new();
            let mut score = 0;
            let matched =
                entry.segments.iter().zip(&segments).all(
                    |(tpl, (offset, text))| match match_segment(tpl, text, *offset) {
                        Some((s, b)) => {
                            score += s;
                            bindings.extend(b);
                            true
                        }
                        None => false,
                    },
                );
            if matched && best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, PathMatch { entry, bindings }));
            }
        }
        best.map(|(_, m)| m)
    }
}

fn split_with_offsets(path: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in path.char_indices() {
        if c == '/' {
            out.push((start, &path[start..i]));
            start = i + 1;
        }
    }
    out.push((start, &path[start..]));
    out
}

/// Splits a template segment into literal text and `{param}`s (an unclosed `{` stays literal).
fn pieces(segment: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = segment;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        if open > 0 {
            out.push(Piece::Lit(&rest[..open]));
        }
        out.push(Piece::Param(&rest[open + 1..open + close]));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() || out.is_empty() {
        out.push(Piece::Lit(rest));
    }
    out
}

/// Matches one reference segment (at `offset` in the reference path) against a template
/// segment: the literal characters matched and each parameter's binding.
fn match_segment<'a>(
    tpl: &[Piece<'a>],
    text: &str,
    offset: usize,
) -> Option<(usize, Vec<Binding<'a>>)> {
    let mut bindings = Vec::new();
    if match_from(tpl, text, 0, offset, &mut bindings) {
        let literal = tpl
            .iter()
            .map(|p| match p {
                Piece::Lit(l) => l.len(),
                Piece::Param(_) => 0,
            })
            .sum();
        Some((literal, bindings))
    } else {
        None
    }
}

/// Backtracking match of `tpl` against `text[pos..]`. Segments are short (a few pieces), so
/// backtracking stays cheap. A parameter never splits a reference placeholder: `{` ... `}` in
/// the reference is consumed whole.
fn match_from<'a>(
    tpl: &[Piece<'a>],
    text: &str,
    pos: usize,
    offset: usize,
    out: &mut Vec<Binding<'a>>,
) -> bool {
    match tpl.split_first() {
        None => pos == text.len(),
        Some((Piece::Lit(lit), rest)) => {
            text[pos..].starts_with(lit) && match_from(rest, text, pos + lit.len(), offset, out)
        }
        Some((Piece::Param(name), rest)) => {
            // Try every end position at a character boundary outside a placeholder.
            let mut depth = 0usize;
            for (i, c) in text[pos..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                let end = pos + i + c.len_utf8();
                if depth == 0 && match_from(rest, text, end, offset, out) {
                    out.push(Binding {
                        param: name,
                        range: offset + pos..offset + end,
                    });
                    return true;
                }
            }
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bind(tpl: &str, text: &str) -> Option<Vec<(String, String)>> {
        let pieces = pieces(tpl);
        match_segment(&pieces, text, 0).map(|(_, b)| {
            b.into_iter()
                .map(|b| (b.param.to_owned(), text[b.range].to_owned()))
                .collect()
        })
    }

    #[test]
    fn plain_and_odata_segments() {
        assert_eq!(bind("customer", "customer"), Some(vec![]));
        assert_eq!(bind("customer", "customers"), None);
        assert_eq!(
            bind("{id}", "{IntegrationId}"),
            Some(vec![("id".into(), "{IntegrationId}".into())])
        );
        assert_eq!(
            bind(
                "SalesInvoice(No='{No}',Document_Type='{Type}')",
                "SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')"
            ),
            Some(vec![
                ("Type".into(), "Invoice".into()),
                ("No".into(), "{IntegrationId}".into())
            ])
        );
        assert_eq!(
            bind("companies({id})", "companies(abc)"),
            Some(vec![("id".into(), "abc".into())])
        );
        assert_eq!(bind("{id}", ""), None);
    }
}
