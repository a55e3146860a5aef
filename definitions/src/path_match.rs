//! Operation references matched against the document's `paths`, on the spanned tree.
//!
//! One rule serves the validator (which needs spans for its diagnostics) and the engine (which
//! needs the operation to plan a push), so that a reference the linter accepts is the one the
//! engine calls.
//!
//! The rule: the reference's path, up to a `?` (a reference may fix a query parameter, as
//! QuickBooks deletes with `/customer?operation=delete/post`; `paths` keys never have one), and
//! the template are both split at every `/`, and must have the same number of segments. Within a
//! segment, literal text must be equal byte for byte (no case folding, no percent-decoding), and
//! a template parameter (`{id}`) takes any non-empty text of the reference: a literal (`42`), a
//! placeholder (`{IntegrationId}`) or both (`INV-{IntegrationId}`), but never part of a
//! placeholder. This covers plain segments (`customer/{id}`), OData keys
//! (`SalesInvoice(No='{No}',Document_Type='{Document_Type}')` filled by
//! `SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')`) and composite segments
//! (`companies({companyId})`). A `{` without a `}` in its template segment is literal text.
//!
//! Among matching templates the one with the most literal text wins (`/users/me` over
//! `/users/{id}`, as OpenAPI prescribes); among equally specific ones (which OpenAPI calls
//! identical, yet real descriptions such as GitHub's have: `/orgs/{org}/attestations/{id}` for
//! DELETE beside `/orgs/{org}/attestations/{digest}` for GET) the first that has the reference's
//! method, else the first in document order. A reference whose method is only on a less
//! specific path is reported, not silently sent elsewhere.
//!
//! Templates are bucketed by segment count, so a lookup scans only paths of the right length,
//! never all of a 13 MB document's paths.

#![expect(
    clippy::cast_possible_truncation,
    reason = "offsets, lengths and counts here are bounded by one source file's size, and the loader refuses files of 1 GiB or more (`LoadErrorKind::TooLarge`), so they fit the `u32` of spans"
)]

use std::collections::HashMap;
use std::ops::Range;

use crate::members::Members;
use crate::node::{Member, Node};
use crate::operation_ref::{HttpMethod, OperationRef};
use crate::source::Span;

/// One path of `paths`: its template, where it is written, and its path item.
#[derive(Clone, Copy, Debug)]
pub struct PathEntry<'a> {
    /// The template as written (`/v3/company/{realmId}/customer`).
    pub template: &'a str,
    /// Where the key is written.
    pub key_span: Span,
    /// The path item object.
    pub item: Node<'a>,
}

impl<'a> PathEntry<'a> {
    /// The path of member `member` of `paths`.
    fn of(member: Member<'a>) -> Self {
        PathEntry {
            template: member.key.name,
            key_span: member.key.span,
            item: member.value,
        }
    }

    /// The operation object of `method`, with the span of its key.
    #[must_use]
    pub fn operation(&self, method: HttpMethod) -> Option<(Node<'a>, Span)> {
        let member = self.item.member(method.as_str())?;
        Some((member.value, member.key.span))
    }

    /// The methods the path item has, in OpenAPI order.
    #[must_use]
    pub fn methods(&self) -> Vec<HttpMethod> {
        HttpMethod::ALL
            .into_iter()
            .filter(|m| self.item.get(m.as_str()).is_some())
            .collect()
    }
}

/// What a path parameter of the template received from the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding<'a> {
    /// The template's parameter name.
    pub param: &'a str,
    /// Byte range, in the reference's path (and so in the reference text, which starts with
    /// it), of the text filling it.
    pub range: Range<usize>,
}

/// A path matching a reference's path.
#[derive(Clone, Debug)]
pub struct PathMatch<'a> {
    /// The matched path.
    pub entry: PathEntry<'a>,
    /// Each template parameter, in template order, and what fills it.
    pub bindings: Vec<Binding<'a>>,
}

/// The outcome of resolving an operation reference.
#[derive(Clone, Debug)]
pub enum Resolution<'a> {
    /// The path and its operation.
    Found {
        /// The matched path.
        path: PathEntry<'a>,
        /// The operation object for the reference's method.
        operation: Node<'a>,
        /// Each template parameter, in template order, and what fills it.
        bindings: Vec<Binding<'a>>,
    },
    /// The best matching path has no operation for the method.
    MethodMissing {
        /// The matched path ([`PathEntry::methods`] lists what it has).
        path: PathEntry<'a>,
    },
    /// No path matches.
    NotFound,
}

