//! The `synchronization` section: which platform records go where, and how.

use crate::operation_ref::{OperationRef, OperationRefError};
use crate::source::Span;
use crate::tree::Tree;

use super::spanned::{Spanned, Text};

/// The `synchronization` (or `x-synchronization`) section of a definition.
#[derive(Clone, Debug, PartialEq)]
pub struct Synchronization {
    /// The key it was written under (`synchronization` or `x-synchronization`).
    pub key: Text,
    /// The section's object.
    pub span: Span,
    /// JSON pointer of the section (`/synchronization`).
    pub pointer: String,
    /// Entries in document order.
    pub entries: Vec<SyncEntry>,
}

impl Synchronization {
    /// The entry named `key` (`Account`, `Invoice`).
    #[must_use]
    pub fn entry(&self, key: &str) -> Option<&SyncEntry> {
        self.entries.iter().find(|e| e.key.value == key)
    }
}

/// One entry of the section: how one platform record type is synchronized.
#[derive(Clone, Debug, PartialEq)]
pub struct SyncEntry {
    /// The entity key (`Account`), as written.
    pub key: Text,
    /// The entry's object.
    pub span: Span,
    /// JSON pointer of the entry.
    pub pointer: String,
    /// `description`.
    pub description: Option<Text>,
    /// `module`: the platform module (`Accounts`, `Invoices`).
    pub module: Option<Text>,
    /// `push`: sending platform records to the external system.
    pub push: Option<Push>,
    /// `pull`: receiving records from the external system.
    pub pull: Option<Pull>,
    /// Keys this crate does not know, kept for the validator to warn on.
    pub unknown: Vec<UnknownField>,
}

/// The `push` object of an entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Push {
    /// The object.
    pub span: Span,
    /// JSON pointer.
    pub pointer: String,
    /// `create`.
    pub create: Option<OperationField>,
    /// `update`.
    pub update: Option<OperationField>,
    /// `delete`.
    pub delete: Option<OperationField>,
    /// Pre-actions, paths, templates shared with [`Pull`].
    pub common: MethodCommon,
}

/// The `pull` object of an entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Pull {
    /// The object.
    pub span: Span,
    /// JSON pointer.
    pub pointer: String,
    /// `read`.
    pub read: Option<OperationField>,
    /// `batchRead`.
    pub batch_read: Option<OperationField>,
    /// Pre-actions, paths, templates shared with [`Push`].
    pub common: MethodCommon,
}

/// What `push` and `pull` have in common: actions, templates and unknown keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MethodCommon {
    /// `preSynchronizationAction`, in document order.
    pub pre_actions: Vec<Action>,
    /// `postSynchronizationAction`, in document order.
    pub post_actions: Vec<Action>,
    /// `schemasTransformer`, in document order.
    pub templates: Vec<TemplateSource>,
    /// Span of the `schemasTransformer` object, when present.
    pub templates_span: Option<Span>,
    /// Keys this crate does not know.
    pub unknown: Vec<UnknownField>,
}

/// A path field (`create`, `update`, `read`...): the raw text and its parse.
#[derive(Clone, Debug, PartialEq)]
pub struct OperationField {
    /// The field's name as written (`create`).
    pub name: Text,
    /// The value as written.
    pub text: Text,
    /// JSON pointer of the value.
    pub pointer: String,
    /// The parsed reference, or why it is malformed (the validator reports it).
    pub parsed: Result<OperationRef, OperationRefError>,
}

/// One pre- or post-synchronization action.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// The action's name (the map key, e.g. `SyncToken`).
    pub name: Text,
    /// The action's object.
    pub span: Span,
    /// JSON pointer.
    pub pointer: String,
    /// `type`.
    pub kind: Option<Spanned<ActionType>>,
    /// `path`: an operation reference for `ApiPath`, a collection or entry name for
    /// `ApiSynchronization`.
    pub path: Option<Text>,
    /// `path` parsed as an operation reference (meaningful for `ApiPath`).
    pub path_ref: Option<Result<OperationRef, OperationRefError>>,
    /// `schema`.
    pub schema: Option<ActionSchema>,
    /// `in`.
    pub placement: Option<Spanned<ActionIn>>,
    /// Keys this crate does not know.
    pub unknown: Vec<UnknownField>,
}

impl Action {
    /// What an `ApiSynchronization` action names (an entry, a child collection); `None` for
    /// another action, or one without a `path`.
    #[must_use]
    pub fn synchronized(&self) -> Option<&Text> {
        match self.kind.as_ref().map(|k| &k.value) {
            Some(ActionType::ApiSynchronization) => self.path.as_ref(),
            _ => None,
        }
    }
}

/// The `type` of an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionType {
    /// A call to an external path.
    ApiPath,
    /// A synchronization of another entry or child collection first (or after).
    ApiSynchronization,
    /// Anything else, as written (the validator reports it with a did-you-mean).
    Unknown(String),
}

/// Where an action puts the value it obtained (`in`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionIn {
    /// Into the push request body (as `$.syncToken` for templates).
    Body,
    /// Into a request header named by `schema.header`.
    Header,
    /// Anything else, as written.
    Unknown(String),
}

/// The `schema` of an action: what to read from the response.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionSchema {
    /// The object.
    pub span: Span,
    /// JSON pointer.
    pub pointer: String,
    /// `type` (`String`).
    pub kind: Option<Text>,
    /// `header`: the request header to send.
    pub header: Option<Text>,
    /// `headerValue`: the response field that supplies the header's value.
    pub header_value: Option<Text>,
    /// Every other `name: response field` mapping (`SyncToken: Customer.SyncToken`).
    pub fields: Vec<SchemaField>,
}

/// One `name: response field` mapping of an action schema.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaField {
    /// The name the value is known by.
    pub name: Text,
    /// The response field it is read from.
    pub source: Text,
}

/// One template of `schemasTransformer`.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateSource {
    /// The template's name (`createRequest`).
    pub name: Text,
    /// JSON pointer of the value.
    pub pointer: String,
    /// The template itself.
    pub body: TemplateBody,
}

/// A template as written: a JSON object in the document, or a string holding JSON text.
#[derive(Clone, Debug, PartialEq)]
pub enum TemplateBody {
    /// An object (or any non-string value) written inline: a copy of it, with the spans it
    /// has in the file.
    Node(Tree),
    /// A string whose value is JSON text (spec 2.6). Positions inside the text map back to the
    /// file with [`Text::span_of`].
    JsonText(Text),
}

/// A key the model does not know, kept with its location.
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownField {
    /// The key.
    pub key: Text,
    /// JSON pointer of the value.
    pub pointer: String,
    /// The defined key it is a near miss of (`preSynchronizationAction` for
    /// `preSyncronizationAction`): its value was read as that key's, so that its content is
    /// checked, and the key is reported as misspelt. `None` for a key that is simply unknown.
    pub meant: Option<&'static str>,
}
