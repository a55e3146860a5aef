//! `UnknownSecurityScheme`: `security` names a scheme that `components.securitySchemes` does not define.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::rules::security::{requirements, schemes};
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports security requirements (top-level `security` or an operation's `security`) naming a
    /// scheme absent from `components.securitySchemes`, with a did-you-mean.
///
    /// ## Why is this bad?
    /// The platform builds the settings page of the integration (client id, secret, tokens) from
    /// the scheme; an undefined scheme leaves requests unauthenticated and every call is refused
    /// with 401.
///
    /// ## Example
    /// ```yaml
    /// components:
    ///   securitySchemes:
    ///     oauth2: {type: oauth2, flows: {...}}
    /// security:
    ///   - OAuth2: [com.intuit.quickbooks.accounting]
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// security:
    ///   - oauth2: [com.intuit.quickbooks.accounting]
    /// ```
    pub struct UnknownSecurityScheme {
        title: "`security` names a scheme that `components.securitySchemes` does not define",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let schemes = schemes(&ctx.doc.root());
    for requirement in requirements(&ctx.doc.root()) {
        let name: &str = requirement.member.key.name;
        if schemes.iter().any(|s| s.key.name == name) {
            continue;
        }
        let help = hint(name, schemes.iter().map(|s| s.key.name)).unwrap_or_else(|| {
            if schemes.is_empty() {
                format!("define `{name}` under `components.securitySchemes`")
            } else {
                format!(
                    "defined schemes: {}",
                    schemes
                        .iter()
                        .map(|s| format!("`{}`", s.key.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        });
        let d = sink
            .diagnostic(
                Rule::UnknownSecurityScheme,
                requirement.member.key.span,
                format!("security scheme `{name}` is not defined"),
            )
            .with_pointer(requirement.pointer.clone())
            .with_help(help);
        sink.push(d);
    }
}
