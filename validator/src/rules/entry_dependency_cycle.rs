//! `EntryDependencyCycle`: entries synchronize each other in a cycle.

use syncdef_definitions::Span;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports entries whose `ApiSynchronization` pre-actions form a cycle (`Invoice` synchronizes
    /// `Customer` first, and `Customer` synchronizes `Invoice` first). Each entry of the cycle is
    /// labelled.
///
    /// ## Why is this bad?
    /// Pre-synchronization means "push that one before this one"; in a cycle no entry can go first
    /// and the push never ends or fails on every record.
///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   push:
    ///     preSynchronizationAction:
    ///       Invoices: {type: ApiSynchronization, path: Invoice}
    /// Invoice:
    ///   push:
    ///     preSynchronizationAction:
    ///       Customer: {type: ApiSynchronization, path: Customer}
    /// ```
///
    /// ## Use instead
    /// Keep the dependency in one direction; synchronize invoices after the customer with a
    /// post-synchronization action if needed:
    ///
    /// ```yaml
    /// Customer:
    ///   push:
    ///     postSynchronizationAction:
    ///       Invoices: {type: ApiSynchronization, path: Invoice}
    /// Invoice:
    ///   push:
    ///     preSynchronizationAction:
    ///       Customer: {type: ApiSynchronization, path: Customer}
    /// ```
    pub struct EntryDependencyCycle {
        title: "entries synchronize each other in a cycle",
        severity: Error,
    }
}

/// One "must be pushed before" edge, and the action that creates it.
struct Edge {
    before: usize,
    after: usize,
    span: Span,
    pointer: String,
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let index = |name: &str| ctx.entries.iter().position(|e| e.name() == name);
    let mut edges = Vec::new();
    for (i, info) in ctx.entries.iter().enumerate() {
        for (pre, action) in info.actions() {
            let Some(path) = action.synchronized() else {
                continue;
            };
            let Some(j) = index(path.as_str()) else {
                continue;
            };
            // A pre-action pushes the other entry first; a post-action pushes it after.
            let (before, after) = if pre { (j, i) } else { (i, j) };
            edges.push(Edge {
                before,
                after,
                span: path.span,
                pointer: format!("{}/path", action.pointer),
            });
        }
    }
    let mut reported = vec![false; ctx.entries.len()];
    for start in 0..ctx.entries.len() {
        if reported[start] {
            continue;
        }
        let Some(cycle) = find_cycle(start, &edges) else {
            continue;
        };
        for &e in &cycle {
            reported[edges[e].after] = true;
        }
        let names: Vec<&str> = cycle
            .iter()
            .map(|&e| ctx.entries[edges[e].before].name())
            .collect();
        let first = &edges[cycle[0]];
        let mut d = sink
            .diagnostic(
                Rule::EntryDependencyCycle,
                first.span,
                format!("entries synchronize each other in a cycle: {} -> {}", names.join(" -> "), names[0]),
            )
            .with_pointer(first.pointer.clone())
            .with_help("keep dependencies in one direction: push the parent first (a pre-action on the child) and drop the reverse action");
        for &e in &cycle[1..] {
            d = d.with_label(edges[e].span, "continues the cycle");
        }
        sink.push(d);
    }
}

/// Edges of a cycle through entry `start`, if there is one (depth-first, entries are few).
fn find_cycle(start: usize, edges: &[Edge]) -> Option<Vec<usize>> {
    fn dfs(
        node: usize,
        start: usize,
        edges: &[Edge],
        path: &mut Vec<usize>,
        seen: &mut Vec<usize>,
    ) -> bool {
        for (i, e) in edges.iter().enumerate().filter(|(_, e)| e.before == node) {
            path.push(i);
            if e.after == start {
                return true;
            }
            if !seen.contains(&e.after) {
                seen.push(e.after);
                if dfs(e.after, start, edges, path, seen) {
                    return true;
                }
            }
            path.pop();
        }
        false
    }
    let mut path = Vec::new();
    dfs(start, start, edges, &mut path, &mut vec![start]).then_some(path)
}
