//! Hover: what the thing under the cursor is — a template function's signature and
//! documentation, a record field's type and description, an operation reference's method,
//! path and summary — and the rule behind each finding there.

use lsp_types::{
    Diagnostic, Hover, HoverContents, MarkupContent, MarkupKind, NumberOrString, Position,
};
use syncdef_definitions::Definition;
use syncdef_definitions::path_match::Resolution;
use syncdef_validator::Rule;

use crate::analysis;
use crate::completion::{schema_at, type_names};
use crate::cursor::{self, is_name_char};
use crate::document::Document;
use crate::locate;

/// The hover at `position`, if anything there has something to say.
#[must_use]
pub fn hover(doc: &Document, position: Position, published: &[Diagnostic]) -> Option<Hover> {
    let text = doc.text();
    let offset = doc.lines().offset(text, position);
    let def = analysis::current(doc);
    let mut parts: Vec<String> = Vec::new();
    if let Some(found) = function(text, offset) {
        parts.push(found);
    } else if let Some(found) = record_field(text, offset, def.as_deref()) {
        parts.push(found);
    } else if let Some(found) = def.as_deref().and_then(|d| operation(d, offset)) {
        parts.push(found);
    }
    parts.extend(rules(published, position));
    (!parts.is_empty()).then(|| Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: parts.join("\n\n---\n\n"),
        }),
        range: None,
    })
}

/// `#name` under the cursor: its usage and documentation.
fn function(text: &str, offset: usize) -> Option<String> {
    let start = cursor::run_start(text, offset, is_name_char);
    let end = cursor::run_end(text, offset, is_name_char);
    if start == 0 || text.as_bytes()[start - 1] != b'#' || start == end {
        return None;
    }
    let name = &text[start..end];
    syncdef_transform::function_reference()
        .into_iter()
        .find(|(usage, _)| usage.strip_prefix('#').and_then(|u| u.split('(').next()) == Some(name))
        .map(|(usage, doc)| format!("```\n{usage}\n```\n\n{doc}"))
}

/// The record field a `$.root.field` path names at the cursor: its type and description.
fn record_field(text: &str, offset: usize, def: Option<&Definition>) -> Option<String> {
    let end = cursor::run_end(text, offset, is_name_char);
    let start = cursor::run_start(text, offset, |c| {
        is_name_char(c) || matches!(c, '.' | '$' | '[' | ']' | '?' | '@' | '=' | '(' | ')')
    });
    let path = &text[start..end];
    let at = path.rfind("$.")?;
    let path = &path[at..];
    let names: Vec<String> = path[2..].split('.').map(strip_filter).collect();
    if names.iter().any(String::is_empty) {
        return None;
    }
    let schemas = analysis::record_schemas(def);
    let schema = schema_at(&schemas, &names)?;
    let mut out = format!("`{path}`: `{}`", type_names(&schema));
    if let Some(description) = schema.description() {
        out.push_str("\n\n");
        out.push_str(description);
    }
    Some(out)
}

/// `addresses[?(@.isBilling==true)]` -> `addresses[]`.
fn strip_filter(name: &str) -> String {
    match name.find('[') {
        Some(i) => format!("{}[]", &name[..i]),
        None => name.to_owned(),
    }
}

/// The operation a reference at the cursor resolves to.
fn operation(def: &Definition, offset: usize) -> Option<String> {
    let field = locate::operation_at(def, offset);
    let parsed = match field {
        Some(f) => f.parsed.as_ref().ok()?,
        None => locate::action_path_at(def, offset)?
            .path_ref
            .as_ref()?
            .as_ref()
            .ok()?,
    };
    match def.resolve(parsed) {
        Resolution::Found {
            path, operation, ..
        } => {
            let mut out = format!(
                "**{}** `{}`",
                parsed.method.as_str().to_uppercase(),
                path.template
            );
            for key in ["summary", "description"] {
                if let Some(text) = operation
                    .get(key)
                    .and_then(syncdef_definitions::Node::as_str)
                {
                    out.push_str("\n\n");
                    out.push_str(text);
                }
            }
            if let Some(id) = operation
                .get("operationId")
                .and_then(syncdef_definitions::Node::as_str)
            {
                out.push_str(&format!("\n\noperationId: `{id}`"));
            }
            Some(out)
        }
        Resolution::MethodMissing { path } => {
            let methods: Vec<&str> = path.methods().iter().map(|m| m.as_str()).collect();
            Some(format!(
                "`{}` has no `{}` operation; it has: {}",
                path.template,
                parsed.method.as_str(),
                methods.join(", ")
            ))
        }
        Resolution::NotFound => None,
    }
}

/// The rule of each published finding at `position`: its code, title and documentation.
fn rules(published: &[Diagnostic], position: Position) -> Vec<String> {
    published
        .iter()
        .filter(|d| d.range.start <= position && position <= d.range.end)
        .filter_map(|d| match &d.code {
            Some(NumberOrString::String(code)) => Rule::from_code(code),
            _ => None,
        })
        .map(|rule| {
            format!(
                "**{}** {}\n\n{}",
                rule.code(),
                rule.title(),
                rule.documentation()
            )
        })
        .collect()
}
