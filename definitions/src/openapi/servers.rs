//! `servers`: where the external system is, and the variables its URL template takes.

use crate::node::Node;

/// One entry of `servers`.
#[derive(Clone, Debug)]
pub struct Server<'d> {
    /// The URL template (`https://{environment}.api.intuit.com`).
    pub url: &'d str,
    /// `variables`, in document order.
    pub variables: Vec<ServerVariable<'d>>,
    /// The server object.
    pub node: Node<'d>,
}

/// One entry of a server's `variables`.
#[derive(Clone, Debug)]
pub struct ServerVariable<'d> {
    /// The variable's name (`{environment}` in the URL).
    pub name: &'d str,
    /// `default`, when it is a string (OpenAPI requires one).
    pub default: Option<&'d str>,
    /// `enum`: the values allowed, empty when any is.
    pub allowed: Vec<&'d str>,
    /// The server variable object.
    pub node: Node<'d>,
}

impl<'d> Server<'d> {
    /// The server written at `node`; `None` when it has no string `url`.
    pub(super) fn read(node: Node<'d>) -> Option<Server<'d>> {
        let url = node.get("url")?.as_str()?;
        let variables = super::members(node.get("variables"))
            .map(|m| ServerVariable {
                name: m.key.name,
                default: m.value.get("default").and_then(Node::as_str),
                allowed: super::array(m.value.get("enum"))
                    .filter_map(Node::as_str)
                    .collect(),
                node: m.value,
            })
            .collect();
        Some(Server {
            url,
            variables,
            node,
        })
    }
}
