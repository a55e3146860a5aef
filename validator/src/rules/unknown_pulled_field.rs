//! `UnknownPulledField`: a pull's response template writes a field the platform record does
//! not have.

use syncdef_definitions::Node;
use syncdef_definitions::platform::filters;
use syncdef_definitions::platform::{FieldSchema, Property};

use crate::codes::Rule;
use crate::context::{Context, Sink, Template};
use crate::rule::declare_rule;
use crate::rules::pulled_record_shape::pull_templates;
use crate::suggest::hint;
use crate::typecheck::pulled::{is_loop, record_element, written_members};

declare_rule! {
    /// ## What it does
    /// Checks every field a `batchReadResponse` or `readResponse` writes under the module's
    /// root against the platform record's schema (`syncdef schema --records`, extended by
    /// `x-syncdef-records`), nested objects and the elements of `#loop`s included, the way
    /// SD801 checks what push templates read. The contents of `#ifgroup` keys count as written;
    /// levels with other function keys (`#eval`) are not judged.
///
    /// ## Why is this bad?
    /// A field the platform record does not have is dropped or refused when the record is
    /// written to the platform: the value pulled from the external system is lost.
///
    /// ## Example
    /// ```yaml
    /// readResponse:
    ///   account:
    ///     integrationId: "#valueof($.Customer.Id)"
    ///     email: "#valueof($.Customer.PrimaryEmailAddr.Address)"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///     corpEmail: "#valueof($.Customer.PrimaryEmailAddr.Address)"
    /// ```
    pub struct UnknownPulledField {
        title: "a pull template writes a field the platform record does not have",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let Some(module) = info.module else { continue };
        let Some(schema) = ctx.records.schemas.record(module.root) else {
            continue;
        };
        for (template, tree_root) in pull_templates(info) {
            let record = record_element(&tree_root)
                .and_then(|element| element.get(module.root))
                .filter(|r| r.as_object().is_some());
            if let Some(record) = record {
                let written = Written { ctx, template };
                written.fields(sink, &record, schema, module.root);
            }
        }
    }
}

/// The fields a template writes, walked against the record schema.
struct Written<'c, 'a> {
    ctx: &'c Context<'a>,
    template: &'c Template<'a>,
}

impl Written<'_, '_> {
    /// Checks the members of `object` (written at `at`, a dotted path for messages) against
    /// `schema`.
    fn fields(&self, sink: &mut Sink, object: &Node, schema: FieldSchema<'_>, at: &str) {
        let Some(members) = written_members(object) else {
            return;
        };
        for member in members {
            let name = member.key.name;
            let path = format!("{at}.{name}");
            match schema.property(name) {
                Property::Known(field) => self.value(sink, &member.value, field, &path),
                Property::Open => {}
                Property::Unknown => self.unknown(sink, member.key.span, &path, name, schema),
            }
        }
    }

    /// Descends into a written value: an object literal, or the element of a `#loop` over an
    /// array field.
    fn value(&self, sink: &mut Sink, value: &Node, field: FieldSchema<'_>, at: &str) {
        let Some(members) = value.as_object() else {
            return;
        };
        match members.first() {
            Some(only) if members.len() == 1 && is_loop(&only) => {
                if let Some(items) = field.items() {
                    self.fields(sink, &only.value, items, &format!("{at}[]"));
                }
            }
            _ => self.fields(sink, value, field, at),
        }
    }

    fn unknown(
        &self,
        sink: &mut Sink,
        key: syncdef_definitions::Span,
        path: &str,
        name: &str,
        schema: FieldSchema<'_>,
    ) {
        let tree = self
            .template
            .tree
            .as_ref()
            .expect("pull_templates gives parsed templates");
        let span = tree.node_span(self.ctx.text(), key);
        let renamed = schema
            .definition()
            .and_then(filters::of_record)
            .and_then(|module| module.filter_only(name))
            .and_then(|only| only.field);
        let help = match renamed {
            // Writers take the collection's query names for record fields (`email`).
            Some(field) => format!(
                "`{name}` is a filter property of the collection; the record carries it as `{field}`: write that"
            ),
            None => hint(name, schema.property_names()).unwrap_or_else(|| {
                "write a field of the platform record (`syncdef schema --records`), or declare it under `x-syncdef-records`".into()
            }),
        };
        let d = sink
            .diagnostic(
                Rule::UnknownPulledField,
                span,
                format!(
                    "`{}` writes `{path}`, which the platform record does not have",
                    self.template.source.name.value
                ),
            )
            .with_pointer(self.template.source.pointer.clone())
            .with_help(help);
        sink.push(d);
    }
}
