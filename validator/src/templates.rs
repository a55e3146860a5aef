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
