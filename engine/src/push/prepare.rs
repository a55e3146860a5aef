//! Before anything is sent: the server the push goes to and the operation it carries out.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::Engine;
use crate::error::PushError;
use crate::plan::{EntryPlan, OperationKind};
use crate::servers::Server;
use crate::state::{Intent, RecordState};

/// The server of a push: the engine's, resolved once, when the record state sets no server
/// variables of its own; else one resolved for this push.
pub(crate) enum PushServer<'a> {
    Shared(&'a Arc<Server>),
    Own(Arc<Server>),
}

impl PushServer<'_> {
    pub fn get(&self) -> &Arc<Server> {
        match self {
            PushServer::Shared(server) => server,
            PushServer::Own(server) => server,
        }
    }
}

/// The server `state` pushes to. The engine's server is borrowed, not counted, by each push:
/// one reference count touched by every push of every task would be a point of contention.
pub(crate) fn server<'a>(
    engine: &'a Engine,
    state: &RecordState,
) -> Result<PushServer<'a>, PushError> {
    server_with(engine, &state.server_variables)
}

/// The server with `variables` over the definition's defaults (a pull's, or a push's).
pub(crate) fn server_with<'a>(
    engine: &'a Engine,
    variables: &BTreeMap<String, String>,
) -> Result<PushServer<'a>, PushError> {
    if variables.is_empty() {
        return match engine.default_server() {
            Ok(server) => Ok(PushServer::Shared(server)),
            Err(e) => Err(e.clone()),
        };
    }
    let server = engine
        .plan
        .server
        .resolve(variables, engine.base_url.as_ref())?;
    Ok(PushServer::Own(Arc::new(server)))
}

/// Create without an external id, update with one, delete on request.
pub(crate) fn operation(
    entry: &EntryPlan,
    intent: Intent,
    external_id: Option<&str>,
) -> Result<OperationKind, PushError> {
    let kind = match (intent, external_id) {
        (Intent::Delete, None) => {
            return Err(PushError::configuration(
                "a delete needs the record's external id",
            ));
        }
        (Intent::Delete, Some(_)) => OperationKind::Delete,
        (Intent::Upsert, None) => OperationKind::Create,
        (Intent::Upsert, Some(_)) => OperationKind::Update,
    };
    if !entry.has(kind) {
        return Err(PushError::configuration(format!(
            "entry `{}` has no `push.{}`{}",
            entry.name,
            kind.as_str(),
            if kind == OperationKind::Update {
                "; the record has an external id, so it can only be updated"
            } else {
                ""
            }
        )));
    }
    Ok(kind)
}
