//! The definition's `x-syncdef` extension as written: retries, rate limits, conflict rules,
//! the idempotency key and lookups of the external system. [`Extension::read`] is the one
//! reader: the linter reports what it refuses at the value at fault, and the engine builds its
//! policies from what it returns, so that a definition the linter passes is one the engine
//! loads. The meaning of each key is in docs/reliability.md; `pull` is in docs/pull.md.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::Definition;
use crate::de::from_node;
use crate::node::Node;
use crate::openapi::{BodyEncoding, WRITTEN_MEDIA_TYPES};
use crate::pointer;
use crate::source::Span;

mod parameters;
mod placeholders;
mod pull;

pub use parameters::{
    ENGINE_HEADERS, ParameterPlace, ParametersSpec, fill_parameter, is_engine_header,
};
use placeholders::{Piece, pieces};
pub use pull::{
    ConflictPolicy, PagePart, PageValue, PagingSpec, PagingStyle, PullSpec, page_parts,
};

/// The top-level key of the extension.
pub const EXTENSION_KEY: &str = "x-syncdef";

/// `x-syncdef`, every value checked. Absent members are `None`: their defaults are the
/// engine's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Extension {
    /// `retry`.
    pub retry: Option<RetrySpec>,
    /// `rateLimit`.
    pub rate_limit: Option<RateLimitSpec>,
    /// `conflicts`.
    pub conflicts: Option<Vec<ConflictSpec>>,
    /// `idempotency`.
    pub idempotency: Option<IdempotencySpec>,
    /// `lookup`, by entry name.
    pub lookup: Option<BTreeMap<String, LookupSpec>>,
    /// `requestValidation`.
    pub request_validation: Option<RequestValidationSpec>,
    /// `pull`: how each entry's `batchRead` pages, by entry name.
    pub pull: Option<BTreeMap<String, PullSpec>>,
    /// `requestMediaType`: the media type each entry's request bodies are written in, by entry
    /// name, where its operations declare several (docs/configuration.md).
    pub request_media_type: Option<BTreeMap<String, String>>,
    /// `parameters`: values of the header and query parameters the operations declare
    /// (docs/configuration.md).
    pub parameters: Option<ParametersSpec>,
}

impl Extension {
    /// The media type `x-syncdef.requestMediaType` names for `entry`'s request bodies.
    #[must_use]
    pub fn request_media_type(&self, entry: &str) -> Option<&str> {
        self.request_media_type
            .as_ref()
            .and_then(|m| m.get(entry))
            .map(String::as_str)
    }
}

/// `x-syncdef.requestValidation`: the entries whose request bodies are sent unchecked.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RequestValidationSpec {
    /// Entry names of the `synchronization` section.
    #[serde(default)]
    pub skip: Vec<String>,
}

/// `x-syncdef.retry`: durations in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetrySpec {
    /// Attempts at most, the first included; at least 1.
    pub max_attempts: Option<u32>,
    /// The first backoff's upper bound.
    pub initial_backoff_ms: Option<u64>,
    /// The largest backoff (and `Retry-After` honoured).
    pub max_backoff_ms: Option<u64>,
    /// Time allowed for a request and its retries.
    pub deadline_ms: Option<u64>,
    /// Statuses retried: error statuses (4xx, 5xx) only.
    pub statuses: Option<Vec<u16>>,
}

/// `x-syncdef.rateLimit`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RateLimitSpec {
    /// Server variables naming the account, with the origin.
    #[serde(default)]
    pub key: Vec<String>,
    /// Requests a minute at most; at least 1.
    pub requests_per_minute: Option<u32>,
    /// The length of the window `requestsPerMinute` counts in, in seconds (default 60; at
    /// least 1). Benchmarks and tests shorten it to see a vendor's minute in a few seconds.
    pub window_seconds: Option<u32>,
    /// Requests in flight at most; at least 1.
    pub concurrency: Option<u32>,
}

/// One way the external system reports a stale concurrency token.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConflictSpec {
    /// The HTTP status.
    pub status: u16,
    /// Where in the JSON body the code is: `$`, then `.member`, `[n]` or `[*]` steps.
    #[serde(default)]
    pub path: Option<String>,
    /// The values at `path` that mean a conflict (compared as text).
    #[serde(default)]
    pub equals: Vec<String>,
}

