//! Which templates each operation needs, and what template names mean: the table lives in
//! `syncdef_definitions::template_names`, below the engine that looks templates up by name;
//! this module re-exports it for the rules and renders it for the generated docs.

pub use syncdef_definitions::template_names::{
    Need, OPERATIONS, OperationTemplates, is_request_template, is_response_template, known_names,
    request_name, response_name, split_template_name,
};

/// A Markdown table for the generated docs.
#[must_use]
pub fn markdown_table() -> String {
    let need = |n: Need| match n {
        Need::Required => "required",
        Need::WhenBody => "required when the operation has a request body",
        Need::Optional => "optional",
    };
    let mut out = String::from("| operation | `…Request` | `…Response` |\n|---|---|---|\n");
    for o in OPERATIONS {
        out.push_str(&format!(
            "| `{}.{}` | `{}`: {} | `{}`: {} |\n",
            o.section,
            o.operation,
            request_name(o.operation),
            need(o.request),
            response_name(o.operation),
            need(o.response)
        ));
    }
    out
}

/// Why the response template of push operation `operation` (`create`, `update`, `delete`),
/// written as `template`, cannot be read as the platform's create result `{id, success,
/// errors}` (spec 2.6 rule 7), with the rule that reports it: it does not make an object
/// (SD812), or, for `create`, gives no `id` (SD804). `None` when it can be read. The linter
/// and the engine's plan judge with this one function, so a template the linter lets through
/// is one the engine loads.
#[must_use]
pub fn response_template_problem(
    operation: &str,
    template: &serde_json::Value,
) -> Option<(crate::Rule, String)> {
    use serde_json::Value;
    let kind = match template {
        Value::Object(members) => {
            if members.keys().any(|k| k.starts_with("#loop")) {
                return Some((
                    crate::Rule::MalformedResponseTemplate,
                    "makes an array (its `#loop` key), not an object".to_owned(),
                ));
            }
            // Computed keys (`#ifgroup`, ...) may write `id`: judged when applied.
            let computed = members.keys().any(|k| k.starts_with('#'));
            return (operation == "create" && !computed && !members.contains_key("id")).then(
                || {
                    (
                        crate::Rule::ExternalIdNotConvertible,
                        "does not produce `id`: the platform never learns the external id"
                            .to_owned(),
                    )
                },
            );
        }
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(s) if s.starts_with('#') => "one expression's value",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
    };
    Some((
        crate::Rule::MalformedResponseTemplate,
        format!("is {kind}, not an object mapping `id`, `success` and `errors`"),
    ))
}
