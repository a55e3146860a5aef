//! Security: the requirements a document lists and the schemes they name, with OAuth2 flows.

use crate::node::Node;

/// One scheme of a security requirement, with the scopes it asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecurityRequirement<'d> {
    /// The scheme's name under `components.securitySchemes`.
    pub scheme: &'d str,
    /// The scopes listed (OAuth2), empty for none.
    pub scopes: Vec<&'d str>,
}

impl<'d> SecurityRequirement<'d> {
    /// One alternative of a `security` list: the schemes it combines.
    pub(super) fn read_alternative(node: Node<'d>) -> Vec<SecurityRequirement<'d>> {
        super::members(Some(node))
            .map(|m| SecurityRequirement {
                scheme: m.key.name,
                scopes: super::array(Some(m.value))
                    .filter_map(Node::as_str)
                    .collect(),
            })
            .collect()
    }
}

/// A security scheme object.
#[derive(Clone, Copy, Debug)]
pub struct SecurityScheme<'d> {
    /// Its name under `components.securitySchemes`.
    pub name: &'d str,
    /// `type` (`oauth2`, `http`, `apiKey`, `openIdConnect`, `mutualTLS`).
    pub kind: &'d str,
    /// The scheme object, references followed.
    pub node: Node<'d>,
}

/// One OAuth2 flow of a scheme.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OAuthFlow<'d> {
    /// `authorizationUrl` (authorization-code and implicit flows).
    pub authorization_url: Option<&'d str>,
    /// `tokenUrl` (every flow but the implicit one).
    pub token_url: Option<&'d str>,
    /// `refreshUrl`.
    pub refresh_url: Option<&'d str>,
    /// The names of `scopes`, in document order.
    pub scopes: Vec<&'d str>,
}

impl<'d> SecurityScheme<'d> {
    /// The scheme `name` written at `node`; `None` when it has no string `type`.
    pub(super) fn read(name: &'d str, node: Node<'d>) -> Option<SecurityScheme<'d>> {
        Some(SecurityScheme {
            name,
            kind: node.get("type")?.as_str()?,
            node,
        })
    }

    /// The OAuth2 flow named `flow` (`authorizationCode`, `clientCredentials`, ...), when this
    /// is an OAuth2 scheme that declares it.
    #[must_use]
    pub fn oauth_flow(&self, flow: &str) -> Option<OAuthFlow<'d>> {
        if self.kind != "oauth2" {
            return None;
        }
        let node = self.node.get("flows")?.get(flow)?;
        let text = |key: &str| node.get(key).and_then(Node::as_str);
        Some(OAuthFlow {
            authorization_url: text("authorizationUrl"),
            token_url: text("tokenUrl"),
            refresh_url: text("refreshUrl"),
            scopes: super::members(node.get("scopes"))
                .map(|m| m.key.name)
                .collect(),
        })
    }
}
