//! `IncompleteOauthFlow`: an OAuth2 authorization code flow lacks a URL or its scopes.

use syncdef_definitions::Node;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::rules::security::schemes;

declare_rule! {
    /// ## What it does
    /// Reports OAuth2 security schemes whose `authorizationCode` flow lacks `authorizationUrl`,
    /// `tokenUrl` or `scopes`.
///
    /// ## Why is this bad?
    /// The platform sends users to `authorizationUrl` to grant access and exchanges the code at
    /// `tokenUrl`; without either, the integration can never be authorized.
///
    /// ## Example
    /// ```yaml
    /// oauth2:
    ///   type: oauth2
    ///   flows:
    ///     authorizationCode:
    ///       authorizationUrl: https://appcenter.intuit.com/connect/oauth2
    ///       scopes: {com.intuit.quickbooks.accounting: Accounting}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// oauth2:
    ///   type: oauth2
    ///   flows:
    ///     authorizationCode:
    ///       authorizationUrl: https://appcenter.intuit.com/connect/oauth2
    ///       tokenUrl: https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer
    ///       scopes: {com.intuit.quickbooks.accounting: Accounting}
    /// ```
    pub struct IncompleteOauthFlow {
        title: "an OAuth2 authorization code flow lacks a URL or its scopes",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for scheme in schemes(&ctx.doc.root()) {
        if scheme.value.get("type").and_then(Node::as_str) != Some("oauth2") {
            continue;
        }
        let Some(flow) = scheme
            .value
            .get("flows")
            .and_then(|f| f.member("authorizationCode"))
        else {
            continue;
        };
        let missing: Vec<&str> = ["authorizationUrl", "tokenUrl", "scopes"]
            .into_iter()
            .filter(|k| flow.value.get(k).is_none_or(Node::is_null))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let list = crate::typecheck::name_list(&missing);
        let d = sink
            .diagnostic(
                Rule::IncompleteOauthFlow,
                flow.key.span,
                format!("the `authorizationCode` flow of `{}` has no {list}", scheme.key.name),
            )
            .with_pointer(format!("/components/securitySchemes/{}/flows/authorizationCode", syncdef_definitions::pointer::escape(scheme.key.name)))
            .with_help("an authorization code flow needs the URL users grant access at (`authorizationUrl`), the URL the code is exchanged at (`tokenUrl`) and the `scopes` it may request");
        sink.push(d);
    }
}
