//! Client of the billing platform's REST API (spec parts 4, 5, 7, 8, 9).
//!
//! - [`PlatformClient`]: one per platform; handles the password-grant token (shared,
//!   refreshed before expiry and once on a 401) and sends `Authorization`, `Accept` and
//!   `X-Api-Version` on every call.
//! - [`query`]: typed `$filter`/`$orderby`, checked against the spec's property tables
//!   ([`collections`]) before any request.
//! - [`PlatformClient::list`]: a stream of records across pages, whichever answer shape the
//!   platform uses.
//! - Single records, child collections, sync options and JSON Patch updates.
//! - [`Credentials`]: from `SYNCDEF_PLATFORM_*` variables or a private file, never arguments.
//!
//! Decisions where the spec is silent are in `docs/platform-client.md`.

mod attached;
mod client;
mod credentials;
pub mod envelope;
mod error;
mod guid;
pub mod ids;
mod paging;
pub mod patch;
pub mod query;
mod resources;
mod secret;
mod suggest;
mod token;
mod version;

/// Every collection of spec tables 2.1 and 2.2 with its filterable and orderable properties.
pub mod collections {
    pub use crate::query::catalog::*;
}

pub use client::{
    API_VERSION_HEADER, JSON_PATCH_CONTENT_TYPE, PlatformClient, PlatformClientBuilder,
};
pub use credentials::{
    Credentials, CredentialsError, ENV_CLIENT_KEY, ENV_CLIENT_SECRET, ENV_CREDENTIALS_FILE,
    ENV_PASSWORD, ENV_USERNAME,
};
pub use error::PlatformError;
pub use guid::{Guid, InvalidGuid};
pub use json_patch::Patch;
pub use paging::Page;
pub use patch::{PatchBuilder, UnsupportedPatch};
pub use secret::Secret;
pub use version::{ApiVersion, InvalidApiVersion};
