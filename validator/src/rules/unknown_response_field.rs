//! `UnknownResponseField`: a response template reads a field no response of its operation has.

use syncdef_transform::PathContext;

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;
use crate::templates::response_name;
use crate::typecheck::reads::{Loops, ReadProblem, walk};
use crate::typecheck::response_schemas;

declare_rule! {
    /// ## What it does
    /// Resolves every JSONPath a response template (`createResponse`, `updateResponse`, ...)
    /// reads against the JSON response schemas of the operation it belongs to, `$ref`s and
    /// `allOf`/`anyOf`/`oneOf` followed, reads inside a `#loop` against the loop's item schema.
    /// A response template is applied to whatever the system answers, so a read is accepted when
    /// any declared response (success or error) has the field; it is reported when none has it.
    /// Declared properties are the contract: a property no schema declares is unknown unless the
    /// object accepts others explicitly (`additionalProperties`), names it in `required`, or
    /// declares no property at all. Operations whose responses declare no JSON schema are not
    /// checked.
///
    /// ## Why is this bad?
    /// A misspelt read gives nothing: the external id is never stored, so the next push creates
    /// the record again, or the error messages of a failed push are lost.
///
    /// ## Example
    /// ```yaml
    /// # The 200 response is {"Customer": {"Id": ..., "SyncToken": ...}}
    /// createResponse:
    ///   id: "#valueof($.Customer.ID)"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// createResponse:
    ///   id: "#valueof($.Customer.Id)"
    /// ```
    pub struct UnknownResponseField {
        title: "a response template reads a field no response of its operation has",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for site in &info.operations {
            let Some(op) = site.operation else { continue };
            let Some(template) = info.template(&response_name(op)) else {
                continue;
            };
            let (Some(compiled), Some(tree)) = (&template.compiled, &template.tree) else {
                continue;
            };
            let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
                continue;
            };
            let schemas = response_schemas(ctx, &operation, false);
            if schemas.is_empty() {
                continue;
            }
            let uses = compiled.paths();
            // Per path: the problem in each schema (`None`: fine there).
            let mut problems: Vec<Vec<Option<ReadProblem>>> = vec![Vec::new(); uses.len()];
            for converted in &schemas {
                let Some(root) = converted.root() else {
                    continue;
                };
                let mut loops = Loops::default();
                for (i, use_) in uses.iter().enumerate() {
                    let start = match &use_.context {
                        PathContext::Root | PathContext::LoopElement(_) => {
                            loops.start(root, &use_.context)
                        }
                        _ => None,
                    };
                    let result = start.map(|s| walk(s, use_.path.text(), use_.path.steps()));
                    match result {
                        Some(Ok(end)) => {
                            loops.enter(use_, end);
                            problems[i].push(None);
                        }
                        Some(Err(p)) => {
                            loops.enter(use_, None);
                            problems[i].push(Some(p));
                        }
                        None => {
                            loops.enter(use_, None);
                            problems[i].push(None);
                        }
                    }
                }
            }
            for (use_, found) in uses.iter().zip(problems) {
                if found.is_empty() || found.iter().any(Option::is_none) {
                    continue;
                }
                let Some(Some(problem)) = found.into_iter().next() else {
                    continue;
                };
                let base = use_.location.range.start;
                let range = base + problem.range.start..base + problem.range.end;
                let span = tree.locate(ctx.text(), &use_.location, range);
                let (message, help) = describe(&problem);
                let d = sink
                    .diagnostic(Rule::UnknownResponseField, span, message)
                    .with_pointer(template.source.pointer.clone())
                    .with_label(site.text.span, "the operation whose responses are read")
                    .with_help(help);
                sink.push(d);
            }
        }
    }
}

fn describe(p: &ReadProblem) -> (String, String) {
    let owner = if p.prefix.trim_start_matches(['$', '@']).is_empty() {
        "the response".to_owned()
    } else {
        format!("`{}` in the response", p.prefix)
    };
    let suggest = |c: &[String]| match did_you_mean(&p.name, c.iter().map(String::as_str)) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!(
            "the response schemas declare: {}",
            crate::typecheck::name_list(c)
        ),
    };
    let unknown = |candidates: &[String], _: Option<&str>| {
        (
            format!(
                "{owner} has no field `{}` in any declared response schema",
                p.name
            ),
            suggest(candidates),
        )
    };
    crate::typecheck::reads::problem_words(p, &owner, "@.FIELD==VALUE", suggest, unknown)
}
