//! `InvalidServerVariable`: a server variable's `default` is not one of its `enum` values.

use syncdef_definitions::Node;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Checks each variable of `servers[].variables`: its `default` must be one of its `enum`
    /// values when it has an `enum` (OpenAPI 3.0.3, Server Variable Object), and an `enum`
    /// must list at least one value. It checks documents without a `synchronization` section
    /// too: they are still OpenAPI documents.
    ///
    /// ## Why is this bad?
    /// The engine fills the server URL with the default unless an instance sets the variable,
    /// and refuses a value outside the `enum`: every push of an instance that keeps the default
    /// fails.
    ///
    /// ## Example
    /// ```yaml
    /// servers:
    ///   - url: https://{environment}.api.intuit.com/v3/company/{realmId}
    ///     variables:
    ///       environment:
    ///         default: sandbox-quickbook
    ///         enum: [sandbox-quickbooks, quickbooks]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    ///       environment:
    ///         default: sandbox-quickbooks
    ///         enum: [sandbox-quickbooks, quickbooks]
    /// ```
    pub struct InvalidServerVariable {
        title: "a server variable's `default` is not one of its `enum` values",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let servers = ctx.doc.root().get("servers").and_then(Node::as_array);
    for (i, server) in servers.unwrap_or_default().iter().enumerate() {
        let variables = server.get("variables").and_then(Node::as_object);
        for variable in variables.unwrap_or_default() {
            let name = &variable.key.name;
            let Some(allowed) = variable.value.get("enum").and_then(Node::as_array) else {
                continue;
            };
            let values: Vec<&str> = allowed.iter().filter_map(Node::as_str).collect();
            let pointer = format!("/servers/{i}/variables/{}/enum", escape(name));
            if values.is_empty() {
                let d = sink
                    .diagnostic(
                        Rule::InvalidServerVariable,
                        variable
                            .value
                            .get("enum")
                            .map_or(variable.key.span, |e| e.span),
                        format!(
                            "server variable `{name}` has an empty `enum`: no value is allowed"
                        ),
                    )
                    .with_pointer(pointer)
                    .with_help("list the values the variable may take, or remove `enum`");
                sink.push(d);
                continue;
            }
            let Some(default) = variable.value.get("default") else {
                continue;
            };
            let Some(text) = default.as_str() else {
                continue;
            };
            if values.contains(&text) {
                continue;
            }
            let help = hint(text, values.iter().copied()).unwrap_or_else(|| {
                format!(
                    "use one of {}",
                    values
                        .iter()
                        .map(|v| format!("`{v}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
            let d = sink
                .diagnostic(
                    Rule::InvalidServerVariable,
                    default.span,
                    format!("the default `{text}` of server variable `{name}` is not one of its `enum` values, so every push that keeps it fails"),
                )
                .with_pointer(format!("/servers/{i}/variables/{}/default", escape(name)))
                .with_help(help);
            sink.push(d);
        }
    }
}

/// `name` as a JSON pointer token.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
