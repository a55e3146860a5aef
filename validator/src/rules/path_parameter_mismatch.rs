//! `PathParameterMismatch`: the `{name}`s of a `paths` key and its `in: path` parameters differ.

use syncdef_definitions::pointer;
use syncdef_definitions::{Node, Span};

use crate::codes::Rule;
use crate::context::{Context, PathEntry, Sink};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;
use crate::typecheck::openapi::resolve;

declare_rule! {
    /// ## What it does
    /// Reports a `{name}` of a `paths` key that no operation of the path declares as an
    /// `in: path` parameter (at the path item or at the operation), and an `in: path` parameter
    /// whose name is not in the path template, with the name meant when it is a near miss
    /// (`customerID` for `{customerId}`).
    ///
    /// A `{name}` that is a declared server variable (`servers[].variables`) is filled from it
    /// by the platform and needs no parameter.
    ///
    /// This is about the OpenAPI document; SD303 is about an operation reference of the
    /// `synchronization` section that leaves a parameter unfilled: fixing one never fixes the
    /// other, so both can fire on one path.
    ///
    /// ## Why is this bad?
    /// OpenAPI says every template expression MUST correspond to a path parameter and a path
    /// parameter MUST be in the template. Code generators, mock servers and validators refuse
    /// the document or build requests without the value, and a parameter whose name differs
    /// from the template's by one letter is never substituted.
    ///
    /// ## Example
    /// ```yaml
    /// paths:
    ///   /customers/{customerId}:
    ///     get:
    ///       parameters:
    ///         - {name: customerID, in: path, required: true, schema: {type: string}}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    ///         - {name: customerId, in: path, required: true, schema: {type: string}}
    /// ```
    pub struct PathParameterMismatch {
        title: "a `{name}` of a path and its `in: path` parameters differ",
        severity: Error,
    }
}

/// A declared `in: path` parameter: its name and where it is written.
struct Declared<'a> {
    name: &'a str,
    /// The `name` value, or the `$ref` for a referenced parameter.
    span: Span,
    /// The method whose `parameters` list holds it; `None` for the path's own list.
    method: Option<&'a str>,
    index: usize,
    referenced: bool,
}

impl Declared<'_> {
    /// Its JSON pointer, built only for a parameter that is reported.
    fn pointer(&self, template: &str) -> String {
        let method = self.method.map(|m| format!("/{m}")).unwrap_or_default();
        let field = if self.referenced { "$ref" } else { "name" };
        format!(
            "/paths/{}{method}/parameters/{}/{field}",
            pointer::escape(template),
            self.index
        )
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for entry in ctx.paths.entries() {
        if !entry.template.starts_with('/') {
            continue;
        }
        let template = template_parameters(entry.template);
        let shared = declared(ctx, entry.item.get("parameters"), None);
        let mut scopes = vec![(None, shared)];
        for method in entry.methods() {
            let Some((operation, key)) = entry.operation(method) else {
                continue;
            };
            let list = operation.get("parameters");
            let method = method.as_str();
            scopes.push((Some((method, key)), declared(ctx, list, Some(method))));
        }
        let misnamed = report_unknown(sink, &entry, &template, &scopes);
        report_undeclared(ctx, sink, &entry, &template, &scopes, &misnamed);
    }
}

/// The `{name}`s of a template, in order, as the engine reads them (a `{` without a `}` in
/// its segment is literal text).
fn template_parameters(template: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for segment in template.split('/') {
        let mut rest = segment;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            names.push(&rest[open + 1..open + close]);
            rest = &rest[open + close + 1..];
        }
    }
    names
}

/// The `in: path` parameters of a `parameters` list, `$ref`s followed.
fn declared<'a>(
    ctx: &Context<'a>,
    list: Option<Node<'a>>,
    method: Option<&'a str>,
) -> Vec<Declared<'a>> {
    let root = &ctx.doc.root();
    let items = list.and_then(Node::as_array).unwrap_or_default();
    let mut found = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(parameter) = resolve(*root, Some(item)) else {
            continue;
        };
        if parameter.get("in").and_then(Node::as_str) != Some("path") {
            continue;
        }
        let Some(name_node) = parameter.get("name") else {
            continue;
        };
        let Some(name) = name_node.as_str() else {
            continue;
        };
        let reference = item.get("$ref");
        found.push(Declared {
            name,
            span: reference.map_or(name_node.span, |r| r.span),
            method,
            index: i,
            referenced: reference.is_some(),
        });
    }
    found
}

