//! `InvalidResponseCode`: a key of `responses` is not a status code.

use syncdef_definitions::Node;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a key of an operation's `responses` that is neither `default`, a status code
    /// from `100` to `599`, nor a range `1XX` to `5XX` (extensions, `x-...`, are allowed), with
    /// the code meant when the key is a near miss: `20O` (a letter O) for `200`, `2xx` for
    /// `2XX`.
    ///
    /// ## Why is this bad?
    /// OpenAPI says the keys MUST be HTTP status codes or ranges. Tools refuse the document,
    /// and a response declared under a key no status matches is never used: templates read
    /// from it, and the type checks made against it, apply to no answer of the system.
    ///
    /// ## Example
    /// ```yaml
    /// responses:
    ///   "20O": {description: the customer}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// responses:
    ///   "200": {description: the customer}
    /// ```
    pub struct InvalidResponseCode {
        title: "a key of `responses` is not a status code",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for operation in ctx.openapi.operations() {
        let Some(responses) = operation.node.get("responses").and_then(Node::as_object) else {
            continue;
        };
        for member in responses {
            let key: &str = member.key.name;
            if is_response_key(key) {
                continue;
            }
            let help = match near_code(key) {
                Some(meant) => format!("did you mean `{meant}`?"),
                None => {
                    "use `default`, a status code from `100` to `599`, or a range `1XX` to `5XX`"
                        .to_owned()
                }
            };
            let d = sink
                .diagnostic(
                    Rule::InvalidResponseCode,
                    member.key.span,
                    format!(
                        "`{key}` under `responses` of `{} {}` is not a status code",
                        operation.method.as_upper_str(),
                        operation.template
                    ),
                )
                .with_pointer(format!(
                    "{}/responses/{}",
                    operation.pointer(),
                    syncdef_definitions::pointer::escape(key)
                ))
                .with_help(help);
            sink.push(d);
        }
    }
}

/// Whether `key` may be a key of a Responses Object.
pub(crate) fn is_response_key(key: &str) -> bool {
    key == "default" || key.starts_with("x-") || is_status(key)
}

/// `100`..`599`, or `1XX`..`5XX`.
fn is_status(key: &str) -> bool {
    let bytes = key.as_bytes();
    let [first, rest @ ..] = bytes else {
        return false;
    };
    if bytes.len() != 3 || !(b'1'..=b'5').contains(first) {
        return false;
    }
    rest.iter().all(u8::is_ascii_digit) || rest == b"XX"
}

/// The status code a near miss means: letters that look like digits read as digits, a
/// lower-case range upper-cased, quotes and spaces dropped.
fn near_code(key: &str) -> Option<String> {
    let cleaned: String = key
        .trim()
        .trim_matches(|c| c == '"' || c == '\'')
        .chars()
        .map(|c| match c {
            'O' | 'o' => '0',
            'I' | 'l' | 'i' => '1',
            'x' => 'X',
            other => other,
        })
        .collect();
    let lowered = key.to_lowercase();
    if is_status(&cleaned) {
        return Some(cleaned);
    }
    (crate::suggest::did_you_mean(&lowered, ["default"]).is_some() || lowered == "default")
        .then(|| "default".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_codes_ranges_and_near_misses() {
        for good in ["200", "599", "100", "2XX", "default", "x-foo"] {
            assert!(is_response_key(good), "{good}");
        }
        for bad in ["20O", "600", "099", "2xx", "20", "2000", "Default", "6XX"] {
            assert!(!is_response_key(bad), "{bad}");
        }
        assert_eq!(near_code("20O").as_deref(), Some("200"));
        assert_eq!(near_code("2xx").as_deref(), Some("2XX"));
        assert_eq!(near_code("Default").as_deref(), Some("default"));
        assert_eq!(near_code("defualt").as_deref(), Some("default"));
        assert_eq!(near_code("600"), None);
    }
}
