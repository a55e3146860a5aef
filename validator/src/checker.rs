//! Runs the enabled rules over one loaded document.
//!
//! Rules are dispatched from the code table (`crate::codes`), where each rule's line says how it
//! runs: a rule that is `off` in `syncdef.toml` never runs.

use std::path::Path;
use std::sync::Arc;

use syncdef_definitions::model::{LoadProblem, ProblemKind};
use syncdef_definitions::{Definition, Document, Span};

use crate::codes::{Dispatch, Rule};
use crate::config::RuleSettings;
use crate::context::{Context, Sink};
use crate::diagnostic::Diagnostic;
use crate::suggest::did_you_mean;

/// Whether the document has a top-level `synchronization` or `x-synchronization` member.
pub(crate) fn has_sync_section(doc: &Document) -> bool {
    doc.root.get("synchronization").is_some() || doc.root.get("x-synchronization").is_some()
}

/// Every diagnostic of the enabled rules, with the configured severities.
pub(crate) fn check(
    def: &Definition,
    settings: &RuleSettings,
    path: &Path,
    samples: &crate::typecheck::Samples,
) -> Vec<Diagnostic> {
    let mut sink = Sink::new(settings, path, Arc::clone(&def.source));
    report_problems(def, &mut sink);
    // Without a section (reported as SD110) only the rules of the OpenAPI part apply.
    let has_section = def.sync.is_some();
    let ctx = Context::new(def, samples);
    for rule in Rule::ALL {
        let check = match rule.dispatch() {
            Dispatch::OpenApi(check) => check,
            Dispatch::Check(check) if has_section => check,
            _ => continue,
        };
        if sink.enabled(*rule) {
            check(&ctx, &mut sink);
        }
    }
    sink.diagnostics
}

/// The rule a structural problem of the model is reported under.
pub(crate) fn rule_for_problem(kind: ProblemKind) -> Rule {
    match kind {
        ProblemKind::OpenApi => Rule::InvalidOpenApi,
        ProblemKind::BrokenRef | ProblemKind::ExternalRef => Rule::BrokenRef,
        ProblemKind::CircularRef => Rule::CircularRef,
        ProblemKind::ConflictingSyncKeys | ProblemKind::MissingSync => Rule::MissingSyncSection,
        // Wrong types, missing fields and kinds added later: the section's shape.
        _ => Rule::InvalidSyncStructure,
    }
}

fn report_problems(def: &Definition, sink: &mut Sink) {
    // A file without a synchronization section is still an OpenAPI document: its structure and
    // `$ref`s are checked beside SD110, which says what is missing. The section's own problems
    // (a wrong type under it) cannot occur.
    for problem in &def.problems {
        let rule = rule_for_problem(problem.kind);
        if !sink.enabled(rule) || reported_by_a_rule(def, problem) {
            continue;
        }
        // Problems of the document as a whole are located at its first key: underlining every
        // line would bury the message.
        let mut span = if problem.span == def.root.span {
            def.root
                .as_object()
                .and_then(|m| m.first())
                .map_or(Span::empty(0), |m| m.key.span)
        } else {
            problem.span
        };
        let mut help = problem.help.clone();
        if problem.kind == ProblemKind::MissingSync
            && let Some(key) = misspelt_sync_key(&def.root)
        {
            help = Some(format!(
                "`{}` is not read as the section: did you mean `synchronization`?",
                key.name
            ));
            span = key.span;
        }
        let mut d = sink
            .diagnostic(rule, span, problem.message.clone())
            .with_pointer(problem.pointer.clone())
            .with_optional_help(help);
        for (span, message) in &problem.related {
            d = d.with_label(*span, message.clone());
        }
        sink.push(d);
    }
}

/// A top-level key that looks like a misspelt `synchronization` (`synchronisation`).
fn misspelt_sync_key(root: &syncdef_definitions::Node) -> Option<&syncdef_definitions::Key> {
    root.as_object()?
        .iter()
        .map(|m| &m.key)
        .find(|k| did_you_mean(&k.name, ["synchronization", "x-synchronization"]).is_some())
}

/// OpenAPI structure errors that a dedicated rule reports better (same root cause, one
/// finding): an incomplete OAuth2 flow breaks the structure of its security scheme too, but
/// SD702 names every missing field at the flow.
fn reported_by_a_rule(def: &Definition, problem: &LoadProblem) -> bool {
    if problem.kind != ProblemKind::OpenApi {
        return false;
    }
    let Some(rest) = problem.pointer.strip_prefix("/components/securitySchemes/") else {
        return false;
    };
    // The structure check reports at the scheme or below it.
    let name = rest.split('/').next().unwrap_or(rest);
    let flow_pointer = format!("/components/securitySchemes/{name}/flows/authorizationCode");
    def.root.pointer(&flow_pointer).is_some_and(|flow| {
        ["authorizationUrl", "tokenUrl", "scopes"]
            .iter()
            .any(|k| flow.get(k).is_none())
    })
}
