//! The platform's modules as synchronization definitions see them: the table lives in
//! `syncdef_definitions::platform::modules`, below every crate that reads it; this module
//! re-exports it for the rules and renders it for the generated docs.

pub use syncdef_definitions::platform::modules::{
    COMMON_ROOTS, MODULES, Module, module, module_by_root,
};

/// A Markdown table of the modules, for the generated docs.
#[must_use]
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| `module` | template root | child collections (`ApiSynchronization`) |\n|---|---|---|\n",
    );
    for m in MODULES {
        let children = if m.children.is_empty() {
            "none".to_owned()
        } else {
            m.child_names()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str(&format!(
            "| `{}` | `$.{}` | {} |\n",
            m.name, m.root, children
        ));
    }
    out
}
