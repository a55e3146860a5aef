//! Running an overlay's actions, in order, over the document the previous ones left: each
//! target selects its places in the document's JSON value, and the update or removal is
//! made both there (for the next action's query) and in the draft (which keeps the spans).

use serde_json::Value;

use super::document::{Action, Change, with_article};
use super::draft::{Draft, DraftValue, Step};
use super::target::{self, Target};
use crate::model::{LoadProblem, ProblemKind};
use crate::source::{SourceFile, Span};
use crate::string_map;

/// The document being composed, in both forms.
pub(crate) struct Composed {
    pub draft: Draft,
    pub value: Value,
}

/// The overlay an action belongs to: its own file (for positions inside a target's text) and
/// its place in the joined source.
pub(crate) struct Layer<'a> {
    pub file: &'a SourceFile,
    pub base: u32,
    /// The name of the document the actions change, for messages.
    pub extended: &'a str,
}

impl Layer<'_> {
    fn at(&self, span: Span) -> Span {
        Span::new(span.start + self.base, span.end + self.base)
    }
}

/// Runs `action` over `doc`.
pub(crate) fn run(
    action: &Action<'_>,
    layer: &Layer<'_>,
    doc: &mut Composed,
    problems: &mut Vec<LoadProblem>,
) {
    let Some(expression) = action.target.as_string() else {
        return;
    };
    let compiled = match Target::parse(expression.value) {
        Ok(compiled) => compiled,
        Err(error) => {
            let span = match error.offset {
                Some(offset) => string_map::map_offset(
                    layer.file.text(),
                    action.target.span,
                    expression.style,
                    offset,
                ),
                None => action.target.span,
            };
            problems.push(
                LoadProblem::new(ProblemKind::Overlay, layer.at(span), action.pointer("target"), format!("`target` is not a JSONPath: {}", error.message))
                    .help("write an RFC 9535 JSONPath from the root, such as `$.paths['/customer'].post` or `$.components.schemas.Customer`"),
            );
            return;
        }
    };
    let places = compiled.select(&doc.value);
    if places.is_empty() {
        problems.push(
            LoadProblem::new(ProblemKind::Overlay, layer.at(action.target.span), action.pointer("target"), format!("`target` `{}` selects nothing in {}", expression.value, layer.extended))
                .help("check the path against the description the overlay extends: keys are case-sensitive, and a key holding `/`, `{` or `.` is written in brackets, `$.paths['/customer/{id}']`"),
        );
        return;
    }
    match action.change {
        Change::Update(update) => {
            let draft = Draft::of(&update, layer.base);
            let value = update.to_json();
            for place in &places {
                if let Err(problem) = update_at(doc, place, &draft, &value, action, layer) {
                    problems.push(problem);
                    return;
                }
            }
        }
        Change::Remove => {
            // From the last: removing an item first would move the places after it.
            for place in places.iter().rev() {
                if let Err(problem) = remove_at(doc, place, action, layer) {
                    problems.push(problem);
                    return;
                }
            }
        }
    }
}

/// Merges `draft` into the object at `place`, or appends it to the array there.
fn update_at(
    doc: &mut Composed,
    place: &[Step],
    draft: &Draft,
    value: &Value,
    action: &Action<'_>,
    layer: &Layer<'_>,
) -> Result<(), LoadProblem> {
    let (Some(node), Some(json)) = (
        doc.draft.at_mut(place),
        target::value_at(&mut doc.value, place),
    ) else {
        return Ok(());
    };
    match (&mut node.value, &draft.value) {
        (DraftValue::Object(_), DraftValue::Object(_)) => {
            node.merge(draft.clone());
            target::merge_value(json, value.clone());
        }
        (DraftValue::Array(items), _) => {
            items.push(draft.clone());
            if let Value::Array(values) = json {
                values.push(value.clone());
            }
        }
        (DraftValue::Object(_), _) => {
            return Err(LoadProblem::new(ProblemKind::Overlay, draft.span, action.pointer("update"), format!("`update` is {}, but `target` selects an object", with_article(draft.kind_name())))
                .help("an update of an object is an object of the members to add or replace; to replace the whole value, target the object holding it and update that member"));
        }
        (_, _) => {
            return Err(LoadProblem::new(ProblemKind::Overlay, layer.at(action.target.span), action.pointer("target"), format!("`target` selects {} (at {}); an update merges into an object or appends to an array", with_article(node.kind_name()), shown_place(place)))
                .help("target the object holding the value and update its member, such as `target: $.info` with `update: {title: New title}`"));
        }
    }
    Ok(())
}

/// Removes what is at `place` from the object or array holding it.
fn remove_at(
    doc: &mut Composed,
    place: &[Step],
    action: &Action<'_>,
    layer: &Layer<'_>,
) -> Result<(), LoadProblem> {
    let Some((last, parent)) = place.split_last() else {
        return Err(LoadProblem::new(
            ProblemKind::Overlay,
            layer.at(action.target.span),
            action.pointer("target"),
            "`target` selects the whole document, which cannot be removed",
        )
        .help("target what to remove inside the document, such as `$.paths['/customer'].delete`"));
    };
    if let Some(node) = doc.draft.at_mut(parent) {
        node.remove(last);
    }
    if let Some(json) = target::value_at(&mut doc.value, parent) {
        target::remove_value(json, last);
    }
    Ok(())
}

/// A place as a JSON pointer, for messages.
fn shown_place(place: &[Step]) -> String {
    let mut pointer = String::new();
    for step in place {
        match step {
            Step::Name(name) => crate::pointer::push(&mut pointer, name),
            Step::Index(i) => crate::pointer::push_index(&mut pointer, *i),
        }
    }
    if pointer.is_empty() {
        "the root".to_owned()
    } else {
        format!("`{pointer}`")
    }
}
