//! [`Query`]: what to read from a collection, checked before anything is sent.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use super::check::{check_filter, check_order};
use super::collection::Collection;
use super::filter::Filter;
use super::order::{Direction, OrderBy};
use super::problem::{QueryError, QueryProblem};
use crate::suggest::did_you_mean;

/// Everything but RFC 3986 unreserved characters is escaped, in paths and query values alike:
/// a `&`, `+` or `#` inside a string literal must never end or change the parameter.
pub(crate) const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A read of one collection: path values, `$filter`, `$orderby` and page size.
///
/// ```
/// use syncdef_platform::collections;
/// use syncdef_platform::query::{Date, Direction, Filter, Query};
///
/// let since = Date::parse("2024-01-31").expect("valid date");
/// let query = Query::new(&collections::ACCOUNTS)
///     .filter(Filter::gt("updatedAt", since))
///     .order_by("updatedAt", Direction::Asc)
///     .page_size(100);
/// let checked = query.check().expect("valid query");
/// assert_eq!(checked.filter_text(), Some("updatedAt gt datetime'2024-01-31'"));
///
/// let wrong = Query::new(&collections::ACCOUNTS).filter(Filter::eq("nmae", "Acme"));
/// assert!(wrong.check().unwrap_err().to_string().contains("did you mean `name`?"));
/// ```
#[derive(Debug, Clone)]
pub struct Query {
    collection: &'static Collection,
    path_params: Vec<(String, String)>,
    filter: Option<Filter>,
    order: Vec<OrderBy>,
    page_size: Option<u32>,
    allow_unlisted_order: bool,
}

impl Query {
    /// A query returning the whole collection.
    pub fn new(collection: &'static Collection) -> Self {
        Self {
            collection,
            path_params: Vec::new(),
            filter: None,
            order: Vec::new(),
            page_size: None,
            allow_unlisted_order: false,
        }
    }

    /// The collection read.
    pub fn collection(&self) -> &'static Collection {
        self.collection
    }

    /// Fills a `{placeholder}` of the collection path (`pricelistId`, `module`, ...).
    #[must_use]
    pub fn path_param(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.path_params.push((name.into(), value.into()));
        self
    }

    /// Adds a filter; a second call combines both with `and`.
    #[must_use]
    pub fn filter(mut self, filter: Filter) -> Self {
        self.filter = Some(match self.filter.take() {
            Some(existing) => existing.and(filter),
            None => filter,
        });
        self
    }

    /// Appends an ordering term; earlier terms take priority.
    #[must_use]
    pub fn order_by(mut self, property: impl Into<String>, direction: Direction) -> Self {
        self.order.push(OrderBy {
            property: property.into(),
            direction,
        });
        self
    }

    /// Asks for pages of `size` records (`page`/`size` parameters). Without it the server's
    /// default page size applies. Ignored below API version 2, where no envelope tells when
    /// the pages end.
    #[must_use]
    pub fn page_size(mut self, size: u32) -> Self {
        self.page_size = Some(size);
        self
    }

    /// Lets `$orderby` use any filterable property on collections for which the spec shows
    /// no order properties (bundles, payments, price list items, ...). For users who have
    /// checked that their platform accepts it; listed collections stay strict.
    #[must_use]
    pub fn allow_unlisted_order(mut self) -> Self {
        self.allow_unlisted_order = true;
        self
    }

    /// Checks everything against the collection and renders the request parts.
    pub fn check(&self) -> Result<CheckedQuery, QueryError> {
        let mut problems = Vec::new();
        let path = self.render_path(&mut problems);
        if let Some(filter) = &self.filter {
            check_filter(self.collection, filter, &mut problems);
        }
        check_order(
            self.collection,
            &self.order,
            self.allow_unlisted_order,
            &mut problems,
        );
        if self.page_size == Some(0) {
            problems.push(QueryProblem::ZeroPageSize);
        }
        if !problems.is_empty() {
            return Err(QueryError {
                collection: self.collection.path,
                problems,
            });
        }
        let orderby = (!self.order.is_empty()).then(|| {
            self.order
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        });
        Ok(CheckedQuery {
            path,
            filter: self.filter.as_ref().map(ToString::to_string),
            orderby,
            page_size: self.page_size,
        })
    }

    fn render_path(&self, problems: &mut Vec<QueryProblem>) -> String {
        let params = self.collection.path_params;
        for (name, _) in &self.path_params {
            if !params.iter().any(|p| p.name == name) {
                problems.push(QueryProblem::UnknownPathParam {
                    name: name.clone(),
                    suggestion: did_you_mean(name, params.iter().map(|p| p.name)),
                });
            }
        }
        let mut path = self.collection.path.to_owned();
        for param in params {
            let value = self
                .path_params
                .iter()
                .rev()
                .find(|(name, _)| name == param.name)
                .map(|(_, value)| value.as_str())
                .filter(|value| !value.is_empty());
            let Some(value) = value else {
                problems.push(QueryProblem::MissingPathParam { name: param.name });
                continue;
            };
            if !param.allowed.is_empty() && !param.allowed.contains(&value) {
                problems.push(QueryProblem::PathParamNotAllowed {
                    name: param.name,
                    value: value.to_owned(),
                    allowed: param.allowed,
                    suggestion: did_you_mean(value, param.allowed.iter().copied()),
                });
                continue;
            }
            let encoded = utf8_percent_encode(value, COMPONENT).to_string();
            path = path.replace(&format!("{{{}}}", param.name), &encoded);
        }
        path
    }
}

/// A query that passed [`Query::check`]: the path and parameters as they will be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedQuery {
    path: String,
    filter: Option<String>,
    orderby: Option<String>,
    page_size: Option<u32>,
}

impl CheckedQuery {
    /// The collection path with its placeholders filled and escaped.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The `$filter` text, unescaped.
    pub fn filter_text(&self) -> Option<&str> {
        self.filter.as_deref()
    }

    /// The `$orderby` text, unescaped.
    pub fn orderby_text(&self) -> Option<&str> {
        self.orderby.as_deref()
    }

    /// The requested page size.
    pub fn page_size(&self) -> Option<u32> {
        self.page_size
    }

    /// The escaped query string; `page` adds `page` and `size` when a page size was asked for.
    pub fn query_string(&self, page: Option<u32>) -> String {
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if let Some(filter) = &self.filter {
            pairs.push(("$filter", filter.clone()));
        }
        if let Some(orderby) = &self.orderby {
            pairs.push(("$orderby", orderby.clone()));
        }
        if let (Some(page), Some(size)) = (page, self.page_size) {
            pairs.push(("page", page.to_string()));
            pairs.push(("size", size.to_string()));
        }
        pairs
            .iter()
            .map(|(key, value)| format!("{key}={}", utf8_percent_encode(value, COMPONENT)))
            .collect::<Vec<_>>()
            .join("&")
    }
}
