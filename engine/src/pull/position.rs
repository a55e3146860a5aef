//! Where a `batchRead` is in the external system's pages: the position a page is asked at,
//! the query parameters that ask for it, and the position of the page after it.

use serde::{Deserialize, Serialize};
use syncdef_definitions::extension::{PagePart, PageValue, PagingSpec, PagingStyle, page_parts};
use url::Url;

use crate::lookup;

/// What `{since}` is when the caller gives no change time: every record.
pub const BEGINNING: &str = "1970-01-01T00:00:00Z";

/// Which page of a `batchRead` to ask for. Serializable, so that a caller can keep it between
/// pages and resume a pull that stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "at", rename_all = "camelCase")]
pub enum PagePosition {
    /// The first page.
    #[default]
    First,
    /// `style: offset`: the records before the page.
    Offset(u64),
    /// `style: page`: the 1-based page number.
    Page(u64),
    /// `style: cursor`: the cursor the previous page named.
    Cursor(String),
    /// `style: nextLink`: the absolute URL the previous page named.
    Link(String),
}

/// An entry's paging, compiled: its query parameters and how pages follow one another.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Paging {
    pub style: PagingStyle,
    pub size: Option<u32>,
    pub next: Option<String>,
    pub query: Vec<(String, Vec<PagePart>)>,
    pub headers: Vec<(String, Vec<PagePart>)>,
}

impl From<&syncdef_definitions::extension::PullSpec> for Paging {
    /// A checked declaration (`Extension::read` refused malformed placeholders, so a text that
    /// still does not parse is kept as plain text).
    fn from(spec: &syncdef_definitions::extension::PullSpec) -> Paging {
        let PagingSpec { style, size, next } = spec.paging.clone();
        let compile = |texts: &std::collections::BTreeMap<String, String>| {
            texts
                .iter()
                .map(|(name, text)| {
                    let parts =
                        page_parts(text).unwrap_or_else(|_| vec![PagePart::Text(text.clone())]);
                    (name.clone(), parts)
                })
                .collect()
        };
        Paging {
            style,
            size,
            next,
            query: compile(&spec.query),
            headers: compile(&spec.headers),
        }
    }
}

/// Why the next page cannot be asked for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct PagingError(pub String);

impl Paging {
    /// The query parameters that ask for the page at `at`, the pull starting from `since`;
    /// none for a next link, which carries its own.
    pub fn parameters(&self, at: &PagePosition, since: &str) -> Vec<(String, String)> {
        if matches!(at, PagePosition::Link(_)) {
            return Vec::new();
        }
        self.filled(&self.query, at, since)
    }

    /// The headers of the request for the page at `at`: every page's, a next link's too (a
    /// link carries its query, not its headers).
    pub fn headers(&self, at: &PagePosition, since: &str) -> Vec<(String, String)> {
        self.filled(&self.headers, at, since)
    }

    fn filled(
        &self,
        texts: &[(String, Vec<PagePart>)],
        at: &PagePosition,
        since: &str,
    ) -> Vec<(String, String)> {
        let size = u64::from(self.size.unwrap_or(0));
        let offset = match at {
            PagePosition::Offset(n) => *n,
            PagePosition::Page(p) => p.saturating_sub(1).saturating_mul(size),
            _ => 0,
        };
        let page = match at {
            PagePosition::Page(p) => *p,
            _ => 1,
        };
        let cursor = match at {
            PagePosition::Cursor(c) => c.as_str(),
            _ => "",
        };
        texts
            .iter()
            .map(|(name, parts)| {
                let mut value = String::new();
                for part in parts {
                    match part {
                        PagePart::Text(t) => value.push_str(t),
                        PagePart::Value(v) => value.push_str(&match v {
                            PageValue::Offset => offset.to_string(),
                            PageValue::Position => offset.saturating_add(1).to_string(),
                            PageValue::Page => page.to_string(),
                            PageValue::Size => size.to_string(),
                            PageValue::Cursor => cursor.to_owned(),
                            PageValue::Since => since.to_owned(),
                        }),
                    }
                }
                (name.clone(), value)
            })
            .collect()
    }

