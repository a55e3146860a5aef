//! `x-syncdef-ignore` in the definition: which codes each one names, which findings they
//! silence, and which codes silenced nothing.

use std::collections::HashSet;
use std::sync::Arc;

use syncdef_definitions::ignore::InlineIgnore;
use syncdef_definitions::{Definition, Node, NodeKind, Span};

use crate::codes::Rule;
use crate::context::Sink;
use crate::diagnostic::Diagnostic;
use crate::rules::{invalid_suppression, unused_suppression};

/// One code of one `x-syncdef-ignore`.
struct Item<'d> {
    rule: Rule,
    /// The object holding the key: the code is silenced there and beneath.
    pointer: &'d str,
    /// The code as written, where an unused code is reported.
    span: Span,
}

/// Moves the findings an `x-syncdef-ignore` of `def` covers out of `diagnostics`, and reports
/// through `sink` the codes that covered nothing (SD115) and what names no rule (SD116).
///
/// Returns the findings to report, the reports of `sink` included, and the suppressed ones.
pub(crate) fn apply(
    def: &Definition,
    diagnostics: Vec<Diagnostic>,
    mut sink: Sink<'_>,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    if def.ignores.is_empty() {
        return (diagnostics, Vec::new());
    }
    let items = read(&def.ignores, &mut sink);
    let mut used = vec![false; items.len()];
    let (mut kept, suppressed) = super::split(diagnostics, &mut used, |d, used| {
        let mut matched = false;
        for (i, item) in items.iter().enumerate() {
            if item.rule == d.rule
                && d.pointer
                    .as_deref()
                    .is_some_and(|at| super::is_at_or_beneath(at, item.pointer))
            {
                used[i] = true;
                matched = true;
            }
        }
        matched
    });
    report_unused(&items, &used, &mut sink, &def.source);
    kept.append(&mut sink.diagnostics);
    (kept, suppressed)
}

/// Reports each code that silenced nothing, once per place written: a YAML alias copies an
/// `x-syncdef-ignore` to several nodes, and a code used at any of them is used.
fn report_unused(
    items: &[Item<'_>],
    used: &[bool],
    sink: &mut Sink<'_>,
    file: &Arc<syncdef_definitions::SourceFile>,
) {
    let used_at: HashSet<(u32, Rule)> = items
        .iter()
        .zip(used)
        .filter(|(_, used)| **used)
        .map(|(item, _)| (item.span.start, item.rule))
        .collect();
    let mut reported = HashSet::new();
    for item in items {
        let key = (item.span.start, item.rule);
        // A rule that is off did not run: whether the code would match is unknown.
        if used_at.contains(&key) || !sink.enabled(item.rule) || !reported.insert(key) {
            continue;
        }
        sink.push(unused_suppression::inline(
            Arc::clone(file),
            item.span,
            item.rule,
            item.pointer,
        ));
    }
}

/// The codes of every `x-syncdef-ignore`; what is not a rule code is reported through `sink`,
/// once per place written.
fn read<'d>(ignores: &'d [InlineIgnore], sink: &mut Sink<'_>) -> Vec<Item<'d>> {
    let mut items = Vec::new();
    let mut seen = HashSet::new();
    for ignore in ignores {
        let first = seen.insert(ignore.key_span.start);
        let mut code = |node: &Node, sink: &mut Sink<'_>| match code_of(node) {
            Ok(rule) => items.push(Item {
                rule,
                pointer: &ignore.pointer,
                span: node.span,
            }),
            Err(problem) if first => sink.push(problem(sink, &ignore.pointer, node)),
            Err(_) => {}
        };
        let value = ignore.value();
        match value.kind {
            NodeKind::Array(list) => list.iter().for_each(|node| code(&node, sink)),
            _ => code(&value, sink),
        }
    }
    items
}

/// Builds the report of a value that names no rule.
type Problem = fn(&Sink<'_>, &str, &Node) -> Diagnostic;

/// The rule a node names, or how to report it.
fn code_of(node: &Node) -> Result<Rule, Problem> {
    let Some(code) = node.as_str() else {
        return Err(not_a_code);
    };
    Rule::from_code(code).ok_or(unknown_code)
}

fn not_a_code(sink: &Sink<'_>, pointer: &str, node: &Node) -> Diagnostic {
    let kind = node.type_name();
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    invalid_suppression::not_a_code(
        sink.file(),
        node.span,
        ignore_pointer(pointer),
        &format!("{article} {kind}"),
    )
}

fn unknown_code(sink: &Sink<'_>, pointer: &str, node: &Node) -> Diagnostic {
    invalid_suppression::unknown_code(
        sink.file(),
        node.span,
        ignore_pointer(pointer),
        node.as_str().unwrap_or_default(),
    )
}

/// The pointer of the `x-syncdef-ignore` member of the object at `pointer`.
fn ignore_pointer(pointer: &str) -> String {
    let mut p = pointer.to_owned();
    syncdef_definitions::pointer::push(&mut p, syncdef_definitions::ignore::IGNORE_KEY);
    p
}
