//! `RequestBodyMismatch`: a request template's output does not fit the operation's request
//! body schema.

use std::collections::HashSet;

use jsonschema::error::ValidationErrorKind;
use serde_json::{Map, Value};
use syncdef_definitions::model::ProblemKind;
use syncdef_definitions::{Node, Span};

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Resolution, Sink, Template};
use crate::platform::Module;
use crate::request_schema::chosen_media;
use crate::rule::declare_rule;
use crate::templates::request_name;
use crate::typecheck::RecordValueTypes;
use crate::typecheck::openapi::Direction;
use crate::typecheck::shape::{self, NAME_MARKER, ShapeFinding, display, producer};
use syncdef_definitions::pointer;

declare_rule! {
    /// ## What it does
    /// Checks the output of each request template (`createRequest`, `updateRequest`,
    /// `deleteRequest`, and an `ApiPath` action's `{Action}Request`) against the request body
    /// schema of the operation it feeds (OpenAPI
    /// 3.0: `$ref`s, `nullable`, `allOf`/`anyOf`/`oneOf`, `additionalProperties`, `readOnly`),
    /// the schema of the media type the engine writes the body in: JSON, a form or a multipart
    /// body alike, whose fields are written from the value the schema describes (SD815 checks
    /// that they can be).
    /// It reports required properties the template never produces (or produces only under an
    /// `#ifgroup`), properties the schema does not allow, and values whose type cannot match
    /// (a constant string where an integer is required, an object where an array is, a
    /// `#valueof` of a platform field of another type).
    ///
    /// It reports a property the schema marks `readOnly: true` that the template writes, itself
    /// or through a `$ref` to a schema marked so (OpenAPI 3.0 ignores a `$ref`'s siblings): such
    /// a property "SHOULD NOT be sent as part of the request" (OpenAPI 3.0.3, Schema Object),
    /// the system sets it (a balance, a timestamp, an id). A read-only property the schema also
    /// lists in `required` is required in answers only (OpenAPI says so): a template that leaves
    /// it out has no finding, one that writes it only this one. This is an error and not a
    /// warning, although OpenAPI writes SHOULD NOT: the property is part of the body not
    /// fitting the schema as a request, as an unknown property is; the system refuses it
    /// (QuickBooks' `Balance`, Business Central's `id`) or drops it without a word, so the push
    /// never does what the template says on any record; and a warning would leave lint-clean a
    /// definition whose body the request schema refuses. When the system does take the
    /// property, the description is what is wrong: an overlay that removes its `readOnly` says
    /// so where every check reads it.
    ///
    /// The check runs twice, and reports each root cause once: on the template's shape (keys,
    /// constants, `#ifgroup` keys as optional, `#loop` as arrays, the type of `#valueof` from
    /// the platform record schema, and of every other function as the template language's
    /// function table declares it; a literal argument is text, so
    /// `#ifcondition(#valueof($.account.isTaxable),true,true,false)` gives the string
    /// `"true"` or `"false"`, not a boolean), and on a rendering of the template over a sample record,
    /// validated with the `jsonschema` crate. The sample is synthesised from the platform record
    /// schema (every field present), or given with `syncdef lint --record ENTRY=FILE`; over a
    /// synthesised sample only structural findings (required, not allowed, none of the
    /// alternatives) are reported: its values are made up (a field whose type the spec does not
    /// show is synthesised as a string), so value types are the static pass's job there; a
    /// template that reads nothing writes the same body for every record, so every finding on
    /// it is reported (a constant body that fits two alternatives of a `oneOf`). The
    /// external ids of related records (`$.related.<Entry>.IntegrationId`) are stand-ins unless
    /// given with `--related ENTRY=ID`, as `syncdef push --dry-run` takes them. Each finding
    /// points at the template key that produced the value.
///
    /// ## Why is this bad?
    /// The external system rejects the request (`400 Bad Request`), or worse, silently drops a
    /// property it does not know, on every push of every record.
///
    /// ## Example
    /// ```yaml
    /// # The body schema requires DisplayName (string) and has `additionalProperties: false`;
    /// # its Balance is `readOnly`.
    /// createRequest:
    ///   Name: "#valueof($.account.name)"
    ///   Taxable: "yes"
    ///   Balance: "#valueof($.account.creditLimitAmount)"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// createRequest:
    ///   DisplayName: "#valueof($.account.name)"
    ///   Taxable: "#valueof($.account.isTaxable)"
    /// ```
    pub struct RequestBodyMismatch {
        title: "a request template's output does not fit the operation's request body schema",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let extension = &ctx.extension;
    // Entries whose bodies the engine sends unchecked (`x-syncdef.requestValidation.skip`).
    let skipped: &[String] = extension
        .request_validation
        .as_ref()
        .map_or(&[], |r| r.skip.as_slice());
    for info in &ctx.entries {
        let Some(module) = info.module else { continue };
        for site in &info.operations {
            // The record's own requests, and `ApiPath` actions (their body is
            // `{Action}Request`): the engine checks both before sending. Reads send none.
            let sends = match site.operation {
                Some(op @ ("create" | "update" | "delete")) => op,
                Some(_) => continue,
                None => site.key,
            };
            let Some(template) = info.template(&request_name(sends)) else {
                continue;
            };
            let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
                continue;
            };
            let root = &ctx.doc.root();
            // The schema the engine checks bodies against: one it cannot compile refuses the
            // definition's load, so it is an error here too.
            // A broken `$ref` is reported where it is written (SD106); the schema that
            // cannot compile because of it is the same root cause.
            let broken_refs = ctx
                .doc
                .problems
                .iter()
                .any(|p| matches!(p.kind, ProblemKind::BrokenRef | ProblemKind::ExternalRef));
            let checked = !broken_refs && !skipped.iter().any(|e| e == info.name());
            // The schema of the media type the engine writes the body in, whichever it is.
            let preferred = extension.request_media_type(info.name());
            let Some(schema) =
                chosen_media(*root, operation, preferred).and_then(|m| m.media.schema)
            else {
                continue;
            };
            // The conversion and compilation `RequestBodySchema::of_operation` makes for the
            // engine, shared with the rest of this rule (once per schema, not twice).
            let converted = ctx.schemas.get(root, &schema, Direction::Request);
            if let (true, Some(error)) = (checked, &converted.compile_error) {
                let why = format!("its request body schema does not compile: {error}");
                let d = sink
                    .diagnostic(
                        Rule::RequestBodyMismatch,
                        site.text.span,
                        format!("`{}`: {why}; the engine refuses to load the definition", site.text.value),
                    )
                    .with_pointer(site.pointer)
                    .with_help("fix the schema (a `type` the JSON Schema dialect knows, a `$ref` that resolves), or turn the check off for the entry with `x-syncdef.requestValidation.skip`");
                sink.push(d);
                continue;
            }
            check_template(ctx, sink, info, module, template, &schema, site.text.span);
        }
    }
}

