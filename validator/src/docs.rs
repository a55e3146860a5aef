//! The Markdown pages of `docs/rules/`, generated from the rules' doc comments.
//!
//! `cargo test -p syncdef-validator --test it docs::` fails when the committed pages differ from what
//! the code would generate; `UPDATE_DOCS=1` rewrites them.

use crate::codes::Rule;
use crate::platform;
use crate::templates;

/// The page `docs/rules/<CODE>.md` of `rule`.
#[must_use]
pub fn rule_page(rule: Rule) -> String {
    let meta = rule.meta();
    format!(
        "# {code}: {name}\n\n{title}.\n\n- Code: `{code}`\n- Default severity: `{severity}`\n- Source: [`{source}`](../../{source})\n\n{doc}",
        code = rule.code(),
        name = rule.name(),
        title = capitalize(rule.title()),
        severity = rule.default_severity(),
        source = meta.source_file,
        doc = rule.documentation(),
    )
}

/// The index page `docs/rules/README.md`.
#[must_use]
pub fn index_page() -> String {
    let mut out = String::from(
        "# Rules\n\nGenerated from the rules' doc comments (`UPDATE_DOCS=1 cargo test -p syncdef-validator --test it docs::`); do not edit by hand.\n\n\
         `syncdef explain CODE` prints a page; `syncdef.toml` changes severities (see ../configuration.md), `x-syncdef-ignore` and the ignore file silence single findings (see ../configuration.md#suppressing-findings).\n\n\
         | code | name | default | what it catches |\n|---|---|---|---|\n",
    );
    for rule in Rule::ALL {
        out.push_str(&format!(
            "| [{code}]({code}.md) | `{name}` | {severity} | {title} |\n",
            code = rule.code(),
            name = rule.name(),
            severity = rule.default_severity(),
            title = rule.title(),
        ));
    }
    out.push_str("\n## Code groups\n\n");
    out.push_str(
        "| group | what |\n|---|---|\n\
         | `SD1xx` | loading: syntax, YAML hazards, OpenAPI structure, `$ref`s, shape of the `synchronization` section, suppressions |\n\
         | `SD2xx` | operation references (`/path/method`) |\n\
         | `SD3xx` | placeholders |\n\
         | `SD4xx` | transformation templates |\n\
         | `SD5xx` | pre- and post-synchronization actions |\n\
         | `SD6xx` | entries |\n\
         | `SD7xx` | security |\n\
         | `SD8xx` | type checking: templates against platform records (`syncdef schema --records`) and the operations they feed |\n\
         | `SD9xx` | reserved: configuration and tool problems |\n\n\
         Codes are never reused.\n",
    );
    out.push_str("\n## Platform modules\n\n");
    out.push_str(&platform::markdown_table());
    out.push_str("\nEvery template may also read `$.serverVariables.<name>`, `$.externalId`, `$.related.<Entry>.IntegrationId` (the external id of a related record) and, when a `Body` pre-action supplies it, `$.syncToken` (the first value read) and `$.syncTokens.<name>` (each value by the name its `schema` maps).\n");
    out.push_str("\n## Templates each operation needs\n\n");
    out.push_str(&templates::markdown_table());
    out
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
