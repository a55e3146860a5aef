//! Building a request: the URL from the server and the operation reference with its
//! placeholders filled and percent-encoded, and the headers every push request carries.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock, PoisonError, RwLock, Weak};

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use syncdef_definitions::operation_ref::{OperationRef, PlaceholderKind};
use url::Url;

use crate::auth::Secret;
use crate::error::EngineError;
use crate::mask;
use crate::servers::Server;
use syncdef_validator::rules::dot_segment_path::is_dot_segment;

/// Everything but RFC 3986's unreserved characters is encoded in a placeholder value, so a
/// value can never add a segment (`/`), a query (`?`), a fragment (`#`), or close an OData key
/// literal (`'`, `,`, `)`).
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `value` percent-encoded as (part of) one path segment. Inside an OData key literal
/// (`No='{IntegrationId}'`, `quoted`) a quote is escaped by doubling it first: the server
/// decodes the path, then parses the literal.
pub(crate) fn encode_value(value: &str, quoted: bool) -> String {
    if quoted && value.contains('\'') {
        utf8_percent_encode(&value.replace('\'', "''"), SEGMENT).to_string()
    } else {
        utf8_percent_encode(value, SEGMENT).to_string()
    }
}

/// The values placeholders are filled with.
pub(crate) struct Fill<'a> {
    pub external_id: Option<&'a str>,
    pub related: &'a BTreeMap<String, String>,
    pub variables: &'a BTreeMap<String, String>,
}

/// The absolute URL of `reference` on `base`.
pub(crate) fn url(
    base: &Url,
    reference: &OperationRef,
    fill: &Fill<'_>,
) -> Result<Url, EngineError> {
    let path = &reference.path;
    let mut out = String::with_capacity(path.len() + 16);
    let mut at = 0;
    for p in &reference.placeholders {
        out.push_str(&path[at..p.range.start]);
        let value = match &p.kind {
            PlaceholderKind::IntegrationId => fill.external_id.ok_or_else(|| {
                EngineError::configuration(format!(
                    "`{reference}` needs the record's external id (`{{IntegrationId}}`), and the record has none"
                ))
            })?,
            PlaceholderKind::EntryIntegrationId { entry } => fill
                .related
                .get(entry)
                .map(String::as_str)
                .ok_or_else(|| {
                    EngineError::configuration(format!(
                        "`{reference}` needs the external id of the related `{entry}` (`{{{}}}`); pass it in the record state (`--related {entry}=ID`) or push the `{entry}` first",
                        p.name
                    ))
                })?,
            PlaceholderKind::Name => fill
                .variables
                .get(&p.name)
                .map(String::as_str)
                .ok_or_else(|| {
                    EngineError::configuration(format!(
                        "`{{{}}}` in `{reference}` is neither `IntegrationId`, `<Entry>.IntegrationId` nor a server variable",
                        p.name
                    ))
                })?,
        };
        if value.is_empty() || value == "." || value == ".." {
            return Err(EngineError::configuration(format!(
                "`{{{}}}` in `{reference}` would be `{value}`, which is not a usable path value",
                p.name
            )));
        }
        let quoted = path[..p.range.start].ends_with('\'') && path[p.range.end..].starts_with('\'');
        out.push_str(&encode_value(value, quoted));
        at = p.range.end;
    }
    out.push_str(&path[at..]);
    // A reference may fix a query parameter (QuickBooks deletes with
    // `/customer?operation=delete/post`); `set_path` would encode its `?`. Placeholder values
    // are encoded, so the first `?` is the reference's own.
    let (out, query) = match out.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (out.as_str(), None),
    };
    // A URL parser removes `.` and `..` segments (also written `%2e`), so `/../../steal`
    // under `https://h/api/v1` would reach `https://h/steal`: refused before parsing.
    if out.split('/').any(is_dot_segment) {
        return Err(EngineError::configuration(format!(
            "`{reference}` gives the path `{out}`, which has a `.` or `..` segment: it would leave the server's base path `{}`; refused (remove the segment from the operation path)",
            base.path()
        )));
    }
    let mut url = base.clone();
    let base_path = base.path().trim_end_matches('/');
    let joined = format!("{base_path}{out}");
    url.set_path(&joined);
    // Checked anyway: the base path is where the definition's operations live.
    let within = url
        .path()
        .strip_prefix(base_path)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
    if !within {
        return Err(EngineError::configuration(format!(
            "`{reference}` leads to `{}`, outside the server's base path `{}`; refused",
            url.path(),
            base.path()
        )));
    }
    if let Some(query) = query {
        let joined = match base.query() {
            Some(q) if !q.is_empty() => format!("{q}&{query}"),
            _ => query.to_owned(),
        };
        url.set_query(Some(&joined));
    }
    // The URL is built from the server's origin only; checked anyway, because a request that
    // leaves the definition's server would carry its bearer token elsewhere.
    if url.origin() != base.origin() {
        return Err(EngineError::configuration(format!(
            "`{reference}` leads off the server `{base}`; refused"
        )));
    }
    Ok(url)
}

