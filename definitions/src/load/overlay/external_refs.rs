//! `$ref`s to other files (`./schemas.json#/components/schemas/Customer`), followed when the
//! document is loaded: the file is read (once) into the joined source, and what the reference
//! names is brought into the document, so that every reader (the rules, the request body
//! schemas, the engine) sees one self-contained document, located where each part is written.
//!
//! A target under `components` (`#/components/<kind>/<name>`) is copied to the same place of
//! the document (under another name when the document already has a different one there) and
//! the reference made local; any other target replaces the object holding the reference. The
//! references inside a copied part are local to its own file: they are written as references
//! to that file, and followed in the next round. URLs are not fetched, and a file that cannot
//! be read is left referred to: [`crate::refs::check`] reports both.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::draft::{Draft, DraftMember, DraftValue, Step};
use super::{Files, Format, LoadOptions, SourceFile, parse_as, read_file};

/// Rounds of following: a chain of files referring on is followed this deep.
const MAX_ROUNDS: usize = 32;

/// A file read for a reference.
struct External {
    path: PathBuf,
    root: Draft,
}

/// Follows the references to other files in `draft`, reading them into `files`.
pub(super) fn follow(draft: &mut Draft, files: &mut Files, options: &LoadOptions) {
    let mut externals: Vec<External> = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let mut sites = Vec::new();
        collect(draft, &mut Vec::new(), &mut sites);
        let mut followed = false;
        for (place, reference, at) in sites {
            let holder = files.file_at(at);
            let Some((path, pointer)) = split(holder.name(), &reference) else {
                continue;
            };
            let Some(index) = external(&path, files, &mut externals, options) else {
                continue;
            };
            let Some(target) = at_pointer(&externals[index].root, &pointer).cloned() else {
                continue;
            };
            let target = as_references_to(target, &path);
            bring(draft, &place, &pointer, target);
            followed = true;
        }
        if !followed {
            return;
        }
    }
}

/// Every `$ref` whose text names another file: the place of its object, its text, where it is.
fn collect(draft: &Draft, place: &mut Vec<Step>, out: &mut Vec<(Vec<Step>, String, u32)>) {
    match &draft.value {
        DraftValue::Object(members) => {
            for member in members {
                if member.name == "$ref"
                    && let DraftValue::String(text, _) = &member.value.value
                    && !text.starts_with('#')
                    && !text.contains("://")
                {
                    out.push((place.clone(), text.clone(), member.value.span.start));
                    continue;
                }
                place.push(Step::Name(member.name.clone()));
                collect(&member.value, place, out);
                place.pop();
            }
        }
        DraftValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                place.push(Step::Index(i));
                collect(item, place, out);
                place.pop();
            }
        }
        _ => {}
    }
}

/// The file a reference written in the file `holder` names (from `holder`'s directory) and
/// the pointer inside it.
fn split(holder: &str, reference: &str) -> Option<(PathBuf, String)> {
    let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if file.is_empty() {
        return None;
    }
    let path = super::extended_path(holder, file);
    Some((path, fragment.to_owned()))
}

/// The position in `externals` of the file at `path`, read into `files` the first time.
fn external(
    path: &Path,
    files: &mut Files,
    externals: &mut Vec<External>,
    options: &LoadOptions,
) -> Option<usize> {
    if let Some(at) = externals.iter().position(|e| e.path == path) {
        return Some(at);
    }
    let text = String::from_utf8(read_file(path).ok()?).ok()?;
    let source = Arc::new(SourceFile::new(path.display().to_string(), text));
    let raw = LoadOptions {
        take_ignores: false,
        ..*options
    };
    let doc = parse_as(Arc::clone(&source), Format::detect(&source), &raw).ok()?;
    let base = files.add(source)?;
    externals.push(External {
        path: path.to_path_buf(),
        root: Draft::of(&doc.root(), base),
    });
    Some(externals.len() - 1)
}

/// The value at the JSON pointer `pointer` (`""` the root) of `root`.
fn at_pointer<'d>(root: &'d Draft, pointer: &str) -> Option<&'d Draft> {
    crate::pointer::tokens(pointer)?.try_fold(root, |node, token| match &node.value {
        DraftValue::Object(members) => Some(&members.iter().find(|m| m.name == token)?.value),
        DraftValue::Array(items) => items.get(crate::pointer::array_index(&token)?),
        _ => None,
    })
}

