//! `UnknownRecordField`: a template reads a field the platform record does not have.

use syncdef_definitions::Span;
use syncdef_definitions::platform::EXTENSION_KEY;
use syncdef_definitions::platform::filters::{self, FilterOnly, ModuleFilters};
use syncdef_transform::PathContext;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;
use crate::templates::is_request_template;
use crate::typecheck::reads::{Loops, ReadProblem, walk};

declare_rule! {
    /// ## What it does
    /// Resolves every JSONPath a request template reads under its module's record root
    /// (`$.account`, `$.invoice`, ...) against the platform record schema
    /// (`syncdef schema --records`), including the fields tested inside filters
    /// (`[?(@.isBilling==true)]`) and the reads of `#currentvalueatpath` inside a `#loop` over a
    /// record array (`$.invoice.items`). It reports a field the record does not have (with the
    /// closest name), an index or filter applied to something that is not an array, and a field
    /// read on an array or on a scalar. The finding points at the exact characters in the
    /// template.
    ///
    /// The account is the object the platform pushes, as the vendor documents it; the other
    /// records follow the platform spec, part 2 (docs/platform-records.md). The filter
    /// properties of a module's collection are query fields, not record fields: a read of one
    /// the pushed record lacks (`$.account.email`) names the field that carries it
    /// (`corpEmail`). Fields the schema does not list (custom fields) are declared in the
    /// definition under `x-syncdef-records`, keyed by record definition; problems in that
    /// extension are reported by this rule too.
///
    /// ## Why is this bad?
    /// A misspelt field reads nothing: `#valueof($.account.nmae)` renders an empty value and the
    /// external system receives a customer without a name, or rejects it, only in production.
    /// So does a filter property: `#valueof($.account.email)` sends no e-mail address.
///
    /// ## Example
    /// ```yaml
    /// createRequest:
    ///   DisplayName: "#valueof($.account.nmae)"
    ///   BillAddr:
    ///     City: "#valueof($.account.addresses[?(@.isBiling==true)].city)"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// createRequest:
    ///   DisplayName: "#valueof($.account.name)"
    ///   BillAddr:
    ///     City: "#valueof($.account.addresses[?(@.isBilling==true)].city)"
    /// ```
    /// or, for a custom field the platform carries:
    /// ```yaml
    /// x-syncdef-records:
    ///   Account:
    ///     properties:
    ///       salesArea: {type: string}
    /// ```
    pub struct UnknownRecordField {
        title: "a template reads a field the platform record does not have",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    report_extension(ctx, sink);
    let input = ctx.records.schemas.input();
    for info in &ctx.entries {
        // Without a known module the record is unknown (SD601).
        let Some(module) = info.module else { continue };
        for template in info
            .templates
            .iter()
            .filter(|t| is_request_template(t.name()))
        {
            let (Some(compiled), Some(tree)) = (&template.compiled, &template.tree) else {
                continue;
            };
            let mut loops = Loops::default();
            for use_ in compiled.paths() {
                let own_root = use_
                    .path
                    .member_chain()
                    .next()
                    .is_some_and(|(root, _)| module.record_roots().any(|r| r == root));
                let start = match &use_.context {
                    // Other roots are SD404's (foreign), SD405's or SD406's.
                    PathContext::Root if !own_root => None,
                    context => loops.start(input, context),
                };
                let Some(start) = start else {
                    loops.enter(&use_, None);
                    continue;
                };
                match walk(start, use_.path.text(), use_.path.steps()) {
                    Ok(end) => loops.enter(&use_, end),
                    Err(problem) => {
                        let base = use_.location.range.start;
                        let range = base + problem.range.start..base + problem.range.end;
                        let span = tree.locate(ctx.text(), &use_.location, range);
                        loops.enter(&use_, None);
                        let within_loop = loops.path(&use_.context).map(str::to_owned);
                        push(
                            sink,
                            span,
                            &template.source.pointer,
                            &problem,
                            within_loop.as_deref(),
                        );
                    }
                }
            }
        }
    }
}

fn push(sink: &mut Sink, span: Span, pointer: &str, p: &ReadProblem, within_loop: Option<&str>) {
    let owner = match within_loop {
        Some(path) if p.prefix.trim_start_matches(['$', '@']).is_empty() => {
            format!("an item of `{path}`")
        }
        Some(path) => format!("`{}` of an item of `{path}`", p.prefix),
        None => format!("`{}`", p.prefix),
    };
    let suggest = |candidates: &[String]| {
        did_you_mean(&p.name, candidates.iter().map(String::as_str)).map_or_else(
            || {
                format!(
                    "it has: {}; declare a field the spec does not list under `{EXTENSION_KEY}`",
                    crate::typecheck::name_list(candidates)
                )
            },
            |s| format!("did you mean `{s}`?"),
        )
    };
    let unknown = |candidates: &[String], definition: Option<&str>| match definition
        .and_then(|d| filter_only(d, &p.name))
    {
        Some((module, only)) => filter_property_read(p, &owner, module, only),
        None => (
            format!("{owner} has no field `{}`", p.name),
            suggest(candidates),
        ),
    };
    let (message, help) =
        crate::typecheck::reads::problem_words(p, &owner, "@.isBilling==true", suggest, unknown);
    let d = sink
        .diagnostic(Rule::UnknownRecordField, span, message)
        .with_pointer(pointer.to_owned())
        .with_help(help);
    sink.push(d);
}

/// The module whose record follows `definition` (`Account`), when `name` is a filter property
/// of its collection that the pushed record does not carry (`email`).
fn filter_only(
    definition: &str,
    name: &str,
) -> Option<(&'static ModuleFilters, &'static FilterOnly)> {
    let module = filters::of_record(definition)?;
    Some((module, module.filter_only(name)?))
}

/// The message and help for a read of a filter property the pushed record does not carry
/// (`$.account.email`): writers take the collection's query names for record fields, so name
/// the field that holds the value rather than a look-alike.
fn filter_property_read(
    p: &ReadProblem,
    owner: &str,
    module: &ModuleFilters,
    only: &FilterOnly,
) -> (String, String) {
    let record = module.record.to_lowercase();
    let is_filter = format!(
        "{owner} has no field `{0}`: `{0}` is a filter property of the {1} collection (`GET {2}`)",
        p.name, module.module, module.collection
    );
    match only.field {
        Some(field) => {
            let path = if p.prefix.is_empty() {
                field.to_owned()
            } else {
                format!("{}.{field}", p.prefix)
            };
            (
                format!("{is_filter}; the pushed {record} carries it as `{field}`"),
                format!("read `{path}`"),
            )
        }
        None => (
            format!("{is_filter}, not a field of the pushed {record}"),
            format!(
                "the pushed {record} has no field for it (`syncdef schema --records` lists its fields); declare one your platform sends under `{EXTENSION_KEY}`"
            ),
        ),
    }
}

fn report_extension(ctx: &Context, sink: &mut Sink) {
    let Some(ext) = &ctx.records.extension else {
        return;
    };
    for problem in &ctx.records.problems {
        let span = ext
            .pointer_key_span(&problem.pointer)
            .or_else(|| ext.pointer(&problem.pointer).map(|n| n.span))
            .unwrap_or(ext.span);
        let d = sink
            .diagnostic(Rule::UnknownRecordField, span, problem.message.clone())
            .with_pointer(format!("/{EXTENSION_KEY}{}", problem.pointer))
            .with_help("`x-syncdef-records` extends the platform record schema: see `syncdef schema --records` for the definitions it may name");
        sink.push(d);
    }
}