/// Where a request goes: its URL, and the URL's text as the audit trail shows it (secrets
/// masked), made once with the URL and shared by every attempt's record.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    url: Url,
    shown: Arc<str>,
}

impl Target {
    pub fn new(url: Url) -> Target {
        let shown = Arc::from(&*mask::url(&url));
        Target { url, shown }
    }

    /// Changes the URL (an idempotency key in its query), and its shown text with it.
    pub fn edit(&mut self, change: impl FnOnce(&mut Url)) {
        change(&mut self.url);
        self.shown = Arc::from(&*mask::url(&self.url));
    }

    /// The URL and its shown text.
    pub fn into_parts(self) -> (Url, Arc<str>) {
        (self.url, self.shown)
    }
}

/// The URL of a call whose placeholders are all server variables (a create's
/// `/v3/company/{realmId}/customer`): the same for every push to one server, so it is built
/// once, for the first server the call is sent to, rather than formatted, parsed and checked
/// against the server's origin per push. Other servers (an instance's per-push variables, an
/// engine copy with another base URL) build theirs each time.
#[derive(Debug, Default)]
pub(crate) struct FixedUrl(OnceLock<(Weak<Server>, Result<Target, EngineError>)>);

impl FixedUrl {
    pub fn get(
        &self,
        server: &Arc<Server>,
        build: impl Fn() -> Result<Url, EngineError>,
    ) -> Result<Target, EngineError> {
        let (owner, target) = self
            .0
            .get_or_init(|| (Arc::downgrade(server), build().map(Target::new)));
        // The weak reference keeps the server's allocation, so no other server can be at the
        // same address while the cached URL is alive.
        if std::ptr::eq(owner.as_ptr(), Arc::as_ptr(server)) {
            target.clone()
        } else {
            build().map(Target::new)
        }
    }
}

/// Headers as a request carries them: name, value.
pub(crate) type Headers = Arc<[(String, String)]>;

/// The headers of push requests that add none of their own (`Accept`, `Content-Type:
/// application/json` with a body, unless the request names its own, the bearer token), made for the last token seen and shared by every request that
/// carries it: the token changes once an hour, not once a push. Read-locked, so that
/// concurrent pushes never wait for each other here; only a new token takes the write lock.
#[derive(Default)]
pub(crate) struct RequestHeaders(RwLock<Option<ForToken>>);

struct ForToken {
    token: Option<Secret>,
    with_body: Headers,
    without_body: Headers,
}

impl RequestHeaders {
    pub fn get(
        &self,
        token: Option<&Secret>,
        has_body: bool,
        extra: &[(String, String)],
    ) -> Headers {
        if !extra.is_empty() {
            return headers(token, has_body, extra);
        }
        let pick = |made: &ForToken| {
            Arc::clone(if has_body {
                &made.with_body
            } else {
                &made.without_body
            })
        };
        // Nothing panics while the lock is held; a poisoned one still holds whole headers.
        if let Some(made) = &*self.0.read().unwrap_or_else(PoisonError::into_inner)
            && made.token.as_ref() == token
        {
            return pick(made);
        }
        let made = ForToken {
            token: token.cloned(),
            with_body: headers(token, true, &[]),
            without_body: headers(token, false, &[]),
        };
        let headers = pick(&made);
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = Some(made);
        headers
    }
}

