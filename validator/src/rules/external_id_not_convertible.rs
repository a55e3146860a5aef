//! `ExternalIdNotConvertible`: the external id a create response gives cannot be an identifier.

use syncdef_definitions::platform::JsonType;
use syncdef_definitions::{Node, NodeKind};
use syncdef_transform::JsonPath;

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;
use crate::templates::response_name;
use crate::typecheck::reads::walk;
use crate::typecheck::response_schemas;

declare_rule! {
    /// ## What it does
    /// Checks the `id` a `createResponse` template produces: the value the platform stores as
    /// the record's external identifier (spec 2.6 rule 7: the create result has `id`, an
    /// `int64`). The template must produce `id`, and when it reads it with `#valueof` from a
    /// field of the operation's success (2xx) response schema, that field must convert: an
    /// `integer`, a `string` whose `pattern` allows digits only (QuickBooks answers
    /// `"Id": "67"`), or a `string` with `format: uuid` (Business Central; the engine keeps
    /// non-numeric ids as strings). A boolean, object or array, or a constant `id`, is an error.
    /// A string without such a pattern is SD805 (a warning), a number that may be fractional too.
///
    /// ## Why is this bad?
    /// Without a usable id the platform cannot link its record to the external one: every later
    /// update fails (`{IntegrationId}` is empty) or creates a duplicate.
///
    /// ## Example
    /// ```yaml
    /// # The 200 response is {"Customer": {"Id": "67", "Active": true}}
    /// createResponse:
    ///   id: "#valueof($.Customer.Active)"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// createResponse:
    ///   id: "#valueof($.Customer.Id)"
    /// ```
    pub struct ExternalIdNotConvertible {
        title: "the external id a create response gives cannot be an identifier",
        severity: Error,
    }
}

declare_rule! {
    /// ## What it does
    /// Warns when the `id` of a `createResponse` is read from a success response field that may
    /// not convert to the platform's `int64` identifier: a `string` without a digits-only
    /// `pattern` (and not `format: uuid`), or a `number` that may be fractional. SD804 explains
    /// what converts.
///
    /// ## Why is this bad?
    /// Ids such as `INV-1` are kept as strings by the engine, but a platform that expects the
    /// create result's `int64` cannot store them; the schema does not promise digits.
///
    /// ## Example
    /// ```yaml
    /// # Customer.Id: {type: string}
    /// createResponse:
    ///   id: "#valueof($.Customer.Id)"
    /// ```
///
    /// ## Use instead
    /// Declare what the system answers, if its ids are digits:
    /// ```yaml
    /// Customer.Id: {type: string, pattern: "^[0-9]+$"}
    /// ```
    pub struct ExternalIdMayNotConvert {
        title: "the external id a create response gives may not convert to an int64",
        severity: Warning,
    }
}

declare_rule! {
    /// ## What it does
    /// Says when the external id a create response gives is a UUID (`format: uuid`): the
    /// platform's create contract (spec 2.6, rule 7) has an `int64` id, which cannot hold it.
    ///
    /// ## Why is this bad?
    /// It is not: Business Central's ids are UUIDs. The engine keeps every external id as
    /// text, so pushes, updates and the sync state work; only the int64 form
    /// (`PushOutcome::external_id_number`) stays empty. This note says so where a reader of
    /// the contract would wonder.
    ///
    /// ## Example
    /// ```yaml
    /// createResponse:
    ///   id: "#valueof($.id)"   # declared `type: string, format: uuid`
    /// ```
    ///
    /// ## Use instead
    /// Nothing to change.
    pub struct ExternalIdKeptAsText {
        title: "the external id a create response gives is a UUID, kept as text",
        severity: Info,
    }
}

/// What the schema of the id field says about conversion.
enum Verdict {
    Converts,
    /// A UUID: kept as text, never an int64.
    Uuid,
    Maybe(String),
    Never(String),
}

fn verdict(types: &[JsonType], json: &serde_json::Value) -> Verdict {
    let non_null: Vec<JsonType> = types
        .iter()
        .copied()
        .filter(|t| *t != JsonType::Null)
        .collect();
    if non_null.is_empty() {
        return Verdict::Converts;
    }
    if non_null.contains(&JsonType::Integer) {
        return Verdict::Converts;
    }
    if non_null.contains(&JsonType::String) {
        let pattern = json.get("pattern").and_then(serde_json::Value::as_str);
        let format = json.get("format").and_then(serde_json::Value::as_str);
        if pattern.is_some_and(digits_only) {
            return Verdict::Converts;
        }
        if matches!(format, Some("uuid" | "guid")) {
            return Verdict::Uuid;
        }
        return Verdict::Maybe(match pattern {
            Some(p) => format!("a string whose pattern `{p}` does not restrict it to digits"),
            None => "a string without a digits-only `pattern`".to_owned(),
        });
    }
    if non_null.contains(&JsonType::Number) {
        return Verdict::Maybe("a number, which may be fractional".to_owned());
    }
    Verdict::Never(
        non_null
            .iter()
            .map(|t| format!("a {}", t.name()))
            .collect::<Vec<_>>()
            .join(" or "),
    )
}

/// Whether a pattern only matches digit strings: `^[0-9]+$`, `^\d+$`, `^-?[0-9]{1,19}$`.
fn digits_only(pattern: &str) -> bool {
    let Some(body) = pattern.strip_prefix('^').and_then(|p| p.strip_suffix('$')) else {
        return false;
    };
    let body = body.strip_prefix("-?").unwrap_or(body);
    let class = if let Some(rest) = body.strip_prefix("[0-9]") {
        rest
    } else if let Some(rest) = body.strip_prefix("\\d") {
        rest
    } else {
        return false;
    };
    class == "+"
        || class == "*"
        || class
            .strip_prefix('{')
            .and_then(|c| c.strip_suffix('}'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b','))
}

