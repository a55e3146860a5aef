//! The candidates of each completion context.

use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};
use syncdef_definitions::Definition;
use syncdef_definitions::operation_ref::HttpMethod;
use syncdef_definitions::platform::modules::{COMMON_ROOTS, MODULES};
use syncdef_definitions::platform::{FieldSchema, Property, RecordSchemas};
use syncdef_validator::Rule;

use super::Context;
use crate::analysis;

/// Every candidate of `context` (filtered by what is typed afterwards).
#[must_use]
pub fn candidates(context: &Context, def: Option<&Definition>) -> Vec<CompletionItem> {
    match context {
        Context::Operation { action, .. } => {
            let mut items = def.map(operations).unwrap_or_default();
            if *action {
                items.extend(def.map(entries).unwrap_or_default());
            }
            items
        }
        Context::Function { .. } => functions(),
        Context::RecordField { parents, .. } => record_fields(parents, def),
        Context::Placeholder { .. } => def.map(placeholders).unwrap_or_default(),
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
fn operations(def: &Definition) -> Vec<CompletionItem> {
    let Some(paths) = def.root.get("paths").and_then(|p| p.as_object()) else {
        return Vec::new();
    };
    let mut items = Vec::new();
    for path in paths {
        for method in HttpMethod::ALL {
            let Some(operation) = path.value.get(method.as_str()) else {
                continue;
            };
            let summary = operation
                .get("summary")
                .or_else(|| operation.get("operationId"))
                .and_then(|s| s.as_str());
            let mut it = item(
                format!("{}/{}", path.key.name, method.as_str()),
                CompletionItemKind::REFERENCE,
                Some(format!(
                    "{} {}",
                    method.as_str().to_uppercase(),
                    path.key.name
                )),
            );
            it.documentation = summary.map(|s| markdown(s.to_owned()));
            items.push(it);
        }
    }
    items
}

/// The entries an `ApiSynchronization` action may name.
fn entries(def: &Definition) -> Vec<CompletionItem> {
    analysis::entry_names(def)
        .into_iter()
        .map(|name| {
            item(
                name.to_owned(),
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
fn record_fields(parents: &[String], def: Option<&Definition>) -> Vec<CompletionItem> {
    let schemas = analysis::record_schemas(def);
    match parents {
        [] => roots(&schemas),
        [root] if root == "serverVariables" => def
            .map(|d| {
                d.server_variables()
                    .into_iter()
                    .map(|name| {
                        item(
                            name.to_owned(),
                            CompletionItemKind::VARIABLE,
                            Some("server variable".to_owned()),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        [root] if root == "related" => def
            .map(|d| {
                analysis::entry_names(d)
                    .into_iter()
                    .map(|name| {
                        let detail = format!("the related {name} record pushed first");
                        item(name.to_owned(), CompletionItemKind::CLASS, Some(detail))
                    })
                    .collect()
            })
            .unwrap_or_default(),
        [root, _] if root == "related" => vec![item(
            "IntegrationId".to_owned(),
            CompletionItemKind::FIELD,
            Some("its external id".to_owned()),
        )],
        _ => match schema_at(&schemas, parents) {
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
fn placeholders(def: &Definition) -> Vec<CompletionItem> {
    let mut items = vec![item(
        "IntegrationId".to_owned(),
        CompletionItemKind::VARIABLE,
        Some("the external id of the record being pushed".to_owned()),
    )];
    for entry in analysis::entry_names(def) {
        items.push(item(
            format!("{entry}.IntegrationId"),
            CompletionItemKind::VARIABLE,
            Some(format!("the external id of the related {entry}")),
        ));
    }
    for variable in def.server_variables() {
        items.push(item(
            variable.to_owned(),
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
