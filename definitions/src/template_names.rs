//! The names of transformation templates: which templates each operation of an entry has,
//! which it needs, and what a name means. The validator checks definitions against this
//! table and the engine looks templates up by these names, so it lives below both.
//!
//! The vendor names templates `{operation}Request` (the body sent) and `{operation}Response`
//! (what is read from the answer). The spec shows which are used: a create request, an update
//! request and a new-record response (2.6); a create must extract the external identifier
//! (2.6 rule 7). From that:
//!
//! - `create`: `createRequest` and `createResponse` are required;
//! - `update`: `updateRequest` is required, `updateResponse` optional;
//! - `delete`: `deleteRequest` is required when the target operation declares a request body
//!   (QuickBooks deletes with a POST carrying `Id` and `SyncToken`), optional otherwise;
//!   `deleteResponse` optional;
//! - `read` and `batchRead` (pull): the `…Response` template is required (it maps the external
//!   record onto the platform's), the `…Request` optional.

use crate::operation::{Operation, Section};

/// The suffix of request template names (`createRequest`).
pub const REQUEST_SUFFIX: &str = "Request";

/// The suffix of response template names (`createResponse`).
pub const RESPONSE_SUFFIX: &str = "Response";

/// Whether an operation needs a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Always required.
    Required,
    /// Required when the target operation declares a `requestBody`.
    WhenBody,
    /// Used when present.
    Optional,
}

/// The operations of an entry, by the key that declares them, and their template needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperationTemplates {
    /// `push` or `pull`.
    pub section: &'static str,
    /// The key (`create`), also the template prefix.
    pub operation: &'static str,
    /// Need of `{operation}Request`.
    pub request: Need,
    /// Need of `{operation}Response`.
    pub response: Need,
}

/// Every operation key of the format.
pub const OPERATIONS: &[OperationTemplates] = &[
    OperationTemplates {
        section: Section::Push.key(),
        operation: Operation::Create.key(),
        request: Need::Required,
        response: Need::Required,
    },
    OperationTemplates {
        section: Section::Push.key(),
        operation: Operation::Update.key(),
        request: Need::Required,
        response: Need::Optional,
    },
    OperationTemplates {
        section: Section::Push.key(),
        operation: Operation::Delete.key(),
        request: Need::WhenBody,
        response: Need::Optional,
    },
    OperationTemplates {
        section: Section::Pull.key(),
        operation: Operation::Read.key(),
        request: Need::Optional,
        response: Need::Required,
    },
    OperationTemplates {
        section: Section::Pull.key(),
        operation: Operation::BatchRead.key(),
        request: Need::Optional,
        response: Need::Required,
    },
];

/// The operation key of a template name and whether it is the request (`true`) or response
/// template, if the name has the `{operation}Request` / `{operation}Response` form.
#[must_use]
pub fn split_template_name(name: &str) -> Option<(&str, bool)> {
    if let Some(op) = name.strip_suffix(REQUEST_SUFFIX) {
        Some((op, true))
    } else {
        name.strip_suffix(RESPONSE_SUFFIX).map(|op| (op, false))
    }
}

/// Whether a template name is a request template (read from the platform record) rather
/// than a response template (read from the external system's answer).
#[must_use]
pub fn is_request_template(name: &str) -> bool {
    name.ends_with(REQUEST_SUFFIX)
}

/// Whether a template name is a response template (read from the external system's answer).
#[must_use]
pub fn is_response_template(name: &str) -> bool {
    name.ends_with(RESPONSE_SUFFIX)
}

/// The request template of operation `operation` (`createRequest`): the body sent.
#[must_use]
pub fn request_name(operation: &str) -> String {
    format!("{operation}{REQUEST_SUFFIX}")
}

/// The response template of operation `operation` (`createResponse`): what is read from the
/// answer.
#[must_use]
pub fn response_name(operation: &str) -> String {
    format!("{operation}{RESPONSE_SUFFIX}")
}

/// Every template name the format defines.
pub fn known_names() -> impl Iterator<Item = String> {
    OPERATIONS
        .iter()
        .flat_map(|o| [request_name(o.operation), response_name(o.operation)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_back_into_their_operation() {
        for name in known_names() {
            let (op, request) = split_template_name(&name).expect("a template name");
            assert!(OPERATIONS.iter().any(|o| o.operation == op), "{name}");
            assert_eq!(request, is_request_template(&name));
            assert_eq!(!request, is_response_template(&name));
        }
        assert_eq!(request_name("update"), "updateRequest");
        assert_eq!(response_name("create"), "createResponse");
        assert_eq!(split_template_name("mapping"), None);
    }
}