type Scope<'a> = (Option<(&'a str, Span)>, Vec<Declared<'a>>);

/// Reports declared parameters the template lacks; returns the template names they are
/// near misses of (reported here, so not again as undeclared).
fn report_unknown<'a>(
    sink: &mut Sink,
    entry: &PathEntry<'a>,
    template: &[&'a str],
    scopes: &[Scope<'_>],
) -> Vec<&'a str> {
    let mut misnamed = Vec::new();
    let mut seen: Vec<Span> = Vec::new();
    for (_, list) in scopes {
        for declared in list {
            // A referenced parameter shared by many operations is reported once per `$ref`.
            if template.contains(&declared.name) || seen.contains(&declared.span) {
                continue;
            }
            seen.push(declared.span);
            let near = did_you_mean(declared.name, template.iter().copied());
            let help = match near {
                Some(meant) => {
                    misnamed.push(meant);
                    format!(
                        "did you mean `{meant}`? the name must be the template's, letter for letter"
                    )
                }
                None => format!(
                    "add `{{{}}}` to the path, or remove the parameter (or make it `in: query` if it is one)",
                    declared.name
                ),
            };
            let d = sink
                .diagnostic(
                    Rule::PathParameterMismatch,
                    declared.span,
                    format!(
                        "path parameter `{}` is not in the path template `{}`",
                        declared.name, entry.template
                    ),
                )
                .with_pointer(declared.pointer(entry.template))
                .with_label(entry.key_span, "the path template")
                .with_help(help);
            sink.push(d);
        }
    }
    misnamed
}

/// Reports each `{name}` of the template that an operation (or a path without operations)
/// lacks a parameter for: once per name, at the name in the key, the operations lacking it
/// labelled.
fn report_undeclared(
    ctx: &Context,
    sink: &mut Sink,
    entry: &PathEntry<'_>,
    template: &[&str],
    scopes: &[Scope<'_>],
    misnamed: &[&str],
) {
    let Some(((_, shared), operations)) = scopes.split_first() else {
        return;
    };
    for name in template {
        if misnamed.contains(name) || ctx.is_server_variable(name) {
            continue;
        }
        let has = |list: &[Declared]| list.iter().any(|d| d.name == *name);
        if has(shared) {
            continue;
        }
        let lacking: Vec<(&str, Span)> = operations
            .iter()
            .filter(|(_, list)| !has(list))
            .filter_map(|(method, _)| *method)
            .collect();
        if lacking.is_empty() && !operations.is_empty() {
            continue;
        }
        let which = if lacking.len() == operations.len() {
            "no operation of the path declares it".to_owned()
        } else {
            let methods: Vec<String> = lacking
                .iter()
                .map(|(m, _)| format!("`{}`", m.to_uppercase()))
                .collect();
            format!("{} do not declare it", methods.join(", "))
        };
        let mut d = sink
            .diagnostic(
                Rule::PathParameterMismatch,
                name_span(ctx, entry, name),
                format!("`{{{name}}}` of `{}` is not a declared path parameter: {which}", entry.template),
            )
            .with_pointer(format!("/paths/{}", pointer::escape(entry.template)))
            .with_help(format!(
                "declare it under the path's `parameters`: `- {{name: {name}, in: path, required: true, schema: {{type: string}}}}`"
            ));
        for (method, span) in &lacking {
            d = d.with_label(*span, format!("`{}` lacks `{name}`", method.to_uppercase()));
        }
        sink.push(d);
    }
}

/// The span of `{name}` inside the `paths` key, or the whole key when it is written with
/// escapes that make the offsets differ.
#[expect(
    clippy::cast_possible_truncation,
    reason = "offsets into the definition's text, which the loader refuses past 4 GiB, so they fit the `u32` of spans"
)]
fn name_span(ctx: &Context, entry: &PathEntry<'_>, name: &str) -> Span {
    let key = entry.key_span;
    let written = ctx
        .text()
        .get(key.start as usize..key.end as usize)
        .unwrap_or_default();
    match written.find(&format!("{{{name}}}")) {
        Some(offset) => {
            let start = key.start + offset as u32;
            Span::new(start, start + name.len() as u32 + 2)
        }
        None => key,
    }
}