    /// The position after the page at `at`, which held `count` records and was answered with
    /// `body`, from `base` (the server: a next link must stay on its origin); `None` when it
    /// was the last.
    ///
    /// # Errors
    /// A cursor or link that names the page just read (the pages would never end), a link to
    /// another origin, or one that is not a URL.
    pub fn after(
        &self,
        at: &PagePosition,
        count: usize,
        body: Option<&serde_json::Value>,
        base: &Url,
    ) -> Result<Option<PagePosition>, PagingError> {
        let count = count as u64;
        let full = self.size.is_some_and(|size| count >= u64::from(size));
        match self.style {
            PagingStyle::None => Ok(None),
            PagingStyle::Offset => Ok(full.then(|| {
                let before = match at {
                    PagePosition::Offset(n) => *n,
                    _ => 0,
                };
                PagePosition::Offset(before.saturating_add(count))
            })),
            PagingStyle::Page => Ok(full.then(|| {
                let page = match at {
                    PagePosition::Page(p) => *p,
                    _ => 1,
                };
                PagePosition::Page(page.saturating_add(1))
            })),
            PagingStyle::Cursor => {
                let Some(cursor) = self.named_next(body) else {
                    return Ok(None);
                };
                if matches!(at, PagePosition::Cursor(c) if *c == cursor) {
                    return Err(PagingError(format!(
                        "the answer names the cursor of the page just read (`{cursor}`) as the next: the pages would never end"
                    )));
                }
                Ok(Some(PagePosition::Cursor(cursor)))
            }
            PagingStyle::NextLink => {
                let Some(link) = self.named_next(body) else {
                    return Ok(None);
                };
                let url = base.join(&link).map_err(|e| {
                    PagingError(format!("the next link `{link}` is not a URL ({e})"))
                })?;
                if url.origin() != base.origin() {
                    return Err(PagingError(format!(
                        "the next link goes to {}, not to the external system's server {}: it is not followed, so that the access token goes nowhere else",
                        url.origin().ascii_serialization(),
                        base.origin().ascii_serialization()
                    )));
                }
                let link = url.to_string();
                if matches!(at, PagePosition::Link(l) if *l == link) {
                    return Err(PagingError(format!(
                        "the answer names the page just read as the next ({link}): the pages would never end"
                    )));
                }
                Ok(Some(PagePosition::Link(link)))
            }
        }
    }

