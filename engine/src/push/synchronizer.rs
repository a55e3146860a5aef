//! The caller's part in a push: pushing the related records `ApiSynchronization` actions name
//! (an invoice's account), which the caller knows where to find.

use std::collections::BTreeMap;

use futures::future::BoxFuture;
use syncdef_transform::Value;

use crate::error::EngineError;
use crate::state::RecordState;

/// Whether an action runs before or after the record's own request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `preSynchronizationAction`.
    Pre,
    /// `postSynchronizationAction` (runs only after a successful push).
    Post,
}

/// What an `ApiSynchronization` action asks the caller to push.
#[derive(Debug)]
pub struct SyncRequest<'a> {
    /// The entry being pushed (`Invoice`).
    pub entry: &'a str,
    /// The action's name.
    pub action: &'a str,
    /// The entry or child collection to push (`Account`, `InvoiceItems`).
    pub target: &'a str,
    /// Before or after the record's own request.
    pub phase: Phase,
    /// The record being pushed (the invoice, whose account the caller looks up).
    pub record: &'a Value,
    /// The record's state.
    pub state: &'a RecordState,
    /// The record's external id as known now (after a create, the new one).
    pub external_id: Option<&'a str>,
    /// When the target is the record's lines: the entry that pushes each, and the lines (with
    /// [`Engine::push_line`](crate::Engine::push_line)), after the record's own request.
    pub lines: Option<Lines<'a>>,
}

/// The lines of a record that an `ApiSynchronization` post-action names.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    /// The entry of lines that pushes each (`InvoiceItems`).
    pub entry: &'a str,
    /// The record's lines, in order (its `items`); empty when it has none.
    pub items: &'a [Value],
    /// The external ids a line names: those the record names (an account a pre-action pushed
    /// included), and the record's own under its entry's name (`Invoice`).
    pub related: BTreeMap<String, String>,
}

/// Pushes what `ApiSynchronization` actions name, for the engine: the caller knows where the
/// related records are (an invoice's account) and usually pushes them with the same engine.
pub trait Synchronizer: Send + Sync {
    /// Pushes `request.target`; returns the external id of the pushed record when the target is
    /// an entry, so that `{<target>.IntegrationId}` placeholders can use it. An error fails the
    /// push (before) or is reported as a post-action error (after).
    fn synchronize<'a>(
        &'a self,
        request: SyncRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<String>, EngineError>>;
}