/// `x-syncdef.idempotency`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IdempotencySpec {
    /// `query` or `header`.
    #[serde(rename = "in")]
    pub placement: ParameterPlace,
    /// The parameter or header name; not empty.
    pub name: String,
    /// The operations that carry the key (default: create).
    #[serde(default)]
    pub operations: Option<Vec<Operation>>,
}

/// A push operation named in the extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// `create`.
    Create,
    /// `update`.
    Update,
    /// `delete`.
    Delete,
}

/// `x-syncdef.lookup.<Entry>`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LookupSpec {
    /// The GET operation searched: `/query/get`.
    pub path: String,
    /// Query parameters by name, with `{body.…}` placeholders.
    #[serde(default)]
    pub query: BTreeMap<String, String>,
    /// How body values are quoted.
    pub quote: Quote,
    /// JSONPath to the ids found.
    pub ids: String,
}

/// How a body value is written inside a query: the quoting rules of the query language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Quote {
    /// OData (`$filter`, Business Central): `'O''Brien'`.
    Odata,
    /// QuickBooks' query language: `'O\'Brien'`.
    Quickbooks,
}

impl Quote {
    /// `text` as a string literal of the language.
    #[must_use]
    pub fn literal(self, text: &str) -> String {
        let escaped = match self {
            Quote::Odata => text.replace('\'', "''"),
            Quote::Quickbooks => text.replace('\\', "\\\\").replace('\'', "\\'"),
        };
        ["'", &escaped, "'"].concat()
    }
}

/// One part of a lookup's query parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryPart {
    /// Written as it is.
    Text(String),
    /// `{body.A.B}`: the create body's member `A.B`.
    Body(Vec<String>),
}

/// One step of a conflict rule's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeStep {
    /// `.name`.
    Member(String),
    /// `[n]`.
    Index(usize),
    /// `[*]`.
    All,
}

/// Why `x-syncdef` is refused: what, where (span and JSON pointer), and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtensionError {
    /// What is wrong and what to do.
    pub message: String,
    /// The node at fault.
    pub span: Span,
    /// Its JSON pointer.
    pub pointer: String,
}

impl std::fmt::Display for ExtensionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: {}", self.pointer, self.message)
    }
}

impl Extension {
    /// Reads and checks `x-syncdef` of `definition` (`None` when it has none).
    ///
    /// # Errors
    /// Every problem found, each at its node.
    pub fn read(definition: &Definition) -> Result<Option<Extension>, Vec<ExtensionError>> {
        let Some(node) = definition.root().get(EXTENSION_KEY) else {
            return Ok(None);
        };
        let extension: Extension = from_node(node, &[]).map_err(|e| {
            let pointer = format!("/{EXTENSION_KEY}{}", e.pointer());
            vec![ExtensionError {
                message: format!("{}; see docs/reliability.md for its schema", e.message),
                span: e.span.unwrap_or(node.span),
                pointer,
            }]
        })?;
        let errors = extension.problems(&node, definition);
        if errors.is_empty() {
            Ok(Some(extension))
        } else {
            Err(errors)
        }
    }