/// Whether the document under `node` has a `$ref` naming another file (not a URL).
pub(super) fn any(node: &crate::node::Node<'_>) -> bool {
    use crate::node::NodeKind;
    match &node.kind {
        NodeKind::Object(members) => members.iter().any(|m| {
            if m.key.name == "$ref" {
                m.value
                    .as_str()
                    .is_some_and(|t| !t.starts_with('#') && !t.contains("://"))
            } else {
                any(&m.value)
            }
        }),
        NodeKind::Array(items) => items.iter().any(|item| any(&item)),
        _ => false,
    }
}

/// `part` of the file at `path` with its local references (`#/...`) written as references
/// to that file, which the next round follows.
fn as_references_to(mut part: Draft, path: &Path) -> Draft {
    let file = path
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    rewrite(&mut part, &file);
    part
}

fn rewrite(draft: &mut Draft, file: &str) {
    match &mut draft.value {
        DraftValue::Object(members) => {
            for member in members {
                if member.name == "$ref"
                    && let DraftValue::String(text, _) = &mut member.value.value
                    && text.starts_with('#')
                {
                    *text = format!("{file}{text}");
                } else {
                    rewrite(&mut member.value, file);
                }
            }
        }
        DraftValue::Array(items) => items.iter_mut().for_each(|item| rewrite(item, file)),
        _ => {}
    }
}

/// Brings `target` (found at `pointer` of its file) into `draft` for the reference held by
/// the object at `place`.
fn bring(draft: &mut Draft, place: &[Step], pointer: &str, target: Draft) {
    let Some((kind, name)) = component(pointer) else {
        if let Some(holder) = draft.at_mut(place) {
            *holder = target;
        }
        return;
    };
    let Some(local) = place_component(draft, &kind, &name, target) else {
        return;
    };
    let Some(holder) = draft.at_mut(place) else {
        return;
    };
    if let DraftValue::Object(members) = &mut holder.value
        && let Some(reference) = members.iter_mut().find(|m| m.name == "$ref")
        && let DraftValue::String(text, _) = &mut reference.value.value
    {
        *text = local;
    }
}

/// `(kind, name)` of a pointer `/components/<kind>/<name>`.
fn component(pointer: &str) -> Option<(String, String)> {
    let mut tokens = crate::pointer::tokens(pointer)?;
    if tokens.next()? != "components" {
        return None;
    }
    let kind = tokens.next()?.into_owned();
    let name = tokens.next()?.into_owned();
    tokens.next().is_none().then_some((kind, name))
}

/// Puts `target` at `components/<kind>/<name>` of `draft` (the same part already there is
/// kept; another is left alone and the part named `<name>2`, `<name>3`...); its local
/// reference, `None` when the document's `components` is no object.
fn place_component(draft: &mut Draft, kind: &str, name: &str, target: Draft) -> Option<String> {
    let components = member_object(draft, "components", target.span)?;
    let group = member_object(components, kind, target.span)?;
    let DraftValue::Object(members) = &mut group.value else {
        return None;
    };
    let mut chosen = name.to_owned();
    for n in 2.. {
        match members.iter().find(|m| m.name == chosen) {
            None => {
                members.push(DraftMember {
                    name: chosen.clone(),
                    key_span: target.span,
                    value: target,
                });
                break;
            }
            Some(existing) if existing.value.span == target.span => break,
            Some(_) => chosen = format!("{name}{n}"),
        }
    }
    let mut pointer = String::from("#/components");
    crate::pointer::push(&mut pointer, kind);
    crate::pointer::push(&mut pointer, &chosen);
    Some(pointer)
}

/// The object member `name` of `draft`, added empty at `span` when missing; `None` when
/// `draft` is no object.
fn member_object<'d>(draft: &'d mut Draft, name: &str, span: crate::Span) -> Option<&'d mut Draft> {
    let DraftValue::Object(members) = &mut draft.value else {
        return None;
    };
    let at = if let Some(at) = members.iter().position(|m| m.name == name) {
        at
    } else {
        members.push(DraftMember {
            name: name.to_owned(),
            key_span: span,
            value: Draft {
                span,
                value: DraftValue::Object(Vec::new()),
            },
        });
        members.len() - 1
    };
    Some(&mut members[at].value)
}
