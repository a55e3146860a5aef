//! `x-syncdef.pull.<Entry>`: how an entry's `pull.batchRead` pages through the external system.
//!
//! ```yaml
//! x-syncdef:
//!   pull:
//!     Customer:
//!       query:
//!         query: "select * from Customer where Metadata.LastUpdatedTime >= '{since}' startposition {position} maxresults {size}"
//!       paging: {style: offset, size: 100}
//! ```
//!
//! The meaning of each key is in docs/pull.md.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::placeholders::{Piece, pieces};

/// `x-syncdef.pull.<Entry>`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PullSpec {
    /// Query parameters of every `batchRead` request, by name, with [`PageValue`]
    /// placeholders (`{offset}`, `{since}`, ...).
    #[serde(default)]
    pub query: BTreeMap<String, String>,
    /// Request headers of every `batchRead` request (each page's, a next link's included), by
    /// name, with the same placeholders: a system that filters changes by a header
    /// (`If-Modified-Since: "{since}"`).
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// How the pages follow one another (default: one request, no paging).
    #[serde(default)]
    pub paging: PagingSpec,
    /// Which side wins a record changed on both since the last sync (default: the platform).
    #[serde(default)]
    pub conflict: ConflictPolicy,
}

/// Which side wins when a record changed on the platform and in the external system since
/// they last agreed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ConflictPolicy {
    /// The platform's version stands (the pull leaves the record; the next push sends it).
    #[default]
    PlatformWins,
    /// The external version is written onto the platform.
    ExternalWins,
    /// The version changed last wins, by the platform's `updatedAt` and the `updatedAt` the
    /// pull template maps from the external record; without both, the platform's stands.
    NewestWins,
}

impl ConflictPolicy {
    /// The name written in the definition.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ConflictPolicy::PlatformWins => "platformWins",
            ConflictPolicy::ExternalWins => "externalWins",
            ConflictPolicy::NewestWins => "newestWins",
        }
    }
}

/// `x-syncdef.pull.<Entry>.paging`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PagingSpec {
    /// How the next page is asked for.
    #[serde(default)]
    pub style: PagingStyle,
    /// Records a page holds at most (`{size}`); `offset` and `page` need it, and stop at a
    /// page that holds fewer.
    pub size: Option<u32>,
    /// Where the answer names the next page (`cursor`: the cursor's value; `nextLink`: its
    /// absolute URL): a field name read like an action's (`@odata.nextLink`,
    /// `meta.next_cursor`).
    pub next: Option<String>,
}

/// How the pages of a `batchRead` follow one another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PagingStyle {
    /// One request gives everything.
    #[default]
    None,
    /// `{offset}` (0-based) or `{position}` (1-based) advances by the records read.
    Offset,
    /// `{page}` (1-based) advances by one.
    Page,
    /// `{cursor}` is the value the previous answer named at `next`.
    Cursor,
    /// The next request goes to the absolute URL the previous answer named at `next`.
    NextLink,
}

/// A value the engine fills into a `batchRead` query parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageValue {
    /// `{offset}`: records before this page (0 on the first).
    Offset,
    /// `{position}`: the first record's 1-based position (QuickBooks' `startposition`).
    Position,
    /// `{page}`: the 1-based page number.
    Page,
    /// `{size}`: the page size.
    Size,
    /// `{cursor}`: the cursor the previous page named (empty on the first).
    Cursor,
    /// `{since}`: the change time the pull starts from (RFC 3339).
    Since,
}

impl PageValue {
    const ALL: [(&'static str, PageValue); 6] = [
        ("offset", PageValue::Offset),
        ("position", PageValue::Position),
        ("page", PageValue::Page),
        ("size", PageValue::Size),
        ("cursor", PageValue::Cursor),
        ("since", PageValue::Since),
    ];

    fn named(name: &str) -> Option<PageValue> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

/// One part of a `batchRead` query parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PagePart {
    /// Written as it is.
    Text(String),
    /// Filled per page.
    Value(PageValue),
}

/// The parts of a `batchRead` query parameter's text.
///
/// # Errors
/// An unclosed `{`, or a placeholder that is not one of [`PageValue`]'s.
pub fn page_parts(text: &str) -> Result<Vec<PagePart>, String> {
    pieces(text)?
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(t) => Ok(PagePart::Text(t.to_owned())),
            Piece::Placeholder(name) => {
                PageValue::named(name).map(PagePart::Value).ok_or_else(|| {
                    let known: Vec<String> = PageValue::ALL
                        .iter()
                        .map(|(n, _)| format!("{{{n}}}"))
                        .collect();
                    format!(
                        "`{{{name}}}` is not a paging placeholder (they are {})",
                        known.join(", ")
                    )
                })
            }
        })
        .collect()
}

