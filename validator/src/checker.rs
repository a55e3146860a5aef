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
use crate::scope::{Scope, UsedParts};
use crate::suggest::did_you_mean;

/// Whether the document has a top-level `synchronization` or `x-synchronization` member.
pub(crate) fn has_sync_section(doc: &Document) -> bool {
    doc.root().get("synchronization").is_some() || doc.root().get("x-synchronization").is_some()
}

/// What the rules found in one definition.
pub(crate) struct Checked {
    /// Every diagnostic of the enabled rules, with the configured severities.
    pub diagnostics: Vec<Diagnostic>,
    /// The parts of the description the synchronization uses, when the settings' scope
    /// reports only their findings and the definition has a section to use them; `None`: every
    /// finding is in scope.
    pub used: Option<UsedParts>,
}

/// Runs the enabled rules, and finds the used parts of the description while the context that
/// resolves the entries' operations is at hand.
pub(crate) fn check(
    def: &Definition,
    settings: &RuleSettings,
    path: &Path,
    samples: &crate::typecheck::Samples,
) -> Checked {
    let mut sink = Sink::new(settings, path, Arc::clone(&def.source));
    report_problems(def, &mut sink);
    // Without a section (reported as SD110) only the rules of the OpenAPI part apply.
    let has_section = def.sync.is_some();
    let checks: Vec<_> = Rule::ALL
        .iter()
        .filter(|rule| sink.enabled(**rule))
        .filter_map(|rule| match rule.dispatch() {
            Dispatch::OpenApi(check) => Some(check),
            Dispatch::Check(check) if has_section => Some(check),
            Dispatch::Check(_) | Dispatch::Loading | Dispatch::Suppressions => None,
        })
        .collect();
    let ctx = Context::new(def, samples);
    let threads = if crate::large::is_large(def) { 2 } else { 1 };
    let found = run_checks(&ctx, &checks, threads, || {
        Sink::new(settings, path, Arc::clone(&def.source))
    });
    sink.diagnostics.extend(found);
    let used = (settings.scope() == Scope::Used && has_section).then(|| UsedParts::of(&ctx));
    if threads > 1 {
        crate::large::free_aside(ctx.into_schemas());
    }
    Checked {
        diagnostics: sink.diagnostics,
        used,
    }
}

/// Runs `checks` on `threads` threads, each taking the next check when done with one; the
/// findings come back in the order of `checks` whatever thread found them.
fn run_checks<'s>(
    ctx: &Context,
    checks: &[crate::codes::Check],
    threads: usize,
    sink: impl Fn() -> Sink<'s> + Sync,
) -> Vec<Diagnostic> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut found = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(check) = checks.get(i) else {
                return found;
            };
            let mut sink = sink();
            check(ctx, &mut sink);
            found.push((i, sink.diagnostics));
        }
    };
    let mut found: Vec<(usize, Vec<Diagnostic>)> = if threads > 1 {
        std::thread::scope(|scope| {
            let helper = scope.spawn(work);
            let mut mine = work();
            // A rule that panicked on the helper panics on this thread too, as it would have
            // without the helper (the language server catches it per lint).
            mine.extend(
                helper
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p)),
            );
            mine
        })
    } else {
        work()
    };
    found.sort_unstable_by_key(|(i, _)| *i);
    found.into_iter().flat_map(|(_, d)| d).collect()
}

/// The rule a structural problem of the model is reported under.
pub(crate) fn rule_for_problem(kind: ProblemKind) -> Rule {
    match kind {
        ProblemKind::OpenApi => Rule::InvalidOpenApi,
        ProblemKind::BrokenRef | ProblemKind::ExternalRef => Rule::BrokenRef,
        ProblemKind::CircularRef => Rule::CircularRef,
        ProblemKind::ConflictingSyncKeys | ProblemKind::MissingSync => Rule::MissingSyncSection,
        ProblemKind::Overlay => Rule::InvalidOverlay,
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
        // A problem of the whole document is shown at its first key; an overlay's document is
        // located at the overlay's `overlay` key, where what it lacks is added.
        let mut span = if problem.span == def.root().span && !def.source.is_joined() {
            def.root()
                .as_object()
                .and_then(|m| m.first())
                .map_or(Span::empty(0), |m| m.key.span)
        } else {
            problem.span
        };
        let mut help = problem.help.clone();
        if problem.kind == ProblemKind::MissingSync
            && let Some(key) = misspelt_sync_key(&def.root())
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
fn misspelt_sync_key<'t>(
    root: &syncdef_definitions::Node<'t>,
) -> Option<syncdef_definitions::Key<'t>> {
    root.as_object()?
        .iter()
        .map(|m| m.key)
        .find(|k| did_you_mean(k.name, ["synchronization", "x-synchronization"]).is_some())
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
    def.root().pointer(&flow_pointer).is_some_and(|flow| {
        ["authorizationUrl", "tokenUrl", "scopes"]
            .iter()
            .any(|k| flow.get(k).is_none())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two threads find what one finds, in the same order, on every rule fixture.
    #[test]
    fn rules_on_two_threads_report_what_one_thread_reports() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let settings = RuleSettings::default();
        let samples = crate::typecheck::Samples::default();
        let mut compared = 0;
        for file in std::fs::read_dir(&dir).expect("fixtures") {
            let path = file.expect("fixture").path();
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            let Ok(def) = Definition::load_path(&path) else {
                continue;
            };
            let ctx = Context::new(&def, &samples);
            let checks: Vec<crate::codes::Check> = Rule::ALL
                .iter()
                .filter_map(|rule| match rule.dispatch() {
                    Dispatch::OpenApi(check) | Dispatch::Check(check) => Some(check),
                    Dispatch::Loading | Dispatch::Suppressions => None,
                })
                .collect();
            let sink = || Sink::new(&settings, &path, Arc::clone(&def.source));
            let one = format!("{:?}", run_checks(&ctx, &checks, 1, sink));
            for _ in 0..3 {
                let two = format!("{:?}", run_checks(&ctx, &checks, 2, sink));
                assert_eq!(one, two, "{}", path.display());
            }
            compared += 1;
        }
        assert!(compared > 50, "only {compared} fixtures compared");
    }

    fn finding(sink: &mut Sink, after: u64, message: &str) {
        std::thread::sleep(std::time::Duration::from_millis(after));
        let d = sink.diagnostic(Rule::InvalidPattern, Span::empty(0), message.to_owned());
        sink.push(d);
    }
    fn first(_: &Context, sink: &mut Sink) {
        finding(sink, 20, "first");
    }
    fn second(_: &Context, sink: &mut Sink) {
        finding(sink, 80, "second");
    }
    fn third(_: &Context, sink: &mut Sink) {
        finding(sink, 0, "third");
    }

    /// The thread that ends first takes the next rule: findings still come in rule order.
    #[test]
    fn findings_keep_the_rule_order_whichever_thread_finds_them() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid.yaml");
        let def = Definition::load_path(&path).expect("fixture");
        let samples = crate::typecheck::Samples::default();
        let ctx = Context::new(&def, &samples);
        let settings = RuleSettings::default();
        let sink = || Sink::new(&settings, &path, Arc::clone(&def.source));
        let found = run_checks(&ctx, &[first, second, third], 2, sink);
        let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages, ["first", "second", "third"]);
    }
}
