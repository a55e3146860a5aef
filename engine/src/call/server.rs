//! The server a push or a pull sends to: the engine's, resolved once, or one resolved for the
//! server variables the caller gives.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::Engine;
use crate::error::PushError;
use crate::servers::Server;

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

/// The server with `variables` over the definition's defaults. The engine's server is
/// borrowed, not counted, by each push: one reference count touched by every push of every
/// task would be a point of contention.
pub(crate) fn resolve<'a>(
    engine: &'a Engine,
    variables: &BTreeMap<String, String>,
) -> Result<ServerRef<'a>, PushError> {
    if variables.is_empty() {
        return match engine.default_server() {
            Ok(server) => Ok(ServerRef::Shared(server)),
            Err(e) => Err(e.clone()),
        };
    }
    let server = engine
        .plan
        .server
        .resolve(variables, engine.base_url.as_ref())?;
    Ok(ServerRef::Own(Arc::new(server)))
}
