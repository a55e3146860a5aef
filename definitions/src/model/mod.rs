//! The typed model of a synchronization definition.

mod build;
mod problem;
mod spanned;
mod sync;

pub mod keys;
pub use problem::{LoadProblem, ProblemKind};
pub use spanned::{Spanned, Text};
pub use sync::{
    Action, ActionIn, ActionSchema, ActionType, MethodCommon, OperationField, Pull, Push,
    SchemaField, SyncEntry, Synchronization, TemplateBody, TemplateSource, UnknownField,
};

pub(crate) use build::{SYNC_KEYS, build_sync};
