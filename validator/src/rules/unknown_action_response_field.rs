//! `UnknownActionResponseField`: an action reads a field its operation's response does not have.

use syncdef_definitions::model::Text;

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;
use crate::typecheck::{FieldLookup, lookup_field, response_headers, response_schemas};

declare_rule! {
    /// ## What it does
    /// Checks what an `ApiPath` pre- or post-synchronization action reads from the answer of its
    /// operation: each `name: field` mapping of its `schema` (`SyncToken: Customer.SyncToken`)
    /// and its `headerValue`. A field is read as the engine reads it: a body member (dots
    /// separate nested members, a member whose own name has dots wins: `@odata.etag`), or a
    /// response header of that name. It must be declared by a success (2xx) response: a property
    /// of its JSON schema (declared properties are the contract, as in SD803) or one of its
    /// `headers`. Operations whose success responses declare neither are not checked, unless
    /// they declare their answer in media types none of which is JSON (`text/plain`): the
    /// engine reads action values from a JSON answer, so a body field read from it is
    /// reported.
///
    /// ## Why is this bad?
    /// The action reads nothing, so the update is sent without its concurrency token
    /// (QuickBooks answers error 5010, Business Central 412) or without the value it needs.
///
    /// ## Example
    /// ```yaml
    /// SyncToken:
    ///   type: ApiPath
    ///   path: /customer/{IntegrationId}/get
    ///   schema: {type: String, SyncToken: Customer.Synctoken}
    ///   in: Body
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///   schema: {type: String, SyncToken: Customer.SyncToken}
    /// ```
    pub struct UnknownActionResponseField {
        title: "an action reads a field its operation's response does not have",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for (_, action) in info.actions() {
            let Some(schema) = &action.schema else {
                continue;
            };
            let Some(site) = info
                .operations
                .iter()
                .find(|o| o.operation.is_none() && o.pointer == action.pointer)
            else {
                continue;
            };
            let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
                continue;
            };
            let bodies = response_schemas(ctx, &operation, true);
            let headers = response_headers(ctx.doc.root(), operation);
            if bodies.is_empty() && headers.is_empty() {
                report_unreadable_answer(ctx, sink, action, site.text, operation);
                continue;
            }
            let sources = schema
                .fields
                .iter()
                .map(|f| &f.source)
                .chain(schema.header_value.iter());
            for source in sources {
                check_source(sink, &action.pointer, site.text, source, &bodies, &headers);
            }
        }
    }
}

fn check_source(
    sink: &mut Sink,
    pointer: &str,
    operation: &Text,
    source: &Text,
    bodies: &[std::sync::Arc<crate::typecheck::openapi::Converted>],
    headers: &[&str],
) {
    let name = source.value.as_str();
    if headers.iter().any(|h| h.eq_ignore_ascii_case(name)) {
        return;
    }
    let mut candidates: Vec<String> = Vec::new();
    for body in bodies {
        let Some(root) = body.root() else { return };
        match lookup_field(root, name) {
            FieldLookup::Found(_) => return,
            FieldLookup::Missing(names) => candidates.extend(names),
        }
    }
    let last = name.rsplit('.').next().unwrap_or(name);
    let suggestion = did_you_mean(last, candidates.iter().map(String::as_str))
        .or_else(|| did_you_mean(name, headers.iter().copied()));
    let help = match suggestion {
        Some(s) => format!("did you mean `{s}`?"),
        None if candidates.is_empty() && !headers.is_empty() => format!(
            "the success responses declare the headers {}",
            crate::typecheck::name_list(headers)
        ),
        None => "read a field the success response declares (`Customer.SyncToken`), or a declared response header".into(),
    };
    let d = sink
        .diagnostic(
            Rule::UnknownActionResponseField,
            source.span,
            format!("the success response of the action's operation has no `{name}`, neither as a body field nor as a declared header"),
        )
        .with_pointer(pointer.to_owned())
        .with_label(operation.span, "the operation whose response is read")
        .with_help(help);
    sink.push(d);
}

/// An action reading body fields from an operation whose success answers are declared in media
/// types none of which is JSON: the engine reads action values from a JSON answer only. An
/// answer declared without `content` is not judged (nothing says what it is).
fn report_unreadable_answer(
    ctx: &Context,
    sink: &mut Sink,
    action: &syncdef_definitions::model::Action,
    operation_text: &Text,
    operation: syncdef_definitions::Node,
) {
    let Some(first) = action.schema.as_ref().and_then(|s| s.fields.first()) else {
        return;
    };
    let root = ctx.doc.root();
    let declared: Vec<&str> = crate::typecheck::openapi::success_responses(root, operation)
        .into_iter()
        .filter_map(|r| syncdef_definitions::openapi::resolve(root, Some(r))?.get("content"))
        .filter_map(syncdef_definitions::Node::as_object)
        .flat_map(|c| c.iter().map(|m| m.key.name))
        .collect();
    if declared.is_empty() {
        return;
    }
    let list = crate::typecheck::name_list(&declared);
    let d = sink
        .diagnostic(
            Rule::UnknownActionResponseField,
            first.source.span,
            format!(
                "the action reads `{}` from the answer of its operation, whose success answer is declared as {list}: the engine reads action values from a JSON answer",
                first.source.value
            ),
        )
        .with_pointer(action.pointer.clone())
        .with_label(operation_text.span, "the operation whose response is read")
        .with_help("declare the JSON answer the external system gives (`application/json` with its schema), or read a declared response header");
    sink.push(d);
}