    /// The text the answer names at `next`; nothing when absent, null or empty.
    fn named_next(&self, body: Option<&serde_json::Value>) -> Option<String> {
        let field = lookup::field(body?, self.next.as_deref()?)?;
        lookup::scalar_text(field).filter(|t| !t.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paging(
        style: PagingStyle,
        size: Option<u32>,
        next: Option<&str>,
        query: &[(&str, &str)],
    ) -> Paging {
        Paging {
            style,
            size,
            next: next.map(str::to_owned),
            query: query
                .iter()
                .map(|(k, v)| ((*k).to_owned(), page_parts(v).unwrap()))
                .collect(),
            headers: Vec::new(),
        }
    }

    #[test]
    fn headers_go_on_every_page_a_next_link_s_included() {
        let mut p = paging(PagingStyle::Page, Some(100), None, &[("page", "{page}")]);
        p.headers = vec![(
            "If-Modified-Since".to_owned(),
            page_parts("{since}").unwrap(),
        )];
        let since = "2026-01-01T00:00:00Z";
        let expected = vec![("If-Modified-Since".to_owned(), since.to_owned())];
        assert_eq!(p.headers(&PagePosition::Page(2), since), expected);
        let link = PagePosition::Link("https://api.example.com/next".into());
        assert!(p.parameters(&link, since).is_empty());
        assert_eq!(p.headers(&link, since), expected);
    }

    fn base() -> Url {
        Url::parse("https://api.example.com/v3/company/1/").unwrap()
    }

    #[test]
    fn offsets_count_the_records_read_and_stop_at_a_short_page() {
        let p = paging(
            PagingStyle::Offset,
            Some(100),
            None,
            &[(
                "query",
                "select * from Customer where Metadata.LastUpdatedTime >= '{since}' startposition {position} maxresults {size}",
            )],
        );
        assert_eq!(
            p.parameters(&PagePosition::First, BEGINNING)[0].1,
            "select * from Customer where Metadata.LastUpdatedTime >= '1970-01-01T00:00:00Z' startposition 1 maxresults 100"
        );
        let second = p.after(&PagePosition::First, 100, None, &base()).unwrap();
        assert_eq!(second, Some(PagePosition::Offset(100)));
        let second = second.unwrap();
        assert!(
            p.parameters(&second, "2026-01-01T00:00:00Z")[0]
                .1
                .contains("startposition 101 maxresults 100")
        );
        assert_eq!(p.after(&second, 99, None, &base()).unwrap(), None);
        assert_eq!(p.after(&second, 0, None, &base()).unwrap(), None);
    }

    #[test]
    fn pages_advance_by_one() {
        let p = paging(
            PagingStyle::Page,
            Some(2),
            None,
            &[
                ("page", "{page}"),
                ("per_page", "{size}"),
                ("skip", "{offset}"),
            ],
        );
        let first = p.parameters(&PagePosition::First, BEGINNING);
        assert_eq!(
            first,
            vec![
                ("page".into(), "1".into()),
                ("per_page".into(), "2".into()),
                ("skip".into(), "0".into())
            ]
        );
        let next = p
            .after(&PagePosition::First, 2, None, &base())
            .unwrap()
            .unwrap();
        assert_eq!(next, PagePosition::Page(2));
        assert_eq!(p.parameters(&next, BEGINNING)[2].1, "2");
        assert_eq!(p.after(&next, 1, None, &base()).unwrap(), None);
    }

    #[test]
    fn cursors_end_when_absent_and_never_repeat() {
        let p = paging(
            PagingStyle::Cursor,
            None,
            Some("meta.next_cursor"),
            &[("after", "{cursor}")],
        );
        assert_eq!(p.parameters(&PagePosition::First, BEGINNING)[0].1, "");
        let body = json!({"meta": {"next_cursor": "abc"}});
        let next = p
            .after(&PagePosition::First, 5, Some(&body), &base())
            .unwrap()
            .unwrap();
        assert_eq!(next, PagePosition::Cursor("abc".into()));
        assert_eq!(p.parameters(&next, BEGINNING)[0].1, "abc");
        assert!(
            p.after(&next, 5, Some(&body), &base())
                .unwrap_err()
                .0
                .contains("never end")
        );
        for end in [
            json!({"meta": {"next_cursor": null}}),
            json!({"meta": {}}),
            json!({"meta": {"next_cursor": ""}}),
        ] {
            assert_eq!(p.after(&next, 5, Some(&end), &base()).unwrap(), None);
        }
    }

    #[test]
    fn next_links_stay_on_the_server() {
        let p = paging(PagingStyle::NextLink, None, Some("@odata.nextLink"), &[]);
        let body = json!({"@odata.nextLink": "https://api.example.com/v3/company/1/customers?$skiptoken=2"});
        let next = p
            .after(&PagePosition::First, 20, Some(&body), &base())
            .unwrap()
            .unwrap();
        assert_eq!(
            next,
            PagePosition::Link(
                "https://api.example.com/v3/company/1/customers?$skiptoken=2".into()
            )
        );
        assert!(p.parameters(&next, BEGINNING).is_empty());
        assert!(
            p.after(&next, 20, Some(&body), &base())
                .unwrap_err()
                .0
                .contains("never end")
        );
        let relative = json!({"@odata.nextLink": "customers?page=3"});
        assert_eq!(
            p.after(&next, 20, Some(&relative), &base()).unwrap(),
            Some(PagePosition::Link(
                "https://api.example.com/v3/company/1/customers?page=3".into()
            ))
        );
        let elsewhere = json!({"@odata.nextLink": "https://attacker.example.net/steal"});
        let e = p
            .after(&PagePosition::First, 20, Some(&elsewhere), &base())
            .unwrap_err();
        assert!(e.0.contains("not followed"), "{}", e.0);
        let downgraded =
            json!({"@odata.nextLink": "http://api.example.com/v3/company/1/customers"});
        assert!(
            p.after(&PagePosition::First, 20, Some(&downgraded), &base())
                .is_err()
        );
        assert_eq!(p.after(&next, 20, Some(&json!({})), &base()).unwrap(), None);
    }

    #[test]
    fn positions_round_trip_through_json() {
        for at in [
            PagePosition::First,
            PagePosition::Offset(300),
            PagePosition::Page(4),
            PagePosition::Cursor("c".into()),
            PagePosition::Link("https://x/y".into()),
        ] {
            let text = serde_json::to_string(&at).unwrap();
            assert_eq!(
                serde_json::from_str::<PagePosition>(&text).unwrap(),
                at,
                "{text}"
            );
        }
    }
}
