//! `ResponseContractMismatch`: a response template gives `success` or `errors` of a type the
//! platform's contract does not take.

use syncdef_definitions::platform::JsonType;
use syncdef_definitions::{Node, NodeKind};
use syncdef_transform::JsonPath;

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Resolution, Sink, Template};
use crate::rule::declare_rule;
use crate::rules::external_id_not_convertible::valueof_path;
use crate::templates::response_name;
use crate::typecheck::reads::walk;
use crate::typecheck::response_schemas;

declare_rule! {
    /// ## What it does
    /// Checks the output of each push response template (`createResponse`, `updateResponse`,
    /// `deleteResponse`) against the platform's contract (spec 2.6, rule 7:
    /// `{id: int64, errors: [string], success: boolean}`): `success` must be a boolean (a
    /// constant `true`/`false`, or read from a boolean field), `errors` an array of strings (a
    /// `#loop`, an array, or read from an array field). It reports a constant string or
    /// number, and a `#valueof` of a response field whose schema gives another type.
    ///
    /// ## Why is this bad?
    /// The engine reads `success` to decide whether the external system accepted the record:
    /// `success: "#valueof($.Customer.DisplayName)"` fails every push that succeeded, and after
    /// a create that cannot be read the record's outcome is unknown.
    ///
    /// ## Example
    /// ```yaml
    /// createResponse:
    ///   id: "#valueof($.Customer.Id)"
    ///   success: "yes"
    ///   errors: "#valueof($.Fault.Error)"
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// createResponse:
    ///   id: "#valueof($.Customer.Id)"
    ///   success: "#exists($.Customer.Id)"
    ///   errors:
    ///     - "#loop($.Fault.Error)": "#currentvalueatpath($.Message)"
    /// ```
    pub struct ResponseContractMismatch {
        title: "a response template gives `success` or `errors` of a type the contract does not take",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for op in ["create", "update", "delete"] {
            let Some(template) = info.template(&response_name(op)) else {
                continue;
            };
            check_template(ctx, sink, info, op, template);
        }
    }
}

/// What a member of the contract must be.
#[derive(Clone, Copy)]
enum Want {
    Boolean,
    Strings,
}

impl Want {
    fn name(self) -> &'static str {
        match self {
            Want::Boolean => "a boolean",
            Want::Strings => "an array of strings",
        }
    }

    fn takes(self, types: &[JsonType]) -> bool {
        let wanted = match self {
            Want::Boolean => JsonType::Boolean,
            Want::Strings => JsonType::Array,
        };
        types.is_empty() || types.iter().any(|t| *t == wanted || *t == JsonType::Null)
    }
}

fn check_template(ctx: &Context, sink: &mut Sink, info: &EntryInfo, op: &str, template: &Template) {
    let Some(tree) = &template.tree else { return };
    let operation = info.operation(op).and_then(|site| match ctx.resolve(site) {
        Some(Resolution::Found { operation, .. }) => Some(operation),
        _ => None,
    });
    for (member, want) in [("success", Want::Boolean), ("errors", Want::Strings)] {
        let Some(found) = tree.root().member(member) else {
            continue;
        };
        let value = &found.value;
        let problem = match &value.kind {
            NodeKind::String(s) if s.value.starts_with('#') => {
                let Some(path) = valueof_path(s.value) else {
                    continue;
                };
                let Some(operation) = operation else { continue };
                read_type(ctx, &operation, path, want)
            }
            NodeKind::Bool(_) | NodeKind::Null if matches!(want, Want::Boolean) => None,
            NodeKind::Array(_) | NodeKind::Null if matches!(want, Want::Strings) => None,
            // A `#loop` key makes an array.
            NodeKind::Object(m)
                if matches!(want, Want::Strings)
                    && m.iter().any(|m| m.key.name.starts_with("#loop")) =>
            {
                None
            }
            other => Some(format!("the constant {}", kind_name(other))),
        };
        let Some(problem) = problem else { continue };
        let d = sink
            .diagnostic(
                Rule::ResponseContractMismatch,
                tree.node_span(ctx.text(), value.span),
                format!("`{member}` of `{op}Response` is {problem}; the platform takes {}", want.name()),
            )
            .with_pointer(template.source.pointer.clone())
            .with_help(match want {
                Want::Boolean => "write `success: true`, or test the answer: `success: \"#exists($.<the new record's id>)\"`",
                Want::Strings => "collect the messages: `errors: [{\"#loop($.<error list>)\": \"#currentvalueatpath($.<message>)\"}]`",
            });
        sink.push(d);
    }
}

/// Why a `#valueof` of `path` does not give `want`, from the success response schemas.
fn read_type(ctx: &Context, operation: &Node, path: &str, want: Want) -> Option<String> {
    let parsed = JsonPath::parse(path).ok()?;
    let mut declared = Vec::new();
    for converted in &response_schemas(ctx, operation, true) {
        let root = converted.root()?;
        // Unknown fields are SD803's finding.
        if let Ok(Some(end)) = walk(root, parsed.text(), parsed.steps()) {
            let types = end.types();
            if want.takes(&types) {
                return None;
            }
            declared.extend(types);
        }
    }
    let first = declared.first()?;
    Some(format!(
        "read from `{path}`, which the response declares as a {}",
        first.name()
    ))
}

fn kind_name(kind: &NodeKind) -> &'static str {
    match kind {
        NodeKind::String(_) => "string",
        NodeKind::Number(_) => "number",
        NodeKind::Bool(_) => "boolean",
        NodeKind::Null => "null",
        NodeKind::Object(_) => "object",
        NodeKind::Array(_) => "array",
    }
}