fn headers(token: Option<&Secret>, has_body: bool, extra: &[(String, String)]) -> Headers {
    let mut h = Vec::with_capacity(3 + extra.len());
    h.push(("accept".to_owned(), "application/json".to_owned()));
    let own_type = extra
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("content-type"));
    if has_body && !own_type {
        h.push(("content-type".to_owned(), "application/json".to_owned()));
    }
    if let Some(token) = token {
        h.push((
            "authorization".to_owned(),
            ["Bearer ", token.expose()].concat(),
        ));
    }
    h.extend(extra.iter().cloned());
    h.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(reference: &str, id: &str) -> Result<String, EngineError> {
        let base = Url::parse("https://h.example/base/").unwrap();
        let reference = OperationRef::parse(reference).unwrap();
        let related = BTreeMap::from([("Account".to_owned(), "a/b".to_owned())]);
        let variables = BTreeMap::from([("realmId".to_owned(), "123".to_owned())]);
        let fill = Fill {
            external_id: Some(id),
            related: &related,
            variables: &variables,
        };
        url(&base, &reference, &fill).map(|u| u.to_string())
    }

    #[test]
    fn a_path_never_leaves_the_server_base_path() {
        for reference in [
            "/../../steal/post",
            "/a/../../steal/post",
            "/./x/post",
            "/%2e%2e/steal/post",
            "/.%2E/steal/post",
            "/%2E./steal/post",
            "/%2e/x/post",
            "/items/{IntegrationId}/../../post",
        ] {
            let refused = build(reference, "7").expect_err(reference);
            assert!(
                refused.message.contains("`.` or `..` segment")
                    && refused.message.contains("/base"),
                "{reference}: {}",
                refused.message
            );
        }
        // Dots inside a segment are no segment of their own.
        assert_eq!(
            build("/items/{IntegrationId}/v1.2/get", "a..b").unwrap(),
            "https://h.example/base/items/a..b/v1.2"
        );
        assert_eq!(
            build("/items/{IntegrationId}/get", "%2e%2e").unwrap(),
            "https://h.example/base/items/%252e%252e"
        );
    }

    #[test]
    fn request_headers_follow_the_token() {
        let headers = RequestHeaders::default();
        let named = |h: &Headers| {
            h.iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
        };
        let one = Secret::new("one");
        let first = headers.get(Some(&one), true, &[]);
        assert_eq!(
            named(&first),
            [
                "accept: application/json",
                "content-type: application/json",
                "authorization: Bearer one"
            ]
        );
        assert!(
            Arc::ptr_eq(&first, &headers.get(Some(&one), true, &[])),
            "shared, not rebuilt"
        );
        assert_eq!(
            named(&headers.get(Some(&one), false, &[])),
            ["accept: application/json", "authorization: Bearer one"]
        );
        assert_eq!(
            named(&headers.get(Some(&Secret::new("two")), true, &[])),
            [
                "accept: application/json",
                "content-type: application/json",
                "authorization: Bearer two"
            ]
        );
        assert_eq!(
            named(&headers.get(None, false, &[])),
            ["accept: application/json"]
        );
        let extra = [("If-Match".to_owned(), "W/\"3\"".to_owned())];
        assert_eq!(
            named(&headers.get(Some(&one), false, &extra)),
            [
                "accept: application/json",
                "authorization: Bearer one",
                "If-Match: W/\"3\""
            ]
        );
    }

    #[test]
    fn fixed_urls_are_built_once_per_server_they_belong_to() {
        let server = |base: &str| {
            Arc::new(Server {
                base: Url::parse(base).unwrap(),
                variables: BTreeMap::new(),
                template_variables: syncdef_transform::Value::Null,
            })
        };
        let (first, other) = (server("https://a.example/"), server("https://b.example/"));
        let builds = std::cell::Cell::new(0);
        let build = |s: &Server| {
            builds.set(builds.get() + 1);
            s.base
                .join("customer")
                .map_err(|e| EngineError::configuration(e.to_string()))
        };
        let fixed = FixedUrl::default();
        for _ in 0..3 {
            let (url, shown) = fixed.get(&first, || build(&first)).unwrap().into_parts();
            assert_eq!(url.as_str(), "https://a.example/customer");
            assert_eq!(&*shown, "https://a.example/customer");
        }
        assert_eq!(builds.get(), 1, "built once for the first server");
        for _ in 0..2 {
            let (url, _) = fixed.get(&other, || build(&other)).unwrap().into_parts();
            assert_eq!(url.as_str(), "https://b.example/customer");
        }
        assert_eq!(
            builds.get(),
            3,
            "another server never gets the first one's URL"
        );
    }

    #[test]
    fn encodes_values_as_segments() {
        assert_eq!(
            build(
                "/v3/company/{realmId}/customer/{IntegrationId}/get",
                "1/../x?y#z"
            )
            .unwrap(),
            "https://h.example/base/v3/company/123/customer/1%2F..%2Fx%3Fy%23z"
        );
        assert_eq!(
            build("/x/{Account.IntegrationId}/get", "1").unwrap(),
            "https://h.example/base/x/a%2Fb"
        );
    }

    #[test]
    fn odata_literals_double_quotes() {
        assert_eq!(
            build(
                "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')/put",
                "O'Neil 1"
            )
            .unwrap(),
            "https://h.example/base/SalesInvoice(No='O%27%27Neil%201',Document_Type='Invoice')"
        );
    }

    #[test]
    fn a_query_in_the_reference_stays_a_query() {
        assert_eq!(
            build("/v3/company/{realmId}/customer?operation=delete/post", "1").unwrap(),
            "https://h.example/base/v3/company/123/customer?operation=delete"
        );
        // A value's `?` is encoded, in the path and in the query.
        assert_eq!(
            build("/customer/{IntegrationId}?id={IntegrationId}/get", "a?b").unwrap(),
            "https://h.example/base/customer/a%3Fb?id=a%3Fb"
        );
        let base = Url::parse("https://h.example/base/?key=k").unwrap();
        let reference = OperationRef::parse("/customer?operation=delete/post").unwrap();
        let fill = Fill {
            external_id: None,
            related: &BTreeMap::new(),
            variables: &BTreeMap::new(),
        };
        assert_eq!(
            url(&base, &reference, &fill).unwrap().as_str(),
            "https://h.example/base/customer?key=k&operation=delete"
        );
    }

    #[test]
    fn refuses_dot_segments() {
        assert!(build("/customer/{IntegrationId}/get", "..").is_err());
        assert!(build("/customer/{IntegrationId}/get", "").is_err());
    }
}