    /// The values serde accepts but the engine cannot use.
    #[expect(
        clippy::too_many_lines,
        reason = "a flat list of independent checks of a few lines each, sharing one `refuse`"
    )]
    fn problems(&self, node: &Node, definition: &Definition) -> Vec<ExtensionError> {
        let mut out = Vec::new();
        let mut refuse = |path: &[&str], message: String| {
            out.push(located(node, path, message));
        };
        if let Some(retry) = &self.retry {
            if retry.max_attempts == Some(0) {
                refuse(
                    &["retry", "maxAttempts"],
                    "`retry.maxAttempts` must be at least 1 (1 means no retry)".into(),
                );
            }
            for (i, s) in retry.statuses.iter().flatten().enumerate() {
                if !(400..600).contains(s) {
                    let index = i.to_string();
                    refuse(
                        &["retry", "statuses", &index],
                        format!(
                            "`retry.statuses` holds {s}; only error statuses (4xx, 5xx) can be retried"
                        ),
                    );
                }
            }
        }
        if let Some(limit) = &self.rate_limit {
            for (key, value) in [
                ("requestsPerMinute", limit.requests_per_minute),
                ("windowSeconds", limit.window_seconds),
                ("concurrency", limit.concurrency),
            ] {
                if value == Some(0) {
                    refuse(
                        &["rateLimit", key],
                        format!("`rateLimit.{key}` must be at least 1 (leave it out for no limit)"),
                    );
                }
            }
        }
        for (i, rule) in self.conflicts.iter().flatten().enumerate() {
            if let Some(path) = &rule.path
                && let Err(e) = code_steps(path)
            {
                let index = i.to_string();
                refuse(
                    &["conflicts", &index, "path"],
                    format!("conflict rule for status {}: {e}", rule.status),
                );
            }
        }
        if let Some(key) = &self.idempotency
            && key.name.trim().is_empty()
        {
            refuse(
                &["idempotency", "name"],
                "`idempotency.name` is empty: name the parameter or header (`requestid`)".into(),
            );
        }
        let entries: Vec<&str> = definition
            .sync
            .iter()
            .flat_map(|s| &s.entries)
            .map(|e| e.key.value.as_str())
            .collect();
        let skipped = self.request_validation.iter().flat_map(|r| &r.skip);
        for (i, entry) in skipped.enumerate() {
            if !entries.is_empty() && !entries.contains(&entry.as_str()) {
                let index = i.to_string();
                refuse(
                    &["requestValidation", "skip", &index],
                    format!(
                        "the definition has no entry `{entry}` (it has: {})",
                        entries.join(", ")
                    ),
                );
            }
        }
        for (entry, lookup) in self.lookup.iter().flatten() {
            if !entries.is_empty() && !entries.contains(&entry.as_str()) {
                refuse(
                    &["lookup", entry],
                    format!(
                        "the definition has no entry `{entry}` (it has: {})",
                        entries.join(", ")
                    ),
                );
            }
            for (path, message) in lookup.problems() {
                let mut at = vec!["lookup", entry.as_str()];
                at.extend(path.iter().map(String::as_str));
                refuse(&at, message);
            }
        }
        for (entry, media_type) in self.request_media_type.iter().flatten() {
            if !entries.is_empty() && !entries.contains(&entry.as_str()) {
                refuse(
                    &["requestMediaType", entry],
                    format!(
                        "the definition has no entry `{entry}` (it has: {})",
                        entries.join(", ")
                    ),
                );
            } else if BodyEncoding::of(media_type).is_none() {
                refuse(
                    &["requestMediaType", entry],
                    format!(
                        "the engine does not write request bodies as `{media_type}`; it writes {WRITTEN_MEDIA_TYPES}"
                    ),
                );
            }
        }
        if let Some(parameters) = &self.parameters {
            for (path, message) in parameters.problems(&definition.server_variables()) {
                let mut at = vec!["parameters"];
                at.extend(path.iter().map(String::as_str));
                refuse(&at, message);
            }
        }
        for (entry, pull) in self.pull.iter().flatten() {
            let pulls = definition
                .sync
                .iter()
                .flat_map(|s| &s.entries)
                .find(|e| e.key.value == *entry)
                .map(|e| e.pull.as_ref().is_some_and(|p| p.batch_read.is_some()));
            match pulls {
                None if !entries.is_empty() => refuse(
                    &["pull", entry],
                    format!(
                        "the definition has no entry `{entry}` (it has: {})",
                        entries.join(", ")
                    ),
                ),
                Some(false) => refuse(
                    &["pull", entry],
                    format!(
                        "entry `{entry}` has no `pull.batchRead`: there is nothing to page through"
                    ),
                ),
                _ => {}
            }
            for (path, message) in pull.problems() {
                let mut at = vec!["pull", entry.as_str()];
                at.extend(path.iter().map(String::as_str));
                refuse(&at, message);
            }
        }
        out
    }
}

