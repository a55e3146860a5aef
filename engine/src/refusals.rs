//! Every place the engine refuses a definition or fails a push as `configuration`, and what
//! catches it first: the lint rule that reports every definition reaching it, or why no rule
//! can (the record, its state, the answer or the caller decides).
//!
//! "Lint-clean means the push works" holds when each refusal a definition alone can reach has
//! its rule. The unit test below reads the engine's sources and fails for a refusal site this
//! table does not name; `tests/it/refusals.rs` reaches each refusal listed with a rule from a
//! small definition and checks the rule fires on it.

/// What catches a definition that reaches a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caught {
    /// The lint rule with this code reports every definition that reaches the refusal.
    Rule(&'static str),
    /// No definition alone reaches it: the record's values, its state (external ids), the
    /// external system's answer or the calling program decides; the reason says which.
    Runtime(&'static str),
}

/// One place the engine refuses.
#[derive(Clone, Copy, Debug)]
pub struct Refusal {
    /// The source file under `engine/src/`.
    pub file: &'static str,
    /// A fragment of the refusal's message as the source writes it, which names the place.
    pub says: &'static str,
    /// What catches it.
    pub caught: Caught,
}

const fn rule(file: &'static str, says: &'static str, code: &'static str) -> Refusal {
    Refusal {
        file,
        says,
        caught: Caught::Rule(code),
    }
}

const fn runtime(file: &'static str, says: &'static str, why: &'static str) -> Refusal {
    Refusal {
        file,
        says,
        caught: Caught::Runtime(why),
    }
}

const ANSWER: &str = "the external system's answer decides";
const CALLER: &str = "the calling program decides (its arguments, the entry or variable it names, the transport it gives)";
const STATE: &str = "the record's state decides (the external ids known when it is pushed)";
const VALUES: &str = "the record's values decide (a template that compiles fails only on the values it is applied to; SD403 reports the templates that do not compile, and SD802 checks bodies over sample records)";

/// The refusals, by file.
pub const REFUSALS: &[Refusal] = &[
    // Loading: `DefinitionPlan::compile` refuses the definition with these problems.
    rule("plan.rs", "has no `synchronization` section", "SD110"),
    rule(
        "plan.rs",
        "`x-syncdef.requestValidation.skip` names",
        "SD114",
    ),
    rule(
        "plan.rs",
        "`x-syncdef.lookup.{name}`: the definition has no entry",
        "SD114",
    ),
    rule("plan.rs", "`x-syncdef.lookup.{name}`: {e}", "SD114"),
    rule("plan.rs", "unknown or missing `module`", "SD601"),
    rule("plan.rs", "has neither `push` nor `pull`", "SD108"),
    rule("plan.rs", "entry `{name}`, `{prefix}`: {problem}", "SD812"),
    rule("plan.rs", "entry `{name}`, `{prefix}`: {e}", "SD202"),
    rule("plan.rs", "`pull` has synchronization actions", "SD506"),
    rule("plan.rs", "lines are not pulled on their own", "SD507"),
    rule("plan.rs", "lines are pushed once their", "SD507"),
    rule("plan.rs", "several entries push `{target}`", "SD507"),
    rule("plan.rs", "pushes lines of `{}`, not of `{}`", "SD507"),
    runtime(
        "push/prepare.rs",
        "carries out no operation of the record",
        "the engine runs such a push before it prepares an operation",
    ),
    runtime(
        "push/mod.rs",
        "the post-actions run again only for a record pushed before",
        STATE,
    ),
    runtime("push/lines.rs", "each within its record's push", CALLER),
    runtime(
        "push/lines.rs",
        "records, not lines of another record",
        CALLER,
    ),
    runtime(
        "push/lines.rs",
        "the definition has no entry `{lines}`",
        "the plan links an action only to an entry of lines it has",
    ),
    runtime(
        "push/lines.rs",
        "does not push lines",
        "the plan links an action only to an entry of lines it has",
    ),
    runtime("push/lines.rs", "not the array of its lines", VALUES),
    rule("plan.rs", "entry `{name}`, action `{}`: {e}", "SD501"),
    runtime(
        "plan.rs",
        "is also a member of every template input",
        "no platform module's root is `serverVariables`, `externalId`, `syncToken`, `syncTokens` or `related`: only a change of the module table reaches it, which its own test catches",
    ),
    rule("plan.rs", "is not a GET: a lookup only reads", "SD114"),
    rule("plan.rs", "is not a JSONPath", "SD114"),
    rule("plan.rs", "names no operation of the document", "SD202"),
    rule(
        "plan.rs",
        "which `components.securitySchemes` does not define",
        "SD701",
    ),
    rule(
        "plan.rs",
        "can be sent with none of its security requirements",
        "SD706",
    ),
    rule("plan.rs", "the action has no `path`", "SD108"),
    rule(
        "plan.rs",
        "the action's `path` is not an operation reference",
        "SD201",
    ),
    rule("plan.rs", "unknown action type", "SD501"),
    rule("plan.rs", "`in: Header` needs `schema.header`", "SD503"),
    rule(
        "plan.rs",
        "`in: Header` needs `schema.headerValue`",
        "SD503",
    ),
    rule("plan.rs", "unknown `in: {v}`", "SD502"),
    rule("plan.rs", "does not compile: {e}", "SD403"),
    rule("plan.rs", "`{reference}`: {e}", "SD802"),
    rule("plan.rs", "its request body: {e}", "SD814"),
    // A step of a push or a pull: its request composed and sent.
    runtime(
        "call/compose.rs",
        "reads `$.related.{entry}.IntegrationId`",
        STATE,
    ),
    runtime(
        "call/compose.rs",
        "the template `{step}Request` failed",
        VALUES,
    ),
    runtime(
        "call/compose.rs",
        "the parameters of `{}`",
        "no definition reaches it: the load refuses a parameter value naming no declared server variable (SD114), and every declared variable has a value",
    ),
    rule("call/compose.rs", "requires a request body", "SD401"),
    rule("call/compose.rs", "cannot be written as", "SD815"),
    runtime("call/send.rs", "the engine has no transport", CALLER),
    runtime(
        "call/send.rs",
        "ErrorClass::Configuration, e.to_string()",
        "the transport refuses the request or the answer (a header value a record wrote, a redirect)",
    ),
    // Pushing.
    runtime("push/mod.rs", "the definition has no entry", CALLER),
    runtime("push/mod.rs", "has no `push.{}`", STATE),
    runtime(
        "push/prepare.rs",
        "a delete needs the record's external id",
        STATE,
    ),
    runtime("push/prepare.rs", "has no `push.{}`{}", STATE),
    rule("push/actions.rs", "the response has no `{source}`", "SD806"),
    runtime(
        "push/response.rs",
        "ErrorClass::Configuration",
        "the answer to an update or delete decides: a body that is not JSON, or one the response template fails on (the template's form is SD812's and is refused when loading)",
    ),
    runtime("extract.rs", "the response template failed", ANSWER),
    rule("extract.rs", "it must be true or false", "SD808"),
    rule("extract.rs", "it must be a string or a number", "SD804"),
    runtime(
        "request.rs",
        "needs the record's external id (`{{IntegrationId}}`)",
        STATE,
    ),
    runtime(
        "request.rs",
        "needs the external id of the related `{entry}`",
        STATE,
    ),
    rule(
        "request.rs",
        "is neither `IntegrationId`, `<Entry>.IntegrationId` nor a server variable",
        "SD301",
    ),
    runtime(
        "request.rs",
        "which is not a usable path value",
        "the value of an external id or server variable decides",
    ),
    rule("request.rs", "has a `.` or `..` segment", "SD204"),
    runtime(
        "request.rs",
        "outside the server's base path",
        "reached only through a placeholder's value, which is checked before (a reference's own dot segments are SD204's)",
    ),
    runtime(
        "request.rs",
        "leads off the server",
        "reached only through a placeholder's value, which is checked before (a reference's own dot segments are SD204's)",
    ),
    runtime(
        "request_check.rs",
        "rendered a body that cannot be read as JSON",
        VALUES,
    ),
    rule("request_check.rs", "self.message(operation", "SD802"),
    rule("servers.rs", "but the definition allows only", "SD113"),
    runtime(
        "servers.rs",
        "which is empty, or in the host",
        "the instance's value for the variable decides",
    ),
    runtime(
        "servers.rs",
        "is not a server variable of the definition",
        CALLER,
    ),
    runtime(
        "servers.rs",
        "which is not a valid URL",
        "the instance's server variable values decide",
    ),
    runtime(
        "servers.rs",
        "must be an absolute http or https URL",
        "the server URL the caller gives (`Engine::with_base_url`) or the instance's values decide",
    ),
    rule(
        "servers.rs",
        "uses plain http to a host other than loopback",
        "SD705",
    ),
    runtime(
        "reliability/limits.rs",
        "it is refused before any request",
        "the record's size decides",
    ),
    // Pulling.
    runtime("pull/mod.rs", "EngineError::configuration(e)", ANSWER),
    runtime("pull/mod.rs", "ErrorClass::Configuration, e.0", ANSWER),
    runtime("pull/mod.rs", "has no `pull.{key}`", CALLER),
    runtime("pull/mod.rs", "the page position's link", ANSWER),
    rule(
        "pull/mod.rs",
        "which maps the external records onto",
        "SD401",
    ),
    runtime("pull/mod.rs", "the template `{name}` failed", ANSWER),
    runtime("pull/mod.rs", "the definition has no entry", CALLER),
];

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{Caught, REFUSALS};

    /// What marks a refusal in the sources: a configuration error made, or a plan problem.
    const MARKS: &[&str] = &[
        "EngineError::configuration(",
        "ErrorClass::Configuration",
        "problems.push(",
        "Err(format!(",
        "Err(vec![",
        ".ok_or(\"",
        "map_err(|e| format!(",
    ];

    /// Files that define the error or its classes, and the OAuth sign-in (its refusals are
    /// the instance's, not the definition's).
    fn scanned(relative: &str) -> bool {
        relative != "error.rs" && relative != "refusals.rs"
    }

    /// Every refusal site of `text` (its code before its tests), in the file `file`: the text
    /// from each mark to the end of its statement. Problems (`Err(format!(...))`) are refusals
    /// in the plan only; elsewhere they are messages the caller turns into one of the errors.
    fn sites<'t>(file: &str, text: &'t str) -> Vec<&'t str> {
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
        let mut out = Vec::new();
        for mark in MARKS {
            let configuration = mark.contains("onfiguration");
            if !configuration && file != "plan.rs" {
                continue;
            }
            for (at, _) in code.match_indices(mark) {
                let rest = &code[at..];
                let end = rest.find(";\n").unwrap_or(rest.len()).min(600);
                let site = &rest[..end.min(rest.len())];
                // A plan problem passed on (`Err(e) => return Err(vec![e])`) is named where
                // it is made.
                if !configuration && !site.contains('"') {
                    continue;
                }
                out.push(site);
            }
        }
        out
    }

    fn files(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("the source folder").flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let relative = format!("{prefix}{name}");
            if path.is_dir() {
                files(&path, &format!("{relative}/"), out);
            } else if path.extension().is_some_and(|e| e == "rs") && scanned(&relative) {
                let text = std::fs::read_to_string(&path).expect("a source file");
                out.push((relative, text));
            }
        }
    }

    #[test]
    fn every_refusal_of_the_engine_has_its_rule_or_its_reason() {
        let mut sources = Vec::new();
        files(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            "",
            &mut sources,
        );
        let mut unnamed = Vec::new();
        for (file, text) in &sources {
            for site in sites(file, text) {
                let named = REFUSALS
                    .iter()
                    .any(|r| r.file == file && site.contains(r.says));
                if !named {
                    unnamed.push(format!("{file}: {}", site.lines().next().unwrap_or(site)));
                }
            }
        }
        assert!(
            unnamed.is_empty(),
            "refusals without a row in REFUSALS (a lint rule that catches the definitions reaching them, or the reason none can):\n{}",
            unnamed.join("\n")
        );
    }

    #[test]
    fn every_row_names_a_refusal_and_a_declared_rule() {
        for refusal in REFUSALS {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src")
                .join(refusal.file);
            let text = std::fs::read_to_string(&path).expect("the row's file");
            assert!(
                sites(refusal.file, &text)
                    .iter()
                    .any(|s| s.contains(refusal.says)),
                "{}: no refusal says `{}`",
                refusal.file,
                refusal.says
            );
            if let Caught::Rule(code) = refusal.caught {
                assert!(
                    syncdef_validator::Rule::from_code(code).is_some(),
                    "{code} is not a rule"
                );
            }
        }
    }
}
