//! A lean typed view of the OpenAPI part: what the rules and the push engine read (servers,
//! security, operations, their parameters, request and response schemas), as small types that
//! point into the spanned tree instead of copying it.
//!
//! The view never fails to build: the structure check (`crate::structure`) reports what is
//! malformed, each at its node, and the view answers `None` or skips where a value is missing
//! or of the wrong kind. So the same reading serves a linter that must go on after an error and
//! an engine that only runs on documents the linter passed. It reads OpenAPI 3.0 and 3.1 alike
//! (3.1's `type` lists, `examples` arrays and `const` included).

mod form_fields;
mod media;
mod operation;
mod sample;
mod schema;
mod security;
mod servers;

pub use form_fields::{Field, FieldLayout, Unwritable};
pub use media::{
    BodyEncoding, MediaChoice, RequestMedia, WRITTEN_MEDIA_TYPES, essence, is_json, request_media,
};
pub use operation::{MediaType, Operation, SentParameter, json_content};
pub use sample::{SampleResponse, sample_response};
pub use schema::Schema;
pub use security::{OAuthFlow, SecurityRequirement, SecurityScheme};
pub use servers::{Server, ServerVariable};

use crate::node::Node;
use crate::refs;

/// The OpenAPI version a document declares, which selects the rules its structure follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// `openapi: 3.0.x`.
    V3_0,
    /// `openapi: 3.1.x`.
    V3_1,
}

impl Version {
    /// The version `openapi: <text>` declares, when it is one this crate reads.
    #[must_use]
    pub fn parse(text: &str) -> Option<Version> {
        let rest = text.strip_prefix("3.")?;
        let (minor, patch) = rest.split_once('.').unwrap_or((rest, "0"));
        if patch.is_empty() || !patch.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        match minor {
            "0" => Some(Version::V3_0),
            "1" => Some(Version::V3_1),
            _ => None,
        }
    }
}

/// The OpenAPI part of a loaded document.
#[derive(Clone, Copy, Debug)]
pub struct OpenApi<'d> {
    root: Node<'d>,
}

impl<'d> OpenApi<'d> {
    /// The OpenAPI view of document `root` (the `synchronization` section is simply not read).
    #[must_use]
    pub fn new(root: Node<'d>) -> Self {
        OpenApi { root }
    }

    /// The whole document.
    #[must_use]
    pub fn root(&self) -> Node<'d> {
        self.root
    }

    /// The declared version, when `openapi` holds one this crate reads.
    #[must_use]
    pub fn version(&self) -> Option<Version> {
        self.root
            .get("openapi")
            .and_then(Node::as_str)
            .and_then(Version::parse)
    }

    /// `servers`, in document order (entries without a string `url` are skipped).
    pub fn servers(&self) -> impl Iterator<Item = Server<'d>> + use<'d> {
        array(self.root.get("servers")).filter_map(Server::read)
    }

    /// The top-level `security` requirements, in document order: each alternative, with the
    /// schemes it combines.
    pub fn security(&self) -> impl Iterator<Item = Vec<SecurityRequirement<'d>>> + use<'d> {
        array(self.root.get("security")).map(SecurityRequirement::read_alternative)
    }

    /// The security schemes under `components.securitySchemes`, references followed, in
    /// document order.
    pub fn security_schemes(&self) -> impl Iterator<Item = SecurityScheme<'d>> + use<'d> {
        let root = self.root;
        members(self.component("securitySchemes"))
            .filter_map(move |m| SecurityScheme::read(m.key.name, resolve(root, Some(m.value))?))
    }

    /// The security scheme named `name`.
    #[must_use]
    pub fn security_scheme(&self, name: &str) -> Option<SecurityScheme<'d>> {
        let member = self.component("securitySchemes")?.member(name)?;
        SecurityScheme::read(member.key.name, resolve(self.root, Some(member.value))?)
    }

    /// The operation object `node` of this document, for reading its parts.
    #[must_use]
    pub fn operation(&self, node: Node<'d>) -> Operation<'d> {
        Operation::new(self.root, node)
    }

    /// The schema object `node` of this document, for reading its keywords.
    #[must_use]
    pub fn schema(&self, node: Node<'d>) -> Schema<'d> {
        Schema::new(self.root, node)
    }

    fn component(self, kind: &str) -> Option<Node<'d>> {
        self.root.get("components")?.get(kind)
    }
}

/// Follows local `$ref`s from `node` to the object they end at. `None` when a reference is
/// not local, broken or circular (the reference check reports those).
#[must_use]
pub fn resolve<'n>(root: Node<'n>, node: Option<Node<'n>>) -> Option<Node<'n>> {
    let node = node?;
    match node.get("$ref") {
        Some(target) => refs::resolve(root, target.as_str()?),
        None => Some(node),
    }
}

/// The items of `node` when it is an array, none otherwise.
fn array(node: Option<Node<'_>>) -> impl Iterator<Item = Node<'_>> {
    node.and_then(Node::as_array).unwrap_or_default().iter()
}

/// The members of `node` when it is an object, none otherwise.
fn members(node: Option<Node<'_>>) -> impl Iterator<Item = crate::node::Member<'_>> {
    node.and_then(Node::as_object).unwrap_or_default().iter()
}

#[cfg(test)]
mod tests;
