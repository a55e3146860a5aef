//! `UndeclaredScope`: a required scope is not declared by the scheme's flows.

use syncdef_definitions::Node;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::rules::security::{requirements, schemes};
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports scopes listed in a security requirement that no flow of the OAuth2 scheme declares
    /// in its `scopes` map, with a did-you-mean.
///
    /// ## Why is this bad?
    /// The authorization server refuses (or silently drops) scopes the application did not
    /// register; tokens then lack the permission and calls fail with 403.
///
    /// ## Example
    /// ```yaml
    /// security:
    ///   - oauth2: [com.intuit.quickbooks.acounting]
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// security:
    ///   - oauth2: [com.intuit.quickbooks.accounting]
    /// ```
    pub struct UndeclaredScope {
        title: "a required scope is not declared by the scheme's flows",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let schemes = schemes(&ctx.doc.root());
    for requirement in requirements(&ctx.doc.root()) {
        let Some(scheme) = schemes
            .iter()
            .find(|s| s.key.name == requirement.member.key.name)
        else {
            continue;
        };
        if scheme.value.get("type").and_then(Node::as_str) != Some("oauth2") {
            continue;
        }
        // Scopes declared by any flow of the scheme.
        let declared: Vec<&str> = scheme
            .value
            .get("flows")
            .and_then(Node::as_object)
            .unwrap_or_default()
            .iter()
            .filter_map(|flow| flow.value.get("scopes").and_then(Node::as_object))
            .flatten()
            .map(|m| m.key.name)
            .collect();
        for (i, scope) in requirement
            .member
            .value
            .as_array()
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let Some(name) = scope.as_str() else { continue };
            if declared.contains(&name) {
                continue;
            }
            let help = hint(name, declared.iter().copied()).unwrap_or_else(|| {
                format!(
                    "declare `{name}` in the `scopes` of a flow of `{}`",
                    scheme.key.name
                )
            });
            let d = sink
                .diagnostic(
                    Rule::UndeclaredScope,
                    scope.span,
                    format!("scope `{name}` is not declared by `{}`", scheme.key.name),
                )
                .with_pointer(format!("{}/{i}", requirement.pointer))
                .with_help(help);
            sink.push(d);
        }
    }
}
