//! `UnsendableSecurity`: an operation the synchronization calls requires only security schemes
//! the push engine cannot send.

use std::collections::HashSet;

use syncdef_definitions::openapi::{OpenApi, SecurityScheme};

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports each operation the synchronization calls whose security requirement (its own
    /// `security`, else the document's) has no alternative made only of schemes the push
    /// engine sends: `oauth2`, `http` with scheme `basic` or `bearer`, and `apiKey` in a
    /// header, the query or a cookie. `openIdConnect`, `mutualTLS`, other HTTP schemes
    /// (`digest`, ...) and an `apiKey` without `name` or `in` are not sent.
///
    /// ## Why is this bad?
    /// Each request carries the credentials of the first alternative of its operation's
    /// requirement the engine has credentials for. When no alternative can be sent, every
    /// request to the operation would go without credentials and be refused, so the engine
    /// refuses to load the definition.
///
    /// ## Example
    /// ```yaml
    /// components:
    ///   securitySchemes:
    ///     digestAuth: {type: http, scheme: digest}
    /// security:
    ///   - digestAuth: []
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// components:
    ///   securitySchemes:
    ///     basicAuth: {type: http, scheme: basic}
    /// security:
    ///   - basicAuth: []
    /// ```
    pub struct UnsendableSecurity {
        title: "an operation requires only security schemes the engine cannot send",
        severity: Error,
    }
}

/// Why the push engine cannot send `scheme`'s credentials, or `None` when it can. Shared with
/// the engine, which sends a request with the first alternative of its requirement made only
/// of schemes it can send.
#[must_use]
pub fn why_unsendable(scheme: &SecurityScheme<'_>) -> Option<String> {
    match scheme.kind {
        "oauth2" => None,
        "http" => match scheme.http_scheme() {
            // RFC 7235: authentication scheme names are case-insensitive.
            Some(s) if s.eq_ignore_ascii_case("basic") || s.eq_ignore_ascii_case("bearer") => None,
            Some(other) => Some(format!(
                "http `{other}`, which the engine does not send: it sends basic and bearer"
            )),
            None => Some("http without a `scheme`".to_owned()),
        },
        "apiKey" => match scheme.api_key() {
            Some((name, "header" | "query" | "cookie")) if !name.is_empty() => None,
            _ => Some("apiKey without a `name` and an `in` of header, query or cookie".to_owned()),
        },
        other => Some(format!(
            "`{other}`, which the engine does not send: it sends oauth2, http basic and bearer, and apiKey"
        )),
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let api = OpenApi::new(ctx.doc.root());
    let mut reported = HashSet::new();
    for info in &ctx.entries {
        for site in &info.operations {
            let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
                continue;
            };
            let Some(alternatives) = api.operation_security(operation) else {
                continue;
            };
            // A scheme the document does not define is SD701's; it counts as sendable here.
            let why = |name: &str| api.security_scheme(name).and_then(|s| why_unsendable(&s));
            let sendable = alternatives.is_empty()
                || alternatives
                    .iter()
                    .any(|a| a.iter().all(|r| why(r.scheme).is_none()));
            if sendable || !reported.insert(operation.span) {
                continue;
            }
            let reasons: Vec<String> = alternatives
                .iter()
                .flatten()
                .filter_map(|r| why(r.scheme).map(|w| format!("`{}` is {w}", r.scheme)))
                .collect();
            let d = sink
                .diagnostic(
                    Rule::UnsendableSecurity,
                    site.text.span,
                    format!(
                        "`{}` requires security schemes the engine cannot send: {}",
                        site.text.value,
                        reasons.join("; ")
                    ),
                )
                .with_pointer(site.pointer)
                .with_help("add an alternative the engine sends to the operation's `security` (or the document's): an `oauth2` scheme, `http` with scheme `basic` or `bearer`, or an `apiKey` with its `name` and `in`");
            sink.push(d);
        }
    }
}
