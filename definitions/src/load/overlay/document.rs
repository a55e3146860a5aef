//! Reading an overlay document: its `extends` and its actions, with a problem for each part
//! that is not what Overlay 1.0 says (the actions that are well formed still run).

use crate::model::{LoadProblem, ProblemKind};
use crate::node::{Node, NodeKind};
use crate::source::Span;

/// The version of the Overlay specification read.
const VERSION: &str = "1.0.0";

/// An overlay, read.
pub(crate) struct Overlay<'t> {
    /// The `overlay` key, where a problem of the whole overlay is shown.
    pub key: Span,
    /// The `extends` value.
    pub extends: Option<Node<'t>>,
    pub actions: Vec<Action<'t>>,
}

/// One action, read.
pub(crate) struct Action<'t> {
    /// Its position in `actions`.
    pub index: usize,
    pub target: Node<'t>,
    pub change: Change<'t>,
}

/// What an action does to what its target selects.
pub(crate) enum Change<'t> {
    Update(Node<'t>),
    Remove,
}

impl Action<'_> {
    /// JSON pointer of the action's `member` (or of the action for `""`).
    pub fn pointer(&self, member: &str) -> String {
        if member.is_empty() {
            format!("/actions/{}", self.index)
        } else {
            format!("/actions/{}/{member}", self.index)
        }
    }
}

/// Reads the overlay whose root is `root` (an object with an `overlay` member); problems are
/// pushed with their spans moved by `base`, the overlay's place in the joined source.
pub(crate) fn read<'t>(root: Node<'t>, base: u32, problems: &mut Vec<LoadProblem>) -> Overlay<'t> {
    let at = |span: Span| Span::new(span.start + base, span.end + base);
    let mut report = |span: Span, pointer: &str, message: String, help: &str| {
        problems
            .push(LoadProblem::new(ProblemKind::Overlay, at(span), pointer, message).help(help));
    };
    let key = root.member("overlay").map_or(root.span, |m| m.key.span);
    match root.get("overlay") {
        Some(version) if version.as_str() == Some(VERSION) => {}
        Some(version) => report(
            version.span,
            "/overlay",
            format!(
                "`overlay` is {}; the version read is `{VERSION}`",
                shown(version)
            ),
            "write `overlay: 1.0.0` (OpenAPI Overlay 1.0)",
        ),
        None => {}
    }
    check_info(root, &mut report);
    let actions = match root.get("actions") {
        None => {
            report(
                key,
                "",
                "the overlay has no `actions`".into(),
                "add `actions:`, a list of `{target, update}` or `{target, remove: true}`",
            );
            Vec::new()
        }
        Some(list) => {
            if let Some(items) = list.as_array() {
                items
                    .iter()
                    .enumerate()
                    .filter_map(|(index, node)| action(index, node, &mut report))
                    .collect()
            } else {
                report(
                    list.span,
                    "/actions",
                    format!("`actions` is {}, not a list", shown(list)),
                    "write `actions:` as a list of `{target, update}` or `{target, remove: true}`",
                );
                Vec::new()
            }
        }
    };
    Overlay {
        key: at(key),
        extends: root.get("extends"),
        actions,
    }
}

/// `info` must name the overlay: a `title` and a `version`.
fn check_info(root: Node<'_>, report: &mut impl FnMut(Span, &str, String, &str)) {
    let Some(info) = root.get("info") else {
        let key = root.member("overlay").map_or(root.span, |m| m.key.span);
        report(
            key,
            "",
            "the overlay has no `info`".into(),
            "add `info: {title: ..., version: ...}` naming the overlay",
        );
        return;
    };
    for field in ["title", "version"] {
        if info.get(field).and_then(Node::as_str).is_none() {
            report(
                info.span,
                "/info",
                format!("`info` has no `{field}` text"),
                "add `info: {title: ..., version: ...}` naming the overlay",
            );
        }
    }
}

/// One action, or `None` (after a problem) when it cannot run.
fn action<'t>(
    index: usize,
    node: Node<'t>,
    report: &mut impl FnMut(Span, &str, String, &str),
) -> Option<Action<'t>> {
    let pointer = format!("/actions/{index}");
    if !matches!(node.kind, NodeKind::Object(_)) {
        report(
            node.span,
            &pointer,
            format!("action {index} is {}, not an object", shown(node)),
            "write an action as `{target: $.path, update: {...}}` or `{target: $.path, remove: true}`",
        );
        return None;
    }
    let Some(target) = node.get("target") else {
        report(
            node.span,
            &pointer,
            format!("action {index} has no `target`"),
            "add `target:`, a JSONPath selecting what the action changes, such as `$.paths['/customer'].post`",
        );
        return None;
    };
    if target.as_str().is_none() {
        report(
            target.span,
            &format!("{pointer}/target"),
            format!("`target` is {}, not a JSONPath text", shown(target)),
            "write the target as a JSONPath text, such as `$.info`",
        );
        return None;
    }
    let remove = node.get("remove");
    let change = match (node.get("update"), remove) {
        (Some(_), Some(remove)) if remove.as_bool() == Some(true) => {
            report(
                node.span,
                &pointer,
                format!("action {index} both updates and removes its target"),
                "split it into two actions: one with `update`, one with `remove: true`",
            );
            return None;
        }
        (Some(update), Some(remove)) if remove.as_bool() == Some(false) => Change::Update(update),
        (Some(update), None) => Change::Update(update),
        (_, Some(remove)) if remove.as_bool().is_none() => {
            report(
                remove.span,
                &format!("{pointer}/remove"),
                format!("`remove` is {}, not a boolean", shown(remove)),
                "write `remove: true` to remove what the target selects",
            );
            return None;
        }
        (None, Some(remove)) if remove.as_bool() == Some(true) => Change::Remove,
        _ => {
            report(
                node.span,
                &pointer,
                format!("action {index} neither updates nor removes its target"),
                "add `update:` (merged into what the target selects) or `remove: true`",
            );
            return None;
        }
    };
    Some(Action {
        index,
        target,
        change,
    })
}

/// How a value is named in a message: its text for a short scalar, else its kind.
pub(crate) fn shown(node: Node<'_>) -> String {
    match node.kind {
        NodeKind::String(s) if s.value.len() <= 40 => format!("`{}`", s.value),
        NodeKind::Number(n) => format!("`{}`", n.text),
        NodeKind::Bool(b) => format!("`{b}`"),
        _ => with_article(node.type_name()),
    }
}

/// `an object`, `a string`.
pub(crate) fn with_article(kind: &str) -> String {
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {kind}")
}
