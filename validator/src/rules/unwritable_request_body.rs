//! `UnwritableRequestBody`: an operation a request template feeds declares its request body
//! in no media type the engine writes.

use syncdef_definitions::openapi::{MediaChoice, WRITTEN_MEDIA_TYPES, request_media};

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;
use crate::templates::request_name;

declare_rule! {
    /// ## What it does
    /// Reports a `create`, `update` or `delete` (or an action's call) whose request template
    /// renders a body, when the operation's `requestBody` lists media types and the engine
    /// writes none of them: it writes JSON (`application/json`, a `+json` type such as
    /// `application/merge-patch+json`, with or without parameters such as `; charset=utf-8`),
    /// `application/x-www-form-urlencoded` and `multipart/form-data`. It also reports an
    /// operation that does not declare the media type `x-syncdef.requestMediaType` names for
    /// its entry.
    ///
    /// ## Why is this bad?
    /// An operation that declares only `text/plain` or `application/xml` would be sent a body
    /// it says it does not take, and every push would be refused (`415 Unsupported Media
    /// Type`), or its body misread; the engine refuses to load such a definition. A media type
    /// the definition asks for and the operation does not declare is a mistake of one or the
    /// other.
    ///
    /// ## Example
    /// ```yaml
    /// /customers/post:
    ///   requestBody:
    ///     content:
    ///       text/plain:
    ///         schema: {type: string}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    ///   requestBody:
    ///     content:
    ///       application/json:
    ///         schema: {$ref: "#/components/schemas/Customer"}
    /// ```
    pub struct UnwritableRequestBody {
        title: "an operation a request template feeds takes its body in no media type the engine writes",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let root = ctx.doc.root();
    let extension = &ctx.extension;
    for info in &ctx.entries {
        let preferred = extension.request_media_type(info.name());
        for site in &info.operations {
            let template = request_name(site.operation.unwrap_or(site.key));
            if info.template(&template).is_none() {
                continue;
            }
            let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
                continue;
            };
            // The engine's own choice of the media type it writes.
            let (message, help) = match request_media(root, operation, preferred) {
                None | Some(MediaChoice::Chosen(_)) => continue,
                Some(MediaChoice::Unwritable { declared }) => (
                    format!(
                        "`{}` takes its request body as {}, and the engine writes the body `{template}` renders in none of them: it writes {WRITTEN_MEDIA_TYPES}",
                        site.text.value,
                        crate::typecheck::name_list(&declared)
                    ),
                    "declare a media type the external system accepts and the engine writes (`application/json`, `application/x-www-form-urlencoded`, `multipart/form-data`) in the operation's `requestBody.content`, or point the entry at an operation that takes one".to_owned(),
                ),
                Some(MediaChoice::NotDeclared {
                    preferred,
                    declared,
                }) => (
                    format!(
                        "`x-syncdef.requestMediaType` writes the request bodies of `{}` as `{preferred}`, and `{}` takes its body only as {}",
                        info.name(),
                        site.text.value,
                        crate::typecheck::name_list(&declared)
                    ),
                    format!(
                        "declare `{preferred}` in the operation's `requestBody.content`, or name a media type every operation of the entry declares"
                    ),
                ),
            };
            let d = sink
                .diagnostic(Rule::UnwritableRequestBody, site.text.span, message)
                .with_pointer(site.pointer)
                .with_help(help);
            sink.push(d);
        }
    }
}