impl LookupSpec {
    /// What is wrong with the lookup, by the member at fault.
    fn problems(&self) -> Vec<(Vec<String>, String)> {
        let mut out = Vec::new();
        if !self.path.ends_with("/get") {
            out.push((
                vec!["path".to_owned()],
                format!(
                    "`path: {}` must name a GET operation (`…/get`): a lookup only reads",
                    self.path
                ),
            ));
        }
        if !self.ids.starts_with('$') {
            out.push((
                vec!["ids".to_owned()],
                format!("`ids: {}` must be a JSONPath starting at `$`", self.ids),
            ));
        }
        for (name, text) in &self.query {
            if let Err(e) = query_parts(text) {
                out.push((vec!["query".to_owned(), name.clone()], e));
            }
        }
        out
    }
}

/// The node at `path` under `node` (or the deepest one that exists), as an error's place.
fn located(node: &Node, path: &[&str], message: String) -> ExtensionError {
    let mut at = *node;
    for key in path {
        let next = match key.parse::<usize>() {
            Ok(i) => at.as_array().and_then(|items| items.get(i)),
            Err(_) => at.get(key),
        };
        match next {
            Some(n) => at = n,
            None => break,
        }
    }
    ExtensionError {
        message,
        span: at.span,
        pointer: pointer::join(std::iter::once(EXTENSION_KEY).chain(path.iter().copied())),
    }
}

/// The parts of a lookup's query text: literal text and `{body.…}` placeholders.
///
/// # Errors
/// An unclosed `{`, or a placeholder other than `{body.Member}`.
pub fn query_parts(text: &str) -> Result<Vec<QueryPart>, String> {
    pieces(text)?
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(t) => Ok(QueryPart::Text(t.to_owned())),
            Piece::Placeholder(name) => name
                .strip_prefix("body.")
                .filter(|p| !p.is_empty() && p.split('.').all(|m| !m.is_empty()))
                .map(|path| QueryPart::Body(path.split('.').map(str::to_owned).collect()))
                .ok_or_else(|| {
                    format!("`{{{name}}}` is not a placeholder: write `{{body.Member}}` for a member of the create's body")
                }),
        })
        .collect()
}