impl PullSpec {
    /// What is wrong with the declaration, by the member at fault.
    pub(super) fn problems(&self) -> Vec<(Vec<String>, String)> {
        let mut out = Vec::new();
        let mut used = Vec::new();
        let texts = [("query", &self.query), ("headers", &self.headers)];
        for (member, name, text) in texts
            .iter()
            .flat_map(|(member, map)| map.iter().map(move |(n, t)| (*member, n, t)))
        {
            match page_parts(text) {
                Ok(parts) => used.extend(parts.into_iter().filter_map(|p| match p {
                    PagePart::Value(v) => Some(v),
                    PagePart::Text(_) => None,
                })),
                Err(e) => out.push((vec![member.to_owned(), name.clone()], e)),
            }
        }
        let paging = |member: &str| vec!["paging".to_owned(), member.to_owned()];
        let style = self.paging.style;
        if let Some(problem) = self.paging.size_problem() {
            out.push((paging("size"), problem));
        }
        let needs_next = matches!(style, PagingStyle::Cursor | PagingStyle::NextLink);
        match (&self.paging.next, needs_next) {
            (None, true) => out.push((
                vec!["paging".to_owned()],
                format!("`style: {}` needs `next`: the field of the answer that names the next page (`@odata.nextLink`)", style.name()),
            )),
            (Some(_), false) => out.push((
                paging("next"),
                format!("`next` is read only by `style: cursor` and `style: nextLink`, not `style: {}`", style.name()),
            )),
            _ => {}
        }
        let advancing: &[PageValue] = match style {
            PagingStyle::Offset => &[PageValue::Offset, PageValue::Position],
            PagingStyle::Page => &[PageValue::Page],
            PagingStyle::Cursor => &[PageValue::Cursor],
            PagingStyle::None | PagingStyle::NextLink => &[],
        };
        // A placeholder that does not parse is reported already: what it meant is unknown.
        let all_parsed = !out
            .iter()
            .any(|(at, _)| at.first().is_some_and(|m| m == "query"));
        if all_parsed && !advancing.is_empty() && !advancing.iter().any(|v| used.contains(v)) {
            let names: Vec<&str> = PageValue::ALL
                .iter()
                .filter(|(_, v)| advancing.contains(v))
                .map(|(n, _)| *n)
                .collect();
            out.push((
                vec!["query".to_owned()],
                format!(
                    "`style: {}` pages with {}, but no query parameter holds it: every request would ask for the first page again",
                    style.name(),
                    names.iter().map(|n| format!("`{{{n}}}`")).collect::<Vec<_>>().join(" or ")
                ),
            ));
        }
        out
    }
}

impl PagingSpec {
    fn size_problem(&self) -> Option<String> {
        let style = self.style;
        match (self.size, style) {
            (Some(0), _) => Some("`size` must be at least 1".into()),
            (None, PagingStyle::Offset | PagingStyle::Page) => Some(format!(
                "`style: {}` needs `size`: the most records a page holds (a shorter page is the last)",
                style.name()
            )),
            _ => None,
        }
    }
}

impl PagingStyle {
    /// The name written in the definition.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            PagingStyle::None => "none",
            PagingStyle::Offset => "offset",
            PagingStyle::Page => "page",
            PagingStyle::Cursor => "cursor",
            PagingStyle::NextLink => "nextLink",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(
        query: &[(&str, &str)],
        style: PagingStyle,
        size: Option<u32>,
        next: Option<&str>,
    ) -> PullSpec {
        PullSpec {
            query: query
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            headers: BTreeMap::new(),
            paging: PagingSpec {
                style,
                size,
                next: next.map(str::to_owned),
            },
            conflict: ConflictPolicy::default(),
        }
    }

    #[test]
    fn header_placeholders_are_checked_like_the_query_s() {
        let mut s = spec(&[("page", "{page}")], PagingStyle::Page, Some(100), None);
        s.headers
            .insert("If-Modified-Since".into(), "{since}".into());
        assert!(s.problems().is_empty(), "{:?}", s.problems());
        s.headers.insert("X-Tenant".into(), "{tenant}".into());
        let problems = s.problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, ["headers", "X-Tenant"]);
    }

    #[test]
    fn placeholders_are_the_paging_values() {
        assert_eq!(
            page_parts("startposition {position} maxresults {size}").unwrap(),
            vec![
                PagePart::Text("startposition ".into()),
                PagePart::Value(PageValue::Position),
                PagePart::Text(" maxresults ".into()),
                PagePart::Value(PageValue::Size),
            ]
        );
        let e = page_parts("x {offst}").unwrap_err();
        assert!(e.contains("`{offst}` is not a paging placeholder"), "{e}");
        assert!(page_parts("x {offset").unwrap_err().contains("not closed"));
    }

    #[test]
    fn each_style_asks_for_what_it_reads() {
        let fine = spec(
            &[("q", "{position} {size}")],
            PagingStyle::Offset,
            Some(100),
            None,
        );
        assert!(fine.problems().is_empty());
        let no_size = spec(&[("q", "{offset}")], PagingStyle::Offset, None, None);
        assert_eq!(no_size.problems()[0].0, ["paging", "size"]);
        let never_advances = spec(&[("q", "{size}")], PagingStyle::Page, Some(10), None);
        let problems = never_advances.problems();
        assert_eq!(problems[0].0, ["query"]);
        assert!(problems[0].1.contains("`{page}`"), "{}", problems[0].1);
        let link_without_next = spec(&[], PagingStyle::NextLink, None, None);
        assert_eq!(link_without_next.problems()[0].0, ["paging"]);
        let stray_next = spec(&[], PagingStyle::None, None, Some("next"));
        assert_eq!(stray_next.problems()[0].0, ["paging", "next"]);
        let cursor = spec(
            &[("after", "{cursor}")],
            PagingStyle::Cursor,
            None,
            Some("meta.next"),
        );
        assert!(cursor.problems().is_empty());
        let zero = spec(&[("p", "{page}")], PagingStyle::Page, Some(0), None);
        assert_eq!(zero.problems()[0].1, "`size` must be at least 1");
    }
}
