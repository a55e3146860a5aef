//! What the caller knows of a record in the external system.

use std::collections::BTreeMap;

/// What the caller asks the engine to do with the record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Intent {
    /// Create the record when it has no external id, update it when it has one.
    #[default]
    Upsert,
    /// Delete the record (it must have an external id and the entry a `push.delete`).
    Delete,
    /// Run the record's post-actions again, and nothing else: the record was pushed (it must
    /// have an external id) and a post-action failed after it, as the lines of an invoice can.
    /// The outcome is `updated` when they all succeed.
    PostActions,
}

/// The record's standing in the external system and the instance's settings.
///
/// ```
/// use syncdef_engine::RecordState;
/// let state = RecordState::new()
///     .with_external_id("67")
///     .with_related("Account", "12")
///     .with_server_variable("realmId", "4620816365");
/// assert_eq!(state.related("Account"), Some("12"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordState {
    /// The record's id in the external system (`{IntegrationId}`, `$.externalId`), if it was
    /// pushed before. External ids are strings: QuickBooks ids are.
    pub external_id: Option<String>,
    /// External ids of related records by entry name (`Account` for `{Account.IntegrationId}`).
    pub related: BTreeMap<String, String>,
    /// Server variable values of this instance, over the definition's defaults.
    pub server_variables: BTreeMap<String, String>,
    /// Create-or-update, or delete.
    pub intent: Intent,
    /// An earlier create of this record whose outcome is unknown: its answer was lost or not
    /// understood, so the record may exist in the external system. The engine then finds out
    /// before creating again (docs/reliability.md, "Unknown outcomes").
    pub unresolved_create: Option<UnresolvedCreate>,
}

/// A create that may have been carried out, as the caller kept it
/// ([`PushOutcome::idempotency_key`](crate::PushOutcome::idempotency_key) and the body sent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnresolvedCreate {
    /// The idempotency key it carried: the next create carries the same one, whatever its
    /// body, so that the external system answers it as the repeat it may be.
    pub idempotency_key: Option<String>,
    /// The body it sent (JSON text), which a declared lookup searches by; without it, the body
    /// the record renders to now.
    pub body: Option<String>,
}

impl RecordState {
    /// A record never pushed, with the definition's default server variables.
    #[must_use]
    pub fn new() -> Self {
        RecordState::default()
    }

    /// Sets the record's external id.
    #[must_use]
    pub fn with_external_id(mut self, id: impl Into<String>) -> Self {
        self.external_id = Some(id.into());
        self
    }

    /// Sets the external id of the related record of `entry`.
    #[must_use]
    pub fn with_related(mut self, entry: impl Into<String>, id: impl Into<String>) -> Self {
        self.related.insert(entry.into(), id.into());
        self
    }

    /// Overrides a server variable.
    #[must_use]
    pub fn with_server_variable(
        mut self,
        name: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        self.server_variables.insert(name.into(), value.into());
        self
    }

    /// Asks for a delete rather than a create or update.
    #[must_use]
    pub fn with_intent(mut self, intent: Intent) -> Self {
        self.intent = intent;
        self
    }

    /// Notes that an earlier create of the record may have been carried out.
    #[must_use]
    pub fn with_unresolved_create(mut self, create: UnresolvedCreate) -> Self {
        self.unresolved_create = Some(create);
        self
    }

    /// The external id of the related record of `entry`.
    #[must_use]
    pub fn related(&self, entry: &str) -> Option<&str> {
        self.related.get(entry).map(String::as_str)
    }
}
