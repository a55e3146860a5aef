//! `DuplicateOperationId`: two operations have the same `operationId`.

use std::collections::HashMap;

use syncdef_definitions::Span;

use crate::codes::Rule;
use crate::context::{Context, Operation, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports every operation whose `operationId` an earlier operation of the document
    /// already has, pointing at the first one.
    ///
    /// ## Why is this bad?
    /// OpenAPI says an `operationId` MUST be unique among all operations: tools name methods
    /// and links after it. A generated client gets two methods of one name (it does not
    /// compile, or one silently replaces the other), and a link by `operationId` reaches
    /// whichever operation the tool finds first.
    ///
    /// ## Example
    /// ```yaml
    /// paths:
    ///   /customers:
    ///     get: {operationId: getCustomer}
    ///   /customers/{id}:
    ///     get: {operationId: getCustomer}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// paths:
    ///   /customers:
    ///     get: {operationId: listCustomers}
    ///   /customers/{id}:
    ///     get: {operationId: getCustomer}
    /// ```
    pub struct DuplicateOperationId {
        title: "two operations have the same `operationId`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    // Grown as ids turn up rather than sized for every operation: a description whose
    // operations have no ids (200,000 generated paths) held 8 MiB of empty table at its peak.
    let mut first: HashMap<&str, (Span, Operation<'_>)> = HashMap::new();
    // The method and path of an operation, written only for the ones reported.
    let name = |operation: &Operation<'_>| {
        format!("{} {}", operation.method.as_upper_str(), operation.template)
    };
    for operation in ctx.openapi.operations() {
        let Some(node) = operation.node.get("operationId") else {
            continue;
        };
        let Some(id) = node.as_str() else { continue };
        let Some(&(span, there)) = first.get(id) else {
            first.insert(id, (node.span, operation));
            continue;
        };
        let d = sink
            .diagnostic(
                Rule::DuplicateOperationId,
                node.span,
                format!(
                    "`operationId: {id}` of `{}` is already the id of `{}`",
                    name(&operation),
                    name(&there)
                ),
            )
            .with_pointer(format!("{}/operationId", operation.pointer()))
            .with_span_label("the second use")
            .with_label(span, "first used here")
            .with_help("give each operation its own `operationId`");
        sink.push(d);
    }
}
