//! Reading a whole collection page by page, as a stream of records.

use std::collections::HashSet;

use futures::stream::{self, BoxStream, StreamExt, TryStreamExt};
use percent_encoding::utf8_percent_encode;
use reqwest::Method;
use serde_json::Value;
use url::Url;

use crate::client::PlatformClient;
use crate::envelope::{CollectionBody, PageInfo, parse_collection};
use crate::error::{PlatformError, truncate_body};
use crate::query::{COMPONENT, Query, QueryError};

/// One page of a collection answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The records of this page.
    pub records: Vec<Value>,
    /// The envelope's numbers; `None` when the answer was a plain array.
    pub info: Option<PageInfo>,
    /// The URL this page was read from.
    pub url: Url,
}

/// What to do after a page.
enum Next {
    Fetch(Url),
    Fail(PlatformError),
    Done,
}

struct Pager {
    client: PlatformClient,
    next: Next,
    visited: HashSet<String>,
    fetched: u32,
    requested_size: Option<u32>,
}

impl PlatformClient {
    /// The pages of a query, following the envelope's `links.next` to the end.
    ///
    /// The query is checked first: a wrong property or literal is an error here, before any
    /// request. The stream ends after the first error.
    pub fn pages(
        &self,
        query: &Query,
    ) -> Result<BoxStream<'static, Result<Page, PlatformError>>, QueryError> {
        let checked = query.check()?;
        // Below version 2 no envelope says where the pages end, and a server that honoured
        // `size` would silently truncate the result; so ask for everything at once.
        let page_size = checked
            .page_size()
            .filter(|_| self.api_version().has_paging_envelope());
        if checked.page_size().is_some() && page_size.is_none() {
            tracing::debug!(version = %self.api_version(), "page size ignored: this API version has no paging envelope");
        }
        let query_string = if page_size.is_some() {
            checked.query_string(Some(1))
        } else {
            checked.query_string(None)
        };
        let first = self.url(checked.path(), Some(&query_string));
        Ok(self.pages_from(first, page_size))
    }

    /// The records of a query, across all pages. See [`PlatformClient::pages`].
    pub fn list(
        &self,
        query: &Query,
    ) -> Result<BoxStream<'static, Result<Value, PlatformError>>, QueryError> {
        Ok(flatten(self.pages(query)?))
    }

    /// All records of a query in memory. Prefer [`PlatformClient::list`] for big collections.
    pub async fn list_all(&self, query: &Query) -> Result<Vec<Value>, PlatformError> {
        self.list(query)?.try_collect().await
    }

    /// All records of a collection path without query (child collections and lists of
    /// spec part 4.3), following pages if the answer is an envelope.
    pub(crate) async fn list_path(&self, path: &str) -> Result<Vec<Value>, PlatformError> {
        let first = self.url(path, None);
        flatten(self.pages_from(first, None)).try_collect().await
    }

    pub(crate) fn pages_from(
        &self,
        first: Url,
        requested_size: Option<u32>,
    ) -> BoxStream<'static, Result<Page, PlatformError>> {
        let pager = Pager {
            client: self.clone(),
            next: Next::Fetch(first),
            visited: HashSet::new(),
            fetched: 0,
            requested_size,
        };
        stream::unfold(pager, |mut pager| async move {
            match std::mem::replace(&mut pager.next, Next::Done) {
                Next::Done => None,
                Next::Fail(error) => Some((Err(error), pager)),
                Next::Fetch(url) => match pager.fetch(url).await {
                    Ok(page) => Some((Ok(page), pager)),
                    Err(error) => Some((Err(error), pager)),
                },
            }
        })
        .boxed()
    }
}

fn flatten(
    pages: BoxStream<'static, Result<Page, PlatformError>>,
) -> BoxStream<'static, Result<Value, PlatformError>> {
    pages
        .map_ok(|page| stream::iter(page.records.into_iter().map(Ok)))
        .try_flatten()
        .boxed()
}

