//! The operations a starting definition pushes through: each reference the user gave found in
//! the vendor's `paths`, and written as the definition writes it, the record's own id as
//! `{IntegrationId}`.

use super::ScaffoldError;
use crate::Definition;
use crate::node::Node;
use crate::openapi::Operation;
use crate::operation_ref::{OperationRef, PlaceholderKind};
use crate::path_match::Resolution;

/// An operation found for a reference.
#[derive(Clone, Debug)]
pub(super) struct Chosen<'d> {
    /// The reference as the definition writes it.
    pub reference: String,
    /// The operation.
    pub operation: Operation<'d>,
    /// Whether the reference names the record by `{IntegrationId}`.
    pub names_record: bool,
    /// The path item the operation is of.
    pub path_item: Node<'d>,
    /// The path's template, as `paths` writes it.
    pub template: &'d str,
    /// The JSON pointer of the reference in the definition.
    pub at: String,
    /// The reference's placeholders that name neither a server variable nor the record: each
    /// needs a value.
    pub unfilled: Vec<String>,
}

/// The operation `text` names (`--create` or `--update`, the `option`), written at JSON pointer
/// `at`; for an update, its last path parameter that is no server variable stands for the
/// record's external id.
pub(super) fn choose<'d>(
    definition: &'d Definition,
    option: &str,
    text: &str,
    update: bool,
    at: &str,
) -> Result<Chosen<'d>, ScaffoldError> {
    let reference = OperationRef::parse(text).map_err(|e| ScaffoldError {
        location: None,
        message: format!("{option} `{text}`: {}", e.message),
        help: e.help,
    })?;
    let (operation, path) = match definition.resolve(&reference) {
        Resolution::Found {
            operation, path, ..
        } => (operation, path),
        Resolution::MethodMissing { path } => {
            let methods: Vec<&str> = path.methods().iter().map(|m| m.as_str()).collect();
            return Err(ScaffoldError {
                location: Some(definition.source.describe(path.key_span)),
                message: format!(
                    "{option} `{text}`: the path `{}` has no `{}` operation",
                    path.template, reference.method
                ),
                help: format!(
                    "its operations are: {}; write `{}/<method>`",
                    methods.join(", "),
                    path.template
                ),
            });
        }
        Resolution::NotFound => return Err(not_found(definition, option, text, &reference)),
    };
    let variables = definition.server_variables();
    let unfilled: Vec<(usize, &str)> = reference
        .placeholders
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == PlaceholderKind::Name && !variables.contains(&p.name.as_str()))
        .map(|(index, p)| (index, p.name.as_str()))
        .collect();
    let written_id = reference
        .placeholders
        .iter()
        .any(|p| p.kind == PlaceholderKind::IntegrationId);
    // An update names the record by its last parameter, unless it is written already.
    let record = if update && !written_id {
        unfilled.last().map(|(i, _)| *i)
    } else {
        None
    };
    let mut written = String::new();
    let mut from = 0;
    for (index, placeholder) in reference.placeholders.iter().enumerate() {
        written.push_str(&text[from..placeholder.range.start]);
        if Some(index) == record {
            written.push_str("{IntegrationId}");
        } else {
            written.push_str(&text[placeholder.range.clone()]);
        }
        from = placeholder.range.end;
    }
    written.push_str(&text[from..]);
    let names_record = record.is_some() || written_id;
    let unfilled = unfilled
        .iter()
        .filter(|(index, _)| Some(*index) != record)
        .map(|(_, name)| (*name).to_owned())
        .collect();
    Ok(Chosen {
        at: at.to_owned(),
        unfilled,
        reference: written,
        operation: definition.openapi().operation(operation),
        names_record,
        path_item: path.item,
        template: path.template,
    })
}

/// No path matches: the error names the closest paths of the description.
fn not_found(
    definition: &Definition,
    option: &str,
    text: &str,
    reference: &OperationRef,
) -> ScaffoldError {
    let paths = definition.paths();
    let mut close: Vec<(f64, &str)> = paths
        .entries()
        .filter(|entry| entry.operation(reference.method).is_some())
        .map(|entry| {
            let similarity = strsim::jaro_winkler(
                &entry.template.to_ascii_lowercase(),
                &reference.path.to_ascii_lowercase(),
            );
            (similarity, entry.template)
        })
        .collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0));
    let suggestions: Vec<String> = close
        .iter()
        .take(3)
        .map(|(_, path)| format!("`{path}/{}`", reference.method))
        .collect();
    let root: Node<'_> = definition.root();
    ScaffoldError {
        location: Some(
            definition
                .source
                .describe(root.member("paths").map_or(root.span, |p| p.key.span)),
        ),
        message: format!(
            "{option} `{text}`: no path of the description matches `{}`",
            reference.path
        ),
        help: if suggestions.is_empty() {
            format!("the description has no `{}` operation", reference.method)
        } else {
            format!(
                "write a path of `paths` followed by the method, such as {}",
                suggestions.join(", ")
            )
        },
    }
}