/// The steps of a conflict rule's path like `$.Fault.Error[*].code`: the small JSONPath subset a
/// code lookup needs (no filters or recursion, so a hostile definition cannot make matching
/// expensive).
///
/// # Errors
/// A path that does not start with `$`, an empty member, an unclosed `[`, a bracket that is
/// neither `[*]` nor an index, or another character where a step must start.
pub fn code_steps(path: &str) -> Result<Vec<CodeStep>, String> {
    let rest = path
        .strip_prefix('$')
        .ok_or_else(|| format!("`{path}` must start with `$`"))?;
    let mut out = Vec::new();
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '.' => {
                let start = i + 1;
                let mut end = rest.len();
                while let Some(&(j, n)) = chars.peek() {
                    if n == '.' || n == '[' {
                        end = j;
                        break;
                    }
                    chars.next();
                }
                let name = &rest[start..end];
                if name.is_empty() {
                    return Err(format!("`{path}` has an empty member name"));
                }
                out.push(CodeStep::Member(name.to_owned()));
            }
            '[' => {
                let start = i + 1;
                let end = rest[start..]
                    .find(']')
                    .map(|j| start + j)
                    .ok_or_else(|| format!("`{path}` has an unclosed `[`"))?;
                let inner = &rest[start..end];
                out.push(if inner == "*" {
                    CodeStep::All
                } else {
                    CodeStep::Index(inner.parse().map_err(|_| {
                        format!("`{path}`: `[{inner}]` is neither `[*]` nor an index")
                    })?)
                });
                while chars.peek().is_some_and(|&(j, _)| j <= end) {
                    chars.next();
                }
            }
            other => {
                return Err(format!(
                    "`{path}`: unexpected `{other}`; use `.member`, `[n]` or `[*]` steps"
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;

    #[test]
    fn paths_are_checked() {
        assert!(code_steps("Fault.code").is_err());
        assert!(code_steps("$.a[").is_err());
        assert!(code_steps("$.a[x]").is_err());
        assert!(code_steps("$..a").is_err());
        assert_eq!(
            code_steps("$.a[0][*].b").unwrap(),
            vec![
                CodeStep::Member("a".into()),
                CodeStep::Index(0),
                CodeStep::All,
                CodeStep::Member("b".into())
            ]
        );
    }

    fn read(extension: &str) -> Result<Option<Extension>, Vec<ExtensionError>> {
        let text = format!(
            "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths: {{}}\nx-syncdef:\n{extension}"
        );
        let definition = Definition::load(SourceFile::new("d.yaml", text)).expect("loads");
        Extension::read(&definition)
    }

    #[test]
    fn every_problem_is_reported_at_its_value() {
        let errors = read(
            "  retry: {maxAttempts: 0, statuses: [429, 200]}\n  rateLimit: {concurrency: 0}\n  conflicts: [{status: 400, path: 'Fault.code'}]\n  idempotency: {in: query, name: ' '}\n  lookup:\n    Account: {path: /q/post, quote: odata, ids: x, query: {q: '{X}'}}\n",
        )
        .expect_err("refused");
        let pointers: Vec<&str> = errors.iter().map(|e| e.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/x-syncdef/retry/maxAttempts",
                "/x-syncdef/retry/statuses/1",
                "/x-syncdef/rateLimit/concurrency",
                "/x-syncdef/conflicts/0/path",
                "/x-syncdef/idempotency/name",
                "/x-syncdef/lookup/Account/path",
                "/x-syncdef/lookup/Account/ids",
                "/x-syncdef/lookup/Account/query/q",
            ]
        );
    }

    #[test]
    fn the_rate_limit_window_is_read_and_a_zero_window_refused() {
        let extension = read("  rateLimit: {requestsPerMinute: 500, windowSeconds: 6}\n")
            .expect("valid")
            .expect("present");
        let limit = extension.rate_limit.expect("rateLimit");
        assert_eq!(limit.window_seconds, Some(6));
        let errors =
            read("  rateLimit: {requestsPerMinute: 5, windowSeconds: 0}\n").expect_err("refused");
        assert_eq!(errors[0].pointer, "/x-syncdef/rateLimit/windowSeconds");
    }

    #[test]
    fn unknown_keys_and_wrong_types_are_located() {
        let errors = read("  retry: {maxAtempts: 2}\n").expect_err("refused");
        assert_eq!(errors[0].pointer, "/x-syncdef/retry/maxAtempts");
        assert!(
            errors[0].message.contains("maxAtempts"),
            "{}",
            errors[0].message
        );
        let errors = read("  rateLimit: {concurrency: many}\n").expect_err("refused");
        assert_eq!(errors[0].pointer, "/x-syncdef/rateLimit/concurrency");
        assert!(
            read("  retry: {maxAttempts: 2}\n")
                .expect("valid")
                .is_some()
        );
    }

    #[test]
    fn a_request_media_type_names_an_entry_and_a_type_the_engine_writes() {
        let text = |extension: &str| {
            format!(
                "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths: {{}}\nsynchronization:\n  Customer:\n    module: Accounts\nx-syncdef:\n{extension}"
            )
        };
        let read = |extension: &str| {
            let definition =
                Definition::load(SourceFile::new("d.yaml", text(extension))).expect("loads");
            Extension::read(&definition)
        };
        let extension = read("  requestMediaType: {Customer: application/x-www-form-urlencoded}\n")
            .expect("valid")
            .expect("present");
        assert_eq!(
            extension.request_media_type("Customer"),
            Some("application/x-www-form-urlencoded")
        );
        assert_eq!(extension.request_media_type("Invoice"), None);
        let errors =
            read("  requestMediaType: {Custmer: application/json, Customer: text/plain}\n")
                .expect_err("refused");
        let found: Vec<(&str, &str)> = errors
            .iter()
            .map(|e| (e.pointer.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].0, "/x-syncdef/requestMediaType/Custmer");
        assert!(found[0].1.contains("no entry `Custmer`"), "{}", found[0].1);
        assert_eq!(found[1].0, "/x-syncdef/requestMediaType/Customer");
        assert!(found[1].1.contains("`text/plain`"), "{}", found[1].1);
    }

    #[test]
    fn quotes_escape_for_their_language() {
        assert_eq!(Quote::Odata.literal("O'Brien"), "'O''Brien'");
        assert_eq!(
            Quote::Quickbooks.literal(r"O'Brien \ Sons"),
            r"'O\'Brien \\ Sons'"
        );
    }
}