/// One piece of a template segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece<'a> {
    Lit(&'a str),
    Param(&'a str),
}

/// What ranks a template among the matches of a reference, kept per path; the template is
/// split into its pieces only when a reference of its length is matched against it (keeping
/// every template split cost 400 bytes per path, most of linting a document of 200,000 paths).
#[derive(Debug)]
struct Rank {
    /// Bytes of literal text: the specificity that ranks matches.
    literal_len: u32,
}

/// Every path of the document, bucketed by segment count. Build it once per document and
/// resolve every reference against it.
#[derive(Debug, Default)]
pub struct PathIndex<'a> {
    /// The members of `paths`: entries are read from them when asked for (a list of entries
    /// was most of the index on a document of 200,000 paths).
    paths: Members<'a>,
    ranks: Vec<Rank>,
    by_len: HashMap<usize, Vec<u32>>,
}

impl<'a> PathIndex<'a> {
    /// Indexes the `paths` object of the document root, if any. Every member is indexed; keys
    /// that do not start with `/` (`x-` extensions) can never match a reference.
    #[must_use]
    pub fn new(root: Node<'a>) -> Self {
        let mut index = PathIndex::default();
        let Some(members) = root.get("paths").and_then(Node::as_object) else {
            return index;
        };
        index.paths = members;
        index.ranks.reserve_exact(members.len());
        for member in members {
            let template: &'a str = member.key.name;
            let literal_len: usize = template
                .split('/')
                .flat_map(pieces)
                .map(|p| match p {
                    Piece::Lit(l) => l.len(),
                    Piece::Param(_) => 0,
                })
                .sum();
            index
                .by_len
                .entry(template.split('/').count())
                .or_default()
                .push(index.ranks.len() as u32);
            index.ranks.push(Rank {
                literal_len: literal_len as u32,
            });
        }
        index
    }

    /// All paths, in document order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = PathEntry<'a>> + use<'a> {
        self.paths.iter().map(PathEntry::of)
    }

    /// The path at `position` of `paths`.
    fn entry(&self, position: usize) -> Option<PathEntry<'a>> {
        self.paths.at(position).map(PathEntry::of)
    }

    /// Resolves `reference`: the best matching path (see the module documentation), then its
    /// operation for the reference's method.
    #[must_use]
    pub fn resolve(&self, reference: &OperationRef) -> Resolution<'a> {
        let Some(found) = self.best(without_query(&reference.path), Some(reference.method)) else {
            return Resolution::NotFound;
        };
        match found.entry.operation(reference.method) {
            Some((operation, _)) => Resolution::Found {
                path: found.entry,
                operation,
                bindings: found.bindings,
            },
            None => Resolution::MethodMissing { path: found.entry },
        }
    }

    /// The best match of a reference's path (without its query string): the one with the most
    /// literal text (so `/customer/query` prefers a literal `query` over `{id}`), the first in
    /// document order on ties.
    #[must_use]
    pub fn find(&self, path: &str) -> Option<PathMatch<'a>> {
        self.best(path, None)
    }

    /// [`PathIndex::find`], where a tie goes to the first path that has `method`.
    fn best(&self, path: &str, method: Option<HttpMethod>) -> Option<PathMatch<'a>> {
        let segments = split_with_offsets(path);
        let candidates = self.by_len.get(&segments.len())?;
        let mut best: Option<(u32, PathMatch<'a>)> = None;
        let has = |entry: PathEntry<'a>| method.is_some_and(|m| entry.operation(m).is_some());
        for &i in candidates {
            let i = i as usize;
            let score = self.ranks[i].literal_len;
            if let Some((best_score, current)) = &best {
                let better = score > *best_score
                    || (score == *best_score
                        && !has(current.entry)
                        && self.entry(i).is_some_and(has));
                if !better {
                    continue;
                }
            }
            let Some(entry) = self.entry(i) else {
                continue;
            };
            let mut bindings = Vec::new();
            let matched = entry
                .template
                .split('/')
                .zip(&segments)
                .all(|(tpl, (offset, text))| {
                    match_template_segment(tpl, text, *offset, &mut bindings)
                });
            if matched {
                best = Some((score, PathMatch { entry, bindings }));
            }
        }
        best.map(|(_, m)| m)
    }
}

/// The path of a reference without its query string.
fn without_query(path: &str) -> &str {
    path.split_once('?').map_or(path, |(p, _)| p)
}

