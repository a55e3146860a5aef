//! Security: the requirements a document lists and the schemes they name, with OAuth2 flows.

use crate::extension::ParameterPlace;
use crate::node::Node;

use super::OpenApi;

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

    /// The HTTP authentication scheme (`basic`, `bearer`, `digest`, ...) of a `type: http`
    /// scheme, as written (RFC 7235 names it case-insensitively).
    #[must_use]
    pub fn http_scheme(&self) -> Option<&'d str> {
        if self.kind != "http" {
            return None;
        }
        self.node.get("scheme")?.as_str()
    }

    /// The parameter an `apiKey` scheme sends: its `name` and where (`in`: `header`, `query`
    /// or `cookie`), as written.
    #[must_use]
    pub fn api_key(&self) -> Option<(&'d str, &'d str)> {
        if self.kind != "apiKey" {
            return None;
        }
        let text = |key: &str| self.node.get(key).and_then(Node::as_str);
        Some((text("name")?, text("in")?))
    }
}

/// The requirements of operations, beside the document's ([`OpenApi::security`]).
impl<'d> OpenApi<'d> {
    /// The security requirements that apply to operation `node`: its own `security` when it
    /// declares one (OpenAPI 3.0: an operation's overrides the document's; `security: []`
    /// declares that it needs none), else the top-level `security`; `None` when neither is
    /// declared.
    #[must_use]
    pub fn operation_security(&self, node: Node<'d>) -> Option<Vec<Vec<SecurityRequirement<'d>>>> {
        let declared = node.get("security").or_else(|| self.root.get("security"))?;
        Some(
            super::array(Some(declared))
                .map(SecurityRequirement::read_alternative)
                .collect(),
        )
    }

    /// The header and query parameters the `apiKey` schemes of operation `node`'s
    /// requirements send, as `(in, name)`: the credentials its requests carry in place of a
    /// parameter of that name (a cookie is no parameter a definition could give). The schemes
    /// of its own `security` when it declares one, else the document's.
    #[must_use]
    pub fn operation_api_keys(&self, node: Node<'d>) -> Vec<(ParameterPlace, &'d str)> {
        self.operation_security(node)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|requirement| {
                let (name, place) = self.security_scheme(requirement.scheme)?.api_key()?;
                Some((ParameterPlace::of_openapi(place)?, name))
            })
            .collect()
    }

    /// The security requirements of every operation that declares its own `security`, in
    /// document order (the top-level ones are [`OpenApi::security`]).
    pub fn operations_security(
        &self,
    ) -> impl Iterator<Item = Vec<SecurityRequirement<'d>>> + use<'d> {
        super::members(self.root.get("paths"))
            .flat_map(|path| super::members(Some(path.value)))
            .filter_map(|operation| operation.value.get("security"))
            .flat_map(|security| super::array(Some(security)))
            .map(SecurityRequirement::read_alternative)
    }
}
