//! `UnencodableRequestBody`: a request template writes a body the media type its operation
//! takes cannot hold.

use syncdef_definitions::Node;
use syncdef_definitions::openapi::resolve;
use syncdef_definitions::openapi::{FieldLayout, Unwritable};
use syncdef_transform::OutputShape;

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, OperationSite, Resolution, Sink, Template};
use crate::request_schema::chosen_media;
use crate::rule::declare_rule;
use crate::rules::request_body_mismatch::render_over_sample;
use crate::templates::request_name;
use crate::typecheck::shape::{NAME_MARKER, producer};

declare_rule! {
    /// ## What it does
    /// Reports a request template (`createRequest`, an action's `{Action}Request`) whose
    /// output cannot be written in the media type its operation takes, when that is a form
    /// (`application/x-www-form-urlencoded`) or a multipart body (`multipart/form-data`):
    /// their fields are the members of an object, so a template writing an array or a single
    /// value is reported at its name; a value that the property's `encoding` has no form for
    /// (an object inside an array written with `style: form`, a property with `style: matrix`,
    /// an object in a part whose `contentType` is `text/plain`) is reported at the template key
    /// that writes it. The template is looked at as written and rendered over the entry's
    /// sample record, as SD802 renders it.
    ///
    /// ## Why is this bad?
    /// The engine writes the body the template renders in the media type the operation
    /// declares (docs/engine.md, "Request bodies"); a body that media type cannot hold is
    /// refused before anything is sent, on every push.
    ///
    /// ## Example
    /// ```yaml
    /// # /v1/customers/post takes application/x-www-form-urlencoded
    /// createRequest:
    ///   - email: "#valueof($.account.email)"
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// createRequest:
    ///   email: "#valueof($.account.email)"
    /// ```
    pub struct UnencodableRequestBody {
        title: "a request template writes a body its operation's form or multipart media type cannot hold",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let root = ctx.doc.root();
    let extension = &ctx.extension;
    for info in &ctx.entries {
        let preferred = extension.request_media_type(info.name());
        for site in &info.operations {
            let Some(template) = info.template(&request_name(site.operation.unwrap_or(site.key)))
            else {
                continue;
            };
            let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
                continue;
            };
            let Some(media) = chosen_media(root, operation, preferred) else {
                continue;
            };
            let Some(layout) = FieldLayout::of(&media) else {
                continue;
            };
            let about = About {
                site,
                media: media.media.name,
            };
            // A body that is no object where the schema asks for one is SD802's finding.
            let object_schema = resolve(root, media.media.schema)
                .and_then(|s| s.get("type"))
                .and_then(Node::as_str)
                == Some("object");
            let reported = |refused: &Unwritable| !(object_schema && refused.pointer.is_empty());
            if let Some(refused) = as_written(template, &layout).filter(reported) {
                report(ctx, sink, template, &about, &refused, None);
            } else if let Some((refused, sample)) =
                as_rendered(ctx, info, template, &layout).filter(|(refused, _)| reported(refused))
            {
                report(ctx, sink, template, &about, &refused, Some(sample));
            }
        }
    }
}

/// What a finding is about: the operation and the media type it takes.
struct About<'s, 'a> {
    site: &'s OperationSite<'a>,
    media: &'a str,
}

/// What the template's constant parts show, before any record: a body that is an array or a
/// single value.
fn as_written(template: &Template, layout: &FieldLayout) -> Option<Unwritable> {
    let compiled = template.compiled.as_ref()?;
    let OutputShape::Constant(value) = compiled.output_shape() else {
        return None;
    };
    layout.fields(&value.to_json_compact()).err()
}

/// What the template renders over the entry's sample record, with which sample.
fn as_rendered(
    ctx: &Context,
    info: &EntryInfo,
    template: &Template,
    layout: &FieldLayout,
) -> Option<(Unwritable, &'static str)> {
    let rendered = render_over_sample(ctx, info, info.module?, template.compiled.as_ref()?)?;
    if rendered.output.is_null() {
        // No body is sent: nothing to write.
        return None;
    }
    let refused = layout.fields(&rendered.output.to_string()).err()?;
    Some((refused, rendered.sample))
}

fn report(
    ctx: &Context,
    sink: &mut Sink,
    template: &Template,
    about: &About,
    refused: &Unwritable,
    sample: Option<&str>,
) {
    let name = &template.source.name.value;
    let span = template
        .tree
        .as_ref()
        .map_or(template.source.name.span, |tree| {
            let (_, span) = producer(tree.root(), NAME_MARKER, &refused.pointer);
            if span == NAME_MARKER {
                template.source.name.span
            } else {
                tree.node_span(ctx.text(), span)
            }
        });
    let rendered = sample.map_or_else(String::new, |s| format!("rendered over {s}, "));
    let at = if refused.pointer.is_empty() {
        String::new()
    } else {
        format!("at `{}`, ", refused.pointer)
    };
    let d = sink
        .diagnostic(
            Rule::UnencodableRequestBody,
            span,
            format!(
                "{rendered}`{name}` writes a body that cannot be sent as `{}` (the media type `{}` takes): {at}{}",
                about.media, about.site.text.value, refused.reason
            ),
        )
        .with_pointer(template.source.pointer.clone())
        .with_label(
            about.site.text.span,
            "the operation whose media type the body is written in",
        )
        .with_help(
            "change the template so that the media type can hold its output, or declare the media type the output is meant for (`application/json`) and name it in `x-syncdef.requestMediaType`",
        );
    sink.push(d);
}
