//! Builds the [`Synchronization`] model from the node tree, collecting every structural
//! problem instead of stopping at the first.

use crate::members::Members;
use crate::node::{Member, Node, NodeKind};
use crate::operation_ref::OperationRef;
use crate::pointer;
use crate::tree::Tree;

use super::keys::{self, ACTION_KEYS, ENTRY_KEYS, PULL_KEYS, PUSH_KEYS};
use super::problem::{LoadProblem, ProblemKind};
use super::spanned::{Spanned, Text};
use super::sync::{
    Action, ActionIn, ActionSchema, ActionType, MethodCommon, OperationField, Pull, Push,
    SchemaField, SyncEntry, Synchronization, TemplateBody, TemplateSource, UnknownField,
};

/// The keys the section may be written under, in order of preference.
pub(crate) const SYNC_KEYS: [&str; 2] = ["synchronization", "x-synchronization"];

/// Reads the synchronization section of `root`, if any, and the problems found in it.
pub(crate) fn build_sync(
    tree: &Tree,
    root: Node<'_>,
) -> (Option<Synchronization>, Vec<LoadProblem>) {
    let mut b = Builder {
        tree,
        problems: Vec::new(),
    };
    let found: Vec<Member<'_>> = root
        .as_object()
        .unwrap_or_default()
        .iter()
        .filter(|m| SYNC_KEYS.contains(&m.key.name))
        .collect();
    let Some(first) = found.first() else {
        return (None, b.problems);
    };
    if let Some(second) = found.get(1) {
        let mut p = LoadProblem::new(
            ProblemKind::ConflictingSyncKeys,
            second.key.span,
            pointer::join([second.key.name]),
            "both `synchronization` and `x-synchronization` are present",
        )
        .help("keep one of the two keys; syncdef reads the first and ignores this one");
        p.related
            .push((first.key.span, "the section that is used".into()));
        b.problems.push(p);
    }
    let sync = b.section(first);
    (sync, b.problems)
}

struct Builder<'d> {
    /// The document's tree, which templates are copied out of.
    tree: &'d Tree,
    problems: Vec<LoadProblem>,
}

/// A `Text` for a key.
/// The key `f` is read as in `object`: itself, or the defined key it is a near miss of.
fn key_as<'m>(
    f: Member<'m>,
    known: &[&'static str],
    object: &Node,
) -> (&'m str, Option<&'static str>) {
    match keys::near_miss(f.key.name, known, |k| object.get(k).is_some()) {
        Some(meant) => (meant, Some(meant)),
        None => (f.key.name, None),
    }
}

/// The record of a key the format does not define (`meant`: the key it was read as).
fn unknown(f: &Member, pointer: String, meant: Option<&'static str>) -> UnknownField {
    UnknownField {
        key: key_text(f),
        pointer,
        meant,
    }
}

fn key_text(m: &Member) -> Text {
    Text {
        value: m.key.name.to_string(),
        span: m.key.span,
        style: crate::node::ScalarStyle::Plain,
    }
}

fn child(ptr: &str, key: &str) -> String {
    let mut p = ptr.to_owned();
    pointer::push(&mut p, key);
    p
}

