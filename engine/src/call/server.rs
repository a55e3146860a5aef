//! The server a push or a pull sends to: the engine's, resolved once, or one resolved for the
//! server variables the caller gives.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use url::Url;

use crate::error::EngineError;
use crate::servers::{Server, ServerTemplate};

/// The server with the definition's default variables, resolved on first use: most pushes of
/// an instance use the same values, and resolving parses a URL. The engine keeps one, shared
/// by its copies.
pub(crate) type DefaultServer = OnceLock<Result<Arc<Server>, EngineError>>;

/// Where the server of a push or a pull comes from.
pub(crate) struct Servers<'a> {
    /// The definition's server URL and its variables.
    pub template: &'a ServerTemplate,
    /// The URL the caller gives instead (a sandbox, a proxy, a test server).
    pub base_url: Option<&'a Url>,
    pub default: &'a DefaultServer,
}

/// The server of a push or a pull: the engine's, resolved once, when the caller sets no server
/// variables of its own; else one resolved for it.
pub(crate) enum ServerRef<'a> {
    Shared(&'a Arc<Server>),
    Own(Arc<Server>),
}

impl ServerRef<'_> {
    pub fn get(&self) -> &Arc<Server> {
        match self {
            ServerRef::Shared(server) => server,
            ServerRef::Own(server) => server,
        }
    }
}

impl<'a> Servers<'a> {
    /// The server with `variables` over the definition's defaults. The engine's server is
    /// borrowed, not counted, by each push: one reference count touched by every push of every
    /// task would be a point of contention.
    pub fn resolve(
        &self,
        variables: &BTreeMap<String, String>,
    ) -> Result<ServerRef<'a>, EngineError> {
        if variables.is_empty() {
            let default: &'a DefaultServer = self.default;
            let resolved = default.get_or_init(|| {
                self.template
                    .resolve(&BTreeMap::new(), self.base_url)
                    .map(Arc::new)
            });
            return match resolved {
                Ok(server) => Ok(ServerRef::Shared(server)),
                Err(e) => Err(e.clone()),
            };
        }
        let server = self.template.resolve(variables, self.base_url)?;
        Ok(ServerRef::Own(Arc::new(server)))
    }
}