fn split_with_offsets(path: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in path.bytes().enumerate() {
        if b == b'/' {
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

/// [`match_segment`] on a template segment as written: most are literal and are compared
/// without being split into pieces.
fn match_template_segment<'a>(
    tpl: &'a str,
    text: &str,
    offset: usize,
    out: &mut Vec<Binding<'a>>,
) -> bool {
    if tpl.contains('{') {
        match_segment(&pieces(tpl), text, offset, out)
    } else {
        tpl == text
    }
}

/// Matches one reference segment (at `offset` in the reference path) against a template
/// segment, appending each parameter's binding in template order.
fn match_segment<'a>(
    tpl: &[Piece<'a>],
    text: &str,
    offset: usize,
    out: &mut Vec<Binding<'a>>,
) -> bool {
    if let [Piece::Lit(lit)] = tpl {
        return *lit == text;
    }
    let params = tpl.iter().filter(|p| matches!(p, Piece::Param(_))).count();
    let mut matcher = Matcher {
        tpl,
        text,
        offset,
        // With two parameters or more, remembering dead ends keeps the search polynomial
        // whatever the reference; one parameter is a single scan.
        failed: if params > 1 {
            vec![false; (tpl.len() + 1) * (text.len() + 1)]
        } else {
            Vec::new()
        },
    };
    let start = out.len();
    if matcher.from(0, 0, out) {
        // Bindings are pushed innermost first.
        out[start..].reverse();
        true
    } else {
        false
    }
}

/// A backtracking match of a template segment's pieces against a reference segment.
struct Matcher<'t, 'a> {
    tpl: &'t [Piece<'a>],
    text: &'t str,
    offset: usize,
    /// `(piece, position)` states known not to match, when worth remembering.
    failed: Vec<bool>,
}

impl<'a> Matcher<'_, 'a> {
    /// Whether pieces `k..` match `text[pos..]`. A parameter never ends inside a placeholder of
    /// the reference: `{` ... `}` is consumed whole.
    fn from(&mut self, k: usize, pos: usize, out: &mut Vec<Binding<'a>>) -> bool {
        let key = k * (self.text.len() + 1) + pos;
        if self.failed.get(key) == Some(&true) {
            return false;
        }
        let ok = match self.tpl.get(k) {
            None => pos == self.text.len(),
            Some(Piece::Lit(lit)) => {
                self.text[pos..].starts_with(lit) && self.from(k + 1, pos + lit.len(), out)
            }
            Some(Piece::Param(name)) => {
                let mut depth = 0usize;
                let mut found = false;
                for (i, c) in self.text[pos..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    let end = pos + i + c.len_utf8();
                    if depth == 0 && self.from(k + 1, end, out) {
                        out.push(Binding {
                            param: name,
                            range: self.offset + pos..self.offset + end,
                        });
                        found = true;
                        break;
                    }
                }
                found
            }
        };
        if !ok && let Some(slot) = self.failed.get_mut(key) {
            *slot = true;
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bind(tpl: &str, text: &str) -> Option<Vec<(String, String)>> {
        let pieces = pieces(tpl);
        let mut out = Vec::new();
        match_segment(&pieces, text, 0, &mut out).then(|| {
            out.into_iter()
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
                ("No".into(), "{IntegrationId}".into()),
                ("Type".into(), "Invoice".into()),
            ])
        );
        assert_eq!(
            bind("companies({id})", "companies(abc)"),
            Some(vec![("id".into(), "abc".into())])
        );
        assert_eq!(bind("{id}", ""), None);
    }

    #[test]
    fn a_parameter_takes_mixed_text_but_never_part_of_a_placeholder() {
        assert_eq!(
            bind("{id}", "INV-{IntegrationId}"),
            Some(vec![("id".into(), "INV-{IntegrationId}".into())])
        );
        // `{a}-{b}` can only split at the `-` outside the placeholders.
        assert_eq!(
            bind("{a}-{b}", "{x-y}-{z}"),
            Some(vec![
                ("a".into(), "{x-y}".into()),
                ("b".into(), "{z}".into())
            ])
        );
        assert_eq!(bind("{a}y}", "{xy}"), None);
    }

    #[test]
    fn unclosed_brace_in_a_template_is_literal() {
        assert_eq!(pieces("a{b"), vec![Piece::Lit("a{b")]);
        assert_eq!(pieces("{a}{b"), vec![Piece::Param("a"), Piece::Lit("{b")]);
    }

    #[test]
    fn many_parameters_in_one_segment_stay_fast() {
        // Without the dead-end memory this is a search over C(400, 7) splits.
        let tpl = "{a}{b}{c}{d}{e}{f}{g}z";
        let text = "y".repeat(400);
        assert_eq!(bind(tpl, &text), None);
    }
}
