//! Quick fixes that write a template: add the template an operation lacks (SD401), mark an
//! update sparse (SD604). Each edits the definition where the validator's finding points.

use lsp_types::TextEdit;
use syncdef_definitions::{Definition, NodeKind, pointer};
use syncdef_validator::codes::Rule;

use crate::document::Document;
use crate::suppression::new_member;

/// The fix of one finding of rule `code` at `at` (its JSON pointer), with its title.
pub fn fix(
    doc: &Document,
    def: &Definition,
    code: &str,
    at: &str,
    help: Option<&str>,
) -> Option<(String, TextEdit)> {
    match Rule::from_code(code)? {
        Rule::MissingTemplate => add_template(doc, def, at, first_quoted(help?)?),
        Rule::UpdateNotSparse => mark_sparse(doc, def, at),
        _ => None,
    }
}

/// An empty template `name` under the `schemasTransformer` of the section holding the
/// operation at `at` (created when the section has none).
fn add_template(
    doc: &Document,
    def: &Definition,
    at: &str,
    name: &str,
) -> Option<(String, TextEdit)> {
    let (section, _) = pointer::split_last(at)?;
    let section = def.root().pointer(section)?;
    let json = doc.is_json();
    let (start, end, new_text) = match section.get("schemasTransformer") {
        Some(templates) if matches!(templates.kind, NodeKind::Object(_)) => {
            new_member(doc.text(), &templates, name, "{}", json)?
        }
        Some(_) => return None,
        None => {
            let inner = if json {
                format!("{{\"{name}\": {{}}}}")
            } else {
                format!("{{{name}: {{}}}}")
            };
            new_member(doc.text(), &section, "schemasTransformer", &inner, json)?
        }
    };
    Some((
        format!("Add the `{name}` template"),
        edit(doc, start, end, new_text),
    ))
}

/// `sparse: true` at the top of the template at `at`; a `sparse` of another value set to
/// `true`.
fn mark_sparse(doc: &Document, def: &Definition, at: &str) -> Option<(String, TextEdit)> {
    let template = def.root().pointer(at)?;
    let (start, end, new_text) = match template.member("sparse") {
        Some(member) => (
            member.value.span.start as usize,
            member.value.span.end as usize,
            "true".to_owned(),
        ),
        None => new_member(doc.text(), &template, "sparse", "true", doc.is_json())?,
    };
    Some((
        "Mark the update sparse (`sparse: true`)".to_owned(),
        edit(doc, start, end, new_text),
    ))
}

fn edit(doc: &Document, start: usize, end: usize, new_text: String) -> TextEdit {
    TextEdit {
        range: doc.lines().range(doc.text(), start, end),
        new_text,
    }
}

/// The first name in backquotes of a help text (`add `createRequest` under ...`).
fn first_quoted(help: &str) -> Option<&str> {
    let start = help.find('`')? + 1;
    let len = help[start..].find('`')?;
    Some(&help[start..start + len]).filter(|name| !name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::first_quoted;

    #[test]
    fn the_template_name_is_the_first_quoted_word_of_the_help() {
        assert_eq!(
            first_quoted("add `createRequest` under `schemasTransformer`: it gives"),
            Some("createRequest")
        );
        assert_eq!(first_quoted("no name"), None);
        assert_eq!(first_quoted("``"), None);
    }
}