impl Pager {
    /// Reads one page and decides what comes next. `self.next` stays `Done` on error, so
    /// the stream ends after reporting it.
    async fn fetch(&mut self, url: Url) -> Result<Page, PlatformError> {
        if self.fetched >= self.client.max_pages() {
            return Err(PlatformError::Paging {
                url: url.to_string(),
                reason: format!(
                    "read {} pages without reaching the end; raise max_pages if the collection is really that large",
                    self.fetched
                ),
            });
        }
        self.fetched += 1;
        self.visited.insert(url.to_string());
        let body = self.client.get_json(&url).await?;
        let parsed = parse_collection(body).map_err(|e| PlatformError::Decode {
            method: Method::GET,
            url: url.to_string(),
            reason: e.reason,
            body: truncate_body(&e.body.to_string()),
        })?;
        match parsed {
            CollectionBody::Array(records) => {
                if self
                    .requested_size
                    .is_some_and(|size| records.len() == size as usize && self.fetched == 1)
                {
                    tracing::warn!(%url, "a plain array as long as the page size came back: the endpoint may have truncated the result without an envelope");
                }
                Ok(Page {
                    records,
                    info: None,
                    url,
                })
            }
            CollectionBody::Envelope { data, info, next } => {
                self.next = self.next_step(&url, &data, &info, next.as_deref());
                Ok(Page {
                    records: data,
                    info: Some(info),
                    url,
                })
            }
        }
    }

    fn next_step(&self, url: &Url, data: &[Value], info: &PageInfo, link: Option<&str>) -> Next {
        // An empty page ends the walk even if a link follows: nothing suggests more data,
        // and it stops servers that link past the end.
        if data.is_empty() {
            return Next::Done;
        }
        let next = match link {
            Some(link) => match self.resolve(url, link) {
                Ok(next) => next,
                Err(error) => return Next::Fail(error),
            },
            // No link but numbers that say there is more: ask for the following page.
            None => match (info.page, info.page_count) {
                (Some(page), Some(count)) if page < count => with_page(url, page + 1, info.size),
                _ => return Next::Done,
            },
        };
        if self.visited.contains(next.as_str()) {
            return Next::Fail(PlatformError::Paging {
                url: url.to_string(),
                reason: format!(
                    "the next link {next} was already read; the platform's paging loops, so the walk stops here"
                ),
            });
        }
        Next::Fetch(next)
    }

    /// Resolves a next link and refuses one on another origin: the bearer token must never
    /// be sent to a host other than the configured platform.
    fn resolve(&self, url: &Url, link: &str) -> Result<Url, PlatformError> {
        let next = url.join(link).map_err(|e| PlatformError::Paging {
            url: url.to_string(),
            reason: format!("the next link `{link}` is not a URL ({e})"),
        })?;
        let base = self.client.base_url();
        if next.origin() != base.origin() {
            return Err(PlatformError::Paging {
                url: url.to_string(),
                reason: format!(
                    "the next link {next} points outside {}; refusing to send the access token there",
                    base.origin().ascii_serialization()
                ),
            });
        }
        Ok(next)
    }
}

/// `url` with `page` set to `page` (and `size` kept or added), other parameters unchanged.
fn with_page(url: &Url, page: u64, size: Option<u64>) -> Url {
    let mut pairs: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(k, _)| k != "page")
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    pairs.push(("page".to_owned(), page.to_string()));
    if let Some(size) = size
        && !pairs.iter().any(|(k, _)| k == "size")
    {
        pairs.push(("size".to_owned(), size.to_string()));
    }
    let query = pairs
        .iter()
        .map(|(k, v)| {
            // `$filter` and `$orderby` keep their literal `$`, as the platform documents them.
            let key = match k.strip_prefix('$') {
                Some(rest) => format!("${}", utf8_percent_encode(rest, COMPONENT)),
                None => utf8_percent_encode(k, COMPONENT).to_string(),
            };
            format!("{key}={}", utf8_percent_encode(v, COMPONENT))
        })
        .collect::<Vec<_>>()
        .join("&");
    let mut next = url.clone();
    next.set_query(Some(&query));
    next
}

#[cfg(test)]
mod tests {
    use super::with_page;
    use url::Url;

    #[test]
    fn next_page_keeps_the_other_parameters() {
        let url = Url::parse(
            "https://h.example/api/accounts?$filter=name%20eq%20%27a%26b%27&page=1&size=2",
        )
        .expect("url");
        assert_eq!(
            with_page(&url, 2, Some(2)).as_str(),
            "https://h.example/api/accounts?$filter=name%20eq%20%27a%26b%27&size=2&page=2"
        );
    }
}