fn check_template(
    ctx: &Context,
    sink: &mut Sink,
    info: &EntryInfo,
    module: &Module,
    template: &Template,
    schema: &Node,
    operation_span: Span,
) {
    let Some(tree) = &template.tree else { return };
    let converted = ctx.schemas.get(&ctx.doc.root(), schema, Direction::Request);
    let Some(schema_root) = converted.root() else {
        return;
    };
    let name_span = template.source.name.span;
    let text = ctx.text();
    let span_of = |s: Span| {
        if s == NAME_MARKER {
            name_span
        } else {
            tree.node_span(text, s)
        }
    };
    let types = RecordValueTypes {
        records: &ctx.records.schemas,
        module,
    };
    let findings = shape::check(&tree.root(), NAME_MARKER, schema_root, &types, &span_of);
    let mut seen: HashSet<(Span, String)> = HashSet::new();
    for f in findings {
        seen.insert((f.span, f.category.clone()));
        push(sink, template, &f, operation_span, None);
    }
    // The rendering: only when the template compiles and the schema compiles.
    let (Some(compiled), Some(validator)) = (&template.compiled, &converted.validator) else {
        return;
    };
    let Some(Rendered {
        output,
        given,
        sample,
    }) = render_over_sample(ctx, info, module, compiled)
    else {
        return;
    };
    // A template that reads nothing writes the same body for every record: whatever refuses
    // it here refuses every push, as a given sample's findings do.
    let constant = compiled.paths().is_empty();
    for error in validator.iter_errors(&output) {
        let pointer = error.instance_path().as_str().to_owned();
        let kind = error.kind();
        let structural = matches!(
            kind,
            ValidationErrorKind::Required { .. }
                | ValidationErrorKind::AdditionalProperties { .. }
                | ValidationErrorKind::AnyOf { .. }
                | ValidationErrorKind::OneOfNotValid { .. }
        );
        if !given && !constant && !structural {
            continue;
        }
        let targets: Vec<(String, String)> = match kind {
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default().to_owned();
                vec![(pointer.clone(), format!("required:{name}"))]
            }
            ValidationErrorKind::AdditionalProperties { unexpected } => unexpected
                .iter()
                .map(|n| {
                    (
                        format!("{pointer}/{}", pointer::escape(n)),
                        format!("additional:{n}"),
                    )
                })
                .collect(),
            ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
                vec![(pointer.clone(), "required:anyOf".to_owned())]
            }
            ValidationErrorKind::Type { .. } => vec![(pointer.clone(), "type".to_owned())],
            other => vec![(pointer.clone(), other.keyword().to_owned())],
        };
        for (at, category) in targets {
            let (_, span) = producer(tree.root(), NAME_MARKER, &at);
            let span = span_of(span);
            if !seen.insert((span, category.clone())) {
                continue;
            }
            let finding = ShapeFinding {
                span,
                pointer: at.clone(),
                category,
                message: format!(
                    "rendered over {sample}, the template gives a body that does not fit the schema at {}: {error}",
                    display(&pointer)
                ),
                help: "change the template so that its output fits the operation's request body schema".into(),
            };
            push(sink, template, &finding, operation_span, Some(sample));
        }
    }
    // `readOnly` is an annotation to the validator, so the rendering is walked for what it
    // writes: the keys a template computes are seen only here.
    for (pointer, name, via) in shape::read_only_written(&output, schema_root) {
        let at = format!("{pointer}/{}", pointer::escape(&name));
        let (_, span) = producer(tree.root(), NAME_MARKER, &at);
        let finding = shape::read_only_finding(span_of(span), &pointer, &name, via);
        if seen.insert((finding.span, finding.category.clone())) {
            push(sink, template, &finding, operation_span, Some(sample));
        }
    }
}

