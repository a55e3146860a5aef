//! The candidates of each completion context.

use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};
use syncdef_definitions::platform::modules::{COMMON_ROOTS, MODULES};
use syncdef_definitions::platform::{FieldSchema, Property, RecordSchemas};
use syncdef_validator::Rule;

use super::Context;
use crate::vocabulary::Vocabulary;

/// Every candidate of `context` (filtered by what is typed afterwards).
#[must_use]
pub fn candidates(context: &Context, vocabulary: &Vocabulary) -> Vec<CompletionItem> {
    match context {
        Context::Operation { action, .. } => {
            let mut items = operations(vocabulary);
            if *action {
                items.extend(entries(vocabulary));
            }
            items
        }
        Context::Function { .. } => functions(),
        Context::RecordField { parents, .. } => record_fields(parents, vocabulary),
        Context::Placeholder { .. } => placeholders(vocabulary),
        Context::Module { .. } => modules(),
        Context::ActionType { .. } => words(&[
            (
                "ApiPath",
                "Call an operation of the external system first (or after)",
            ),
            (
                "ApiSynchronization",
                "Synchronize another entry or child collection first",
            ),
        ]),
        Context::ActionIn { .. } => words(&[
            (
                "Body",
                "Into the push request body (as `$.syncToken` for templates)",
            ),
            ("Header", "Into the request header named by `schema.header`"),
        ]),
        Context::RuleCode { .. } => rule_codes(),
    }
}

fn item(label: String, kind: CompletionItemKind, detail: Option<String>) -> CompletionItem {
    CompletionItem {
        label,
        kind: Some(kind),
        detail,
        ..CompletionItem::default()
    }
}

fn markdown(text: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value: text,
    })
}

/// `/path/method` of every operation under `paths`, with its summary.
fn operations(vocabulary: &Vocabulary) -> Vec<CompletionItem> {
    vocabulary
        .operations
        .iter()
        .map(|operation| {
            let method = operation.method.as_str();
            let mut it = item(
                format!("{}/{method}", operation.path),
                CompletionItemKind::REFERENCE,
                Some(format!("{} {}", method.to_uppercase(), operation.path)),
            );
            it.documentation = operation.summary.clone().map(markdown);
            it
        })
        .collect()
}

/// The entries an `ApiSynchronization` action may name.
fn entries(vocabulary: &Vocabulary) -> Vec<CompletionItem> {
    vocabulary
        .entries
        .iter()
        .map(|name| {
            item(
                name.clone(),
                CompletionItemKind::CLASS,
                Some("synchronization entry (ApiSynchronization)".to_owned()),
            )
        })
        .collect()
}

/// The template functions, with their signatures and documentation.
fn functions() -> Vec<CompletionItem> {
    syncdef_transform::function_reference()
        .into_iter()
        .filter_map(|(usage, doc)| {
            let name = usage.strip_prefix('#')?.split('(').next()?;
            let mut it = item(
                name.to_owned(),
                CompletionItemKind::FUNCTION,
                Some(usage.to_owned()),
            );
            it.documentation = Some(markdown(doc.to_owned()));
            Some(it)
        })
        .collect()
}

/// The names of a record path: the roots after `$.`, the server variables after
/// `$.serverVariables.`, the entries after `$.related.` (and their `IntegrationId`), else
/// the properties of the record schema at `parents`.
fn record_fields(parents: &[String], vocabulary: &Vocabulary) -> Vec<CompletionItem> {
    let schemas = &vocabulary.record_schemas;
    match parents {
        [] => roots(schemas),
        [root] if root == "serverVariables" => vocabulary
            .server_variables
            .iter()
            .map(|name| {
                item(
                    name.clone(),
                    CompletionItemKind::VARIABLE,
                    Some("server variable".to_owned()),
                )
            })
            .collect(),
        [root] if root == "related" => vocabulary
            .entries
            .iter()
            .map(|name| {
                let detail = format!("the related {name} record pushed first");
                item(name.clone(), CompletionItemKind::CLASS, Some(detail))
            })
            .collect(),
        [root, _] if root == "related" => vec![item(
            "IntegrationId".to_owned(),
            CompletionItemKind::FIELD,
            Some("its external id".to_owned()),
        )],
        _ => match schema_at(schemas, parents) {
            Some(schema) => schema
                .property_names()
                .into_iter()
                .map(|name| field_item(name, schema.property(name)))
                .collect(),
            None => Vec::new(),
        },
    }
}