impl Builder<'_> {
    fn wrong_type(&mut self, node: &Node, ptr: &str, expected: &str, what: &str) {
        self.problems.push(
            LoadProblem::new(
                ProblemKind::WrongType,
                node.span,
                ptr,
                format!(
                    "{what} must be {expected}, found {} {}",
                    article(node.type_name()),
                    node.type_name()
                ),
            )
            .help(format!("write {what} as {expected}")),
        );
    }

    fn object<'n>(&mut self, node: Node<'n>, ptr: &str, what: &str) -> Option<Members<'n>> {
        let members = node.as_object();
        if members.is_none() {
            self.wrong_type(&node, ptr, "an object", what);
        }
        members
    }

    fn text(&mut self, node: &Node, ptr: &str, what: &str) -> Option<Text> {
        let text = Text::from_node(node);
        if text.is_none() {
            self.wrong_type(node, ptr, "a string", what);
        }
        text
    }

    fn missing(&mut self, at: &Member, ptr: &str, field: &str, help: &str) {
        self.problems.push(
            LoadProblem::new(
                ProblemKind::MissingField,
                at.key.span,
                ptr,
                format!("`{}` has no {field}", at.key.name),
            )
            .help(help),
        );
    }

    fn section(&mut self, m: &Member) -> Option<Synchronization> {
        let ptr = child("", m.key.name);
        let members = self.object(m.value, &ptr, "the synchronization section")?;
        let entries = members
            .iter()
            .filter_map(|e| self.entry(&e, &child(&ptr, e.key.name)))
            .collect();
        Some(Synchronization {
            key: key_text(m),
            span: m.value.span,
            pointer: ptr,
            entries,
        })
    }

    fn entry(&mut self, m: &Member, ptr: &str) -> Option<SyncEntry> {
        let what = format!("the entry `{}`", m.key.name);
        let members = self.object(m.value, ptr, &what)?;
        let mut entry = SyncEntry {
            key: key_text(m),
            span: m.value.span,
            pointer: ptr.to_owned(),
            description: None,
            module: None,
            push: None,
            pull: None,
            unknown: Vec::new(),
        };
        for f in members {
            let p = child(ptr, f.key.name);
            let (name, meant) = key_as(f, ENTRY_KEYS, &m.value);
            if meant.is_some() {
                entry.unknown.push(unknown(&f, p.clone(), meant));
            }
            match name {
                "description" => entry.description = self.text(&f.value, &p, "`description`"),
                "module" => entry.module = self.text(&f.value, &p, "`module`"),
                "push" => entry.push = self.push(&f.value, &p),
                "pull" => entry.pull = self.pull(&f.value, &p),
                _ => entry.unknown.push(unknown(&f, p, None)),
            }
        }
        // A near miss was read as the key it means: reported as misspelt, not as missing.
        let has = |key: &str| {
            m.value.get(key).is_some() || entry.unknown.iter().any(|u| u.meant == Some(key))
        };
        if !has("module") {
            self.missing(
                m,
                ptr,
                "`module`",
                "add `module:` naming the platform module, e.g. `module: Accounts`",
            );
        }
        if !has("push") && !has("pull") {
            self.missing(
                m,
                ptr,
                "`push` or `pull`",
                "add `push:` (or `pull:`) with the operations to run",
            );
        }
        Some(entry)
    }

    fn push(&mut self, node: &Node, ptr: &str) -> Option<Push> {
        let members = self.object(*node, ptr, "`push`")?;
        let mut push = Push {
            span: node.span,
            pointer: ptr.to_owned(),
            create: None,
            update: None,
            delete: None,
            common: MethodCommon::default(),
        };
        for f in members {
            let p = child(ptr, f.key.name);
            let (name, meant) = key_as(f, PUSH_KEYS, node);
            if meant.is_some() {
                push.common.unknown.push(unknown(&f, p.clone(), meant));
            }
            match name {
                "create" => push.create = self.operation(&f, p),
                "update" => push.update = self.operation(&f, p),
                "delete" => push.delete = self.operation(&f, p),
                _ => self.common(name, &f, p, &mut push.common),
            }
        }
        Some(push)
    }

    fn pull(&mut self, node: &Node, ptr: &str) -> Option<Pull> {
        let members = self.object(*node, ptr, "`pull`")?;
        let mut pull = Pull {
            span: node.span,
            pointer: ptr.to_owned(),
            read: None,
            batch_read: None,
            common: MethodCommon::default(),
        };
        for f in members {
            let p = child(ptr, f.key.name);
            let (name, meant) = key_as(f, PULL_KEYS, node);
            if meant.is_some() {
                pull.common.unknown.push(unknown(&f, p.clone(), meant));
            }
            match name {
                "read" => pull.read = self.operation(&f, p),
                "batchRead" => pull.batch_read = self.operation(&f, p),
                _ => self.common(name, &f, p, &mut pull.common),
            }
        }
        Some(pull)
    }

    /// A key common to `push` and `pull`, read as `name`.
    fn common(&mut self, name: &str, f: &Member, p: String, common: &mut MethodCommon) {
        match name {
            "preSynchronizationAction" => {
                common.pre_actions = self.actions(&f.value, &p, "`preSynchronizationAction`");
            }
            "postSynchronizationAction" => {
                common.post_actions = self.actions(&f.value, &p, "`postSynchronizationAction`");
            }
            "schemasTransformer" => {
                common.templates_span = Some(f.value.span);
                common.templates = self.templates(&f.value, &p);
            }
            // The vendor's format names `statements` beside actions without saying what they
            // do; they are accepted and not executed (docs/engine.md).
            "statements" => {}
            _ => common.unknown.push(unknown(f, p, None)),
        }
    }

    fn operation(&mut self, f: &Member, ptr: String) -> Option<OperationField> {
        let what = format!("`{}`", f.key.name);
        let text = self.text(&f.value, &ptr, &what)?;
        let parsed = OperationRef::parse(&text.value);
        Some(OperationField {
            name: key_text(f),
            text,
            pointer: ptr,
            parsed,
        })
    }

    fn actions(&mut self, node: &Node, ptr: &str, what: &str) -> Vec<Action> {
        let Some(members) = self.object(*node, ptr, what) else {
            return Vec::new();
        };
        members
            .iter()
            .filter_map(|m| self.action(&m, &child(ptr, m.key.name)))
            .collect()
    }

    fn action(&mut self, m: &Member, ptr: &str) -> Option<Action> {
        let members = self.object(m.value, ptr, &format!("the action `{}`", m.key.name))?;
        let mut action = Action {
            name: key_text(m),
            span: m.value.span,
            pointer: ptr.to_owned(),
            kind: None,
            path: None,
            path_ref: None,
            schema: None,
            placement: None,
            unknown: Vec::new(),
        };
        for f in members {
            let p = child(ptr, f.key.name);
            let (name, meant) = key_as(f, ACTION_KEYS, &m.value);
            if meant.is_some() {
                action.unknown.push(unknown(&f, p.clone(), meant));
            }
            match name {
                "type" => {
                    action.kind = self.text(&f.value, &p, "`type`").map(|t| {
                        let kind = match t.as_str() {
                            "ApiPath" => ActionType::ApiPath,
                            "ApiSynchronization" => ActionType::ApiSynchronization,
                            other => ActionType::Unknown(other.to_owned()),
                        };
                        Spanned::new(kind, t.span)
                    });
                }
                "path" => action.path = self.text(&f.value, &p, "`path`"),
                "schema" => action.schema = self.schema(&f.value, &p),
                "in" => {
                    action.placement = self.text(&f.value, &p, "`in`").map(|t| {
                        let placement = match t.as_str() {
                            "Body" => ActionIn::Body,
                            "Header" => ActionIn::Header,
                            other => ActionIn::Unknown(other.to_owned()),
                        };
                        Spanned::new(placement, t.span)
                    });
                }
                _ => action.unknown.push(unknown(&f, p, None)),
            }
        }
        let has = |key: &str| {
            m.value.get(key).is_some() || action.unknown.iter().any(|u| u.meant == Some(key))
        };
        if !has("type") {
            self.missing(m, ptr, "`type`", "add `type: ApiPath` (call an external path) or `type: ApiSynchronization` (synchronize another entry first)");
        }
        // Without a path the action can do nothing: the engine refuses to load it.
        if !has("path") {
            self.missing(m, ptr, "`path`", "add `path:`: the operation an `ApiPath` action calls (`/customer/{IntegrationId}/get`), or the entry an `ApiSynchronization` action pushes (`Account`)");
        }
        if matches!(
            action.kind,
            Some(Spanned {
                value: ActionType::ApiPath,
                ..
            })
        ) {
            action.path_ref = action.path.as_ref().map(|p| OperationRef::parse(&p.value));
        }
        Some(action)
    }

    fn schema(&mut self, node: &Node, ptr: &str) -> Option<ActionSchema> {
        let members = self.object(*node, ptr, "`schema`")?;
        let mut schema = ActionSchema {
            span: node.span,
            pointer: ptr.to_owned(),
            kind: None,
            header: None,
            header_value: None,
            fields: Vec::new(),
        };
        for f in members {
            let p = child(ptr, f.key.name);
            let what = format!("`{}`", f.key.name);
            let Some(text) = self.text(&f.value, &p, &what) else {
                continue;
            };
            match f.key.name {
                "type" => schema.kind = Some(text),
                "header" => schema.header = Some(text),
                "headerValue" => schema.header_value = Some(text),
                _ => schema.fields.push(SchemaField {
                    name: key_text(&f),
                    source: text,
                }),
            }
        }
        Some(schema)
    }

    fn templates(&mut self, node: &Node, ptr: &str) -> Vec<TemplateSource> {
        let Some(members) = self.object(*node, ptr, "`schemasTransformer`") else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(members.len());
        for m in members {
            let p = child(ptr, m.key.name);
            let body = match &m.value.kind {
                NodeKind::String(_) => Text::from_node(&m.value).map(TemplateBody::JsonText),
                NodeKind::Object(_) | NodeKind::Array(_) => {
                    Some(TemplateBody::Node(self.tree.copy(&m.value)))
                }
                _ => {
                    self.wrong_type(
                        &m.value,
                        &p,
                        "an object or a string of JSON text",
                        &format!("the template `{}`", m.key.name),
                    );
                    None
                }
            };
            if let Some(body) = body {
                out.push(TemplateSource {
                    name: key_text(&m),
                    pointer: p,
                    body,
                });
            }
        }
        out
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
