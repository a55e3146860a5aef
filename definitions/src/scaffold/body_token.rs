//! The concurrency token an update sends in its body (QuickBooks' `SyncToken`): when the
//! update's body declares one and a GET of the record answers it, a
//! `preSynchronizationAction` reads it there (`in: Body`) and the body sends `$.syncToken`, as
//! the catalog's QuickBooks entry does. The action runs only when the record has an external
//! id, so a create is not held up by it.

use serde_json::{Value as Json, json};

use super::merged::Merged;
use super::operation::Chosen;
use super::response::success_schema;
use crate::Definition;
use crate::openapi::Schema;
use crate::operation_ref::HttpMethod;

/// Names of a body's concurrency token, lower case without separators.
const TOKEN_NAMES: &[&str] = &["synctoken", "etag", "rowversion"];

/// The token an update's body sends, and the action that reads it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct BodyToken {
    /// The body's property (`SyncToken`).
    pub property: String,
    /// The action, named after the property.
    pub action: Json,
}

/// The token of `update`, whose body is of schema `body`; `None` when the body declares none
/// or no GET of the record answers it.
pub(super) fn body_token(
    vendor: &Definition,
    update: &Chosen<'_>,
    body: Option<&Schema<'_>>,
) -> Option<BodyToken> {
    let merged = Merged::of(body?);
    let property = merged.properties.iter().find_map(|(name, schema)| {
        let key = super::name_key(name);
        (TOKEN_NAMES.contains(&key.as_str()) && !Merged::is_read_only(schema)).then_some(*name)
    })?;
    let (written_path, _) = update.reference.rsplit_once('/')?;
    let api = vendor.openapi();
    let paths = vendor.paths();
    let get = HttpMethod::Get;
    let (read, answer) = paths.entries().find_map(|entry| {
        let (operation, _) = entry.operation(get)?;
        let read = if entry.template == update.template && update.names_record {
            format!("{written_path}/{get}")
        } else if is_record_of(entry.template, update.template) {
            format!("{written_path}/{{IntegrationId}}/{get}")
        } else {
            return None;
        };
        Some((read, success_schema(&api, &api.operation(operation))?))
    })?;
    let field = field_path(&Merged::of(&answer), property)?;
    Some(BodyToken {
        property: property.to_owned(),
        action: json!({
            "type": "ApiPath",
            "path": read,
            "schema": {"type": "String", property: field},
            "in": "Body",
        }),
    })
}

/// Whether `template` is one record of the collection `collection`: the collection's path and
/// one parameter (`/customer/{customerId}` of `/customer`).
fn is_record_of(template: &str, collection: &str) -> bool {
    template
        .strip_prefix(collection)
        .and_then(|rest| rest.strip_prefix('/'))
        .is_some_and(|last| last.starts_with('{') && last.ends_with('}') && !last.contains('/'))
}

/// Where an answer holds `property`: at its top, or in one object it holds
/// (`Customer.SyncToken`).
fn field_path(answer: &Merged<'_>, property: &str) -> Option<String> {
    if answer.properties.iter().any(|(name, _)| *name == property) {
        return Some(property.to_owned());
    }
    answer.properties.iter().find_map(|(outer, schema)| {
        let inner = Merged::of(schema);
        let holds = inner.kind == Some("object")
            && inner.properties.iter().any(|(name, _)| *name == property);
        holds.then(|| format!("{outer}.{property}"))
    })
}

#[cfg(test)]
mod tests {
    use super::is_record_of;

    #[test]
    fn a_record_is_its_collection_and_one_parameter() {
        assert!(is_record_of("/customer/{customerId}", "/customer"));
        assert!(!is_record_of("/customer", "/customer"));
        assert!(!is_record_of("/customer/{id}/notes", "/customer"));
        assert!(!is_record_of("/customers/{id}", "/customer"));
    }
}