fn roots(schemas: &RecordSchemas) -> Vec<CompletionItem> {
    let input = schemas.input();
    let mut items: Vec<CompletionItem> = input
        .property_names()
        .into_iter()
        .map(|name| field_item(name, input.property(name)))
        .collect();
    for name in COMMON_ROOTS {
        if !items.iter().any(|i| i.label == *name) {
            items.push(item(
                (*name).to_owned(),
                CompletionItemKind::FIELD,
                Some("given to every template".to_owned()),
            ));
        }
    }
    items
}

/// The schema a dotted record path reads (`addresses[]` reads the items of `addresses`).
#[must_use]
pub fn schema_at<'a>(schemas: &'a RecordSchemas, names: &[String]) -> Option<FieldSchema<'a>> {
    let mut at = schemas.input();
    for name in names {
        let (name, items) = match name.strip_suffix("[]") {
            Some(name) => (name, true),
            None => (name.as_str(), false),
        };
        at = match at.property(name) {
            Property::Known(schema) => schema,
            _ => return None,
        };
        if items {
            at = at.items().unwrap_or(at);
        }
    }
    Some(at)
}

fn field_item(name: &str, property: Property<'_>) -> CompletionItem {
    let schema = match property {
        Property::Known(schema) => Some(schema),
        _ => None,
    };
    let types = schema.map(|s| type_names(&s)).filter(|t| !t.is_empty());
    let mut it = item(name.to_owned(), CompletionItemKind::FIELD, types);
    it.documentation = schema
        .and_then(|s| s.description())
        .map(|d| markdown(d.to_owned()));
    it
}

/// `string | null`, or the record definition's name (`Address`).
#[must_use]
pub fn type_names(schema: &FieldSchema<'_>) -> String {
    if let Some(definition) = schema.definition() {
        return definition.to_owned();
    }
    let names: Vec<&str> = schema.types().iter().map(|t| t.name()).collect();
    match (
        names.as_slice(),
        schema.items().and_then(|i| i.definition()),
    ) {
        (["array"], Some(item)) => format!("array of {item}"),
        _ => names.join(" | "),
    }
}

/// `IntegrationId`, `<Entry>.IntegrationId` of every entry, and the server variables.
fn placeholders(vocabulary: &Vocabulary) -> Vec<CompletionItem> {
    let mut items = vec![item(
        "IntegrationId".to_owned(),
        CompletionItemKind::VARIABLE,
        Some("the external id of the record being pushed".to_owned()),
    )];
    for entry in &vocabulary.entries {
        items.push(item(
            format!("{entry}.IntegrationId"),
            CompletionItemKind::VARIABLE,
            Some(format!("the external id of the related {entry}")),
        ));
    }
    for variable in &vocabulary.server_variables {
        items.push(item(
            variable.clone(),
            CompletionItemKind::VARIABLE,
            Some("server variable".to_owned()),
        ));
    }
    items
}

fn modules() -> Vec<CompletionItem> {
    MODULES
        .iter()
        .map(|m| {
            item(
                m.name.to_owned(),
                CompletionItemKind::MODULE,
                Some(format!("platform module, records at `$.{}`", m.root)),
            )
        })
        .collect()
}

fn words(words: &[(&str, &str)]) -> Vec<CompletionItem> {
    words
        .iter()
        .map(|(word, detail)| {
            item(
                (*word).to_owned(),
                CompletionItemKind::ENUM_MEMBER,
                Some((*detail).to_owned()),
            )
        })
        .collect()
}

fn rule_codes() -> Vec<CompletionItem> {
    Rule::ALL
        .iter()
        .map(|rule| {
            item(
                rule.code().to_owned(),
                CompletionItemKind::CONSTANT,
                Some(rule.title().to_owned()),
            )
        })
        .collect()
}