/// Whether `root` is an object whose keys are all plain: no `#` key function that could
/// write `id` at run time.
fn only_plain_keys(root: &Node) -> bool {
    root.as_object()
        .is_some_and(|m| m.iter().all(|m| !m.key.name.starts_with('#')))
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let Some(site) = info.operation("create") else {
            continue;
        };
        let Some(template) = info.template(&response_name("create")) else {
            continue;
        };
        let Some(tree) = &template.tree else { continue };
        let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
            continue;
        };
        let Some(id) = tree.root().member("id") else {
            if only_plain_keys(&tree.root()) {
                let d = sink
                    .diagnostic(
                        Rule::ExternalIdNotConvertible,
                        template.source.name.span,
                        "`createResponse` does not produce `id`: the platform never learns the external id",
                    )
                    .with_pointer(template.source.pointer.clone())
                    .with_help("add `id: \"#valueof($.<the response field holding the new record's id>)\"`");
                sink.push(d);
            }
            continue;
        };
        let value_span = tree.node_span(ctx.text(), id.value.span);
        let text = match &id.value.kind {
            NodeKind::String(s) if s.value.starts_with('#') => s.value.to_string(),
            NodeKind::Object(_)
            | NodeKind::Array(_)
            | NodeKind::Bool(_)
            | NodeKind::Null
            | NodeKind::String(_)
            | NodeKind::Number(_) => {
                let d = sink
                    .diagnostic(
                        Rule::ExternalIdNotConvertible,
                        value_span,
                        format!(
                            "`id` is a constant {}: every record would get the same external id",
                            id.value.type_name()
                        ),
                    )
                    .with_pointer(template.source.pointer.clone())
                    .with_help("read the id from the response: `id: \"#valueof($.<field>)\"`");
                sink.push(d);
                continue;
            }
        };
        let Some(path) = valueof_path(&text) else {
            continue;
        };
        let Ok(parsed) = JsonPath::parse(path) else {
            continue;
        };
        let schemas = response_schemas(ctx, &operation, true);
        let mut verdicts = Vec::new();
        for converted in &schemas {
            let Some(root) = converted.root() else {
                continue;
            };
            // Unknown fields are SD803's finding.
            if let Ok(Some(end)) = walk(root, parsed.text(), parsed.steps()) {
                verdicts.push(verdict(&end.types(), end.json()));
            }
        }
        let span = match &id.value.kind {
            NodeKind::String(_) => tree.span_in(ctx.text(), &id.value, 0..text.len()),
            _ => value_span,
        };
        if verdicts.iter().any(|v| matches!(v, Verdict::Converts)) {
            continue;
        }
        let first = verdicts.into_iter().next();
        let (rule, why) = match first {
            Some(Verdict::Never(why)) => (Rule::ExternalIdNotConvertible, why),
            Some(Verdict::Maybe(why)) => (Rule::ExternalIdMayNotConvert, why),
            Some(Verdict::Uuid) => (
                Rule::ExternalIdKeptAsText,
                "a UUID (`format: uuid`)".to_owned(),
            ),
            _ => continue,
        };
        let d = sink
            .diagnostic(
                rule,
                span,
                format!("the external id is read from `{path}`, which the success response declares as {why}"),
            )
            .with_pointer(template.source.pointer.clone())
            .with_label(site.text.span, "the create operation")
            .with_help(match rule {
                Rule::ExternalIdNotConvertible => "read the field that holds the new record's identifier".to_owned(),
                Rule::ExternalIdKeptAsText => "the platform's `id` is an int64, which cannot hold a UUID: the engine keeps the id as text (`PushOutcome::external_id`, the sync state) and leaves `external_id_number` empty; nothing to change".to_owned(),
                _ => "if the system's ids are digits, say so in the schema (`pattern: \"^[0-9]+$\"`); otherwise the id is kept as a string".to_owned(),
            });
        sink.push(d);
    }
}

/// The path argument of `#valueof(<path>)`, when the whole value is that call.
pub(crate) fn valueof_path(text: &str) -> Option<&str> {
    let inner = text.strip_prefix("#valueof(")?.strip_suffix(')')?;
    Some(inner.trim())
}

/// SD805 alone (SD804 turned off): the same check, whose SD804 findings the sink drops.
pub(crate) fn check_unless_errors_run(ctx: &Context, sink: &mut Sink) {
    if !sink.enabled(Rule::ExternalIdNotConvertible) {
        check(ctx, sink);
    }
}

/// SD809 alone (SD804 and SD805 turned off): the same check, whose other findings the sink
/// drops.
pub(crate) fn check_unless_others_run(ctx: &Context, sink: &mut Sink) {
    if !sink.enabled(Rule::ExternalIdNotConvertible) && !sink.enabled(Rule::ExternalIdMayNotConvert)
    {
        check(ctx, sink);
    }
}

#[cfg(test)]
mod tests {
    use super::digits_only;

    #[test]
    fn digit_patterns() {
        assert!(digits_only("^[0-9]+$"));
        assert!(digits_only("^\\d+$"));
        assert!(digits_only("^-?[0-9]{1,19}$"));
        assert!(!digits_only("^[A-Z0-9]+$"));
        assert!(!digits_only("[0-9]+"));
        assert!(!digits_only("^[0-9]{$"));
        assert!(!digits_only("^[0-9]{}$"));
    }
}
