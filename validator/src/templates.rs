//! Which templates each operation needs, and what template names mean.
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
        section: "push",
        operation: "create",
        request: Need::Required,
        response: Need::Required,
    },
    OperationTemplates {
        section: "push",
        operation: "update",
        request: Need::Required,
        response: Need::Optional,
    },
    OperationTemplates {
        section: "push",
        operation: "delete",
        request: Need::WhenBody,
        response: Need::Optional,
    },
    OperationTemplates {
        section: "pull",
        operation: "read",
        request: Need::Optional,
        response: Need::Required,
    },
    OperationTemplates {
        section: "pull",
        operation: "batchRead",
        request: Need::Optional,
        response: Need::Required,
    },
];

/// The operation key of a template name and whether it is the request (`true`) or response
/// template, if the name has the `{operation}Request` / `{operation}Response` form.
#[must_use]
pub fn split_template_name(name: &str) -> Option<(&str, bool)> {
    if let Some(op) = name.strip_suffix("Request") {
        Some((op, true))
    } else {
        name.strip_suffix("Response").map(|op| (op, false))
    }
}

/// Whether a template name is a request template (read from the platform record) rather
/// than a response template (read from the external system's answer).
#[must_use]
pub fn is_request_template(name: &str) -> bool {
    name.ends_with("Request")
}

/// Every template name the format defines.
pub fn known_names() -> impl Iterator<Item = String> {
    OPERATIONS.iter().flat_map(|o| {
        [
            format!("{}Request", o.operation),
            format!("{}Response", o.operation),
        ]
    })
}

/// A Markdown table for the generated docs.
#[must_use]
pub fn markdown_table() -> String {
    let need = |n: Need| match n {
        Need::Required => "required",
        Need::WhenBody => "required when the operation has a request body",
        Need::Optional => "optional",
    };
    let mut out = String::from("| operation | `…Request` | `…Response` |\n|---|---|---|\n");
    for o in OPERATIONS {
        out.push_str(&format!(
            "| `{}.{}` | `{}Request`: {} | `{}Response`: {} |\n",
            o.section,
            o.operation,
            o.operation,
            need(o.request),
            o.operation,
            need(o.response)
        ));
    }
    out
}