/// A request template rendered over the entry's sample record.
pub(crate) struct Rendered {
    /// What the template wrote.
    pub output: Value,
    /// Whether the sample was given (`--record`) rather than synthesised.
    pub given: bool,
    /// Which sample, as messages name it.
    pub sample: &'static str,
}

/// `compiled` (a request template of entry `info`) rendered over the entry's sample record, as
/// the engine would render it for a push: `None` when there is no sample or the template
/// fails on it (evaluation errors surface in dry-runs with the record that causes them).
pub(crate) fn render_over_sample(
    ctx: &Context,
    info: &EntryInfo,
    module: &Module,
    compiled: &syncdef_transform::Template,
) -> Option<Rendered> {
    let given = ctx.samples.records.get(info.name());
    let record = given
        .cloned()
        .or_else(|| ctx.records.schemas.sample(module.root))?;
    // A line's templates also read its parent (`$.invoice` beside `$.invoiceItem`).
    let parent = module
        .parent_module()
        .and_then(|p| Some((p.root, ctx.records.schemas.sample(p.root)?)));
    let records = std::iter::once((module.root, record)).chain(parent);
    let input = template_input(ctx, info, records);
    let output = compiled
        .apply(&syncdef_transform::Value::from(input))
        .ok()?;
    Some(Rendered {
        output: Value::from(output),
        given: given.is_some(),
        sample: if given.is_some() {
            "the sample given with `--record`"
        } else {
            "a sample record synthesised from the platform record schema"
        },
    })
}

fn push(
    sink: &mut Sink,
    template: &Template,
    f: &ShapeFinding,
    operation_span: Span,
    _sample: Option<&str>,
) {
    let d = sink
        .diagnostic(Rule::RequestBodyMismatch, f.span, f.message.clone())
        .with_pointer(template.source.pointer.clone())
        .with_label(
            operation_span,
            "the operation whose request body schema is checked",
        )
        .with_help(f.help.clone());
    sink.push(d);
}

/// What a request template is applied to: the record under its root, the server variables'
/// defaults, stand-ins for the external id and the pre-action value, and the external ids of
/// related records (`$.related.<Entry>.IntegrationId`): those given with `--related`, a
/// stand-in for the others (the engine refuses to send a body whose related id is unknown, so
/// the rendering assumes each is known).
fn template_input<'r>(
    ctx: &Context,
    info: &EntryInfo,
    records: impl Iterator<Item = (&'r str, Value)>,
) -> Value {
    let mut vars = Map::new();
    for server in ctx
        .doc
        .root()
        .get("servers")
        .and_then(Node::as_array)
        .unwrap_or_default()
    {
        for m in server
            .get("variables")
            .and_then(Node::as_object)
            .unwrap_or_default()
        {
            let default = m
                .value
                .get("default")
                .and_then(Node::as_str)
                .unwrap_or("")
                .to_owned();
            vars.entry(m.key.name.to_string())
                .or_insert(Value::String(default));
        }
    }
    let mut input = Map::new();
    for (root, record) in records {
        input.insert(root.to_owned(), record);
    }
    input.insert("serverVariables".into(), Value::Object(vars));
    input.insert("externalId".into(), Value::String("1".into()));
    // What the entry's `Body` pre-actions read from their operations' sample answers, as a
    // dry-run reads them: `$.syncToken` the first, `$.syncTokens` each by name. Without such
    // an action a stand-in: SD405 reports a template reading the token then.
    let read = crate::typecheck::action_values::sampled(ctx, info);
    let first = read.first().map_or("1", |(_, value)| value.as_str());
    input.insert("syncToken".into(), Value::String(first.to_owned()));
    let tokens: Map<String, Value> = read
        .into_iter()
        .map(|(name, value)| (name, Value::String(value)))
        .collect();
    input.insert("syncTokens".into(), Value::Object(tokens));
    let related: Map<String, Value> = ctx
        .entries
        .iter()
        .map(|e| {
            let id = ctx
                .samples
                .related
                .get(e.name())
                .map_or("1", String::as_str);
            let mut ids = Map::new();
            ids.insert("IntegrationId".into(), Value::String(id.to_owned()));
            (e.name().to_owned(), Value::Object(ids))
        })
        .collect();
    input.insert("related".into(), Value::Object(related));
    Value::Object(input)
}
