//! `UnsuppliedParameter`: a required header or query parameter of an operation the
//! synchronization calls gets no value.

use syncdef_definitions::extension::{Extension, Operation, ParameterPlace};
use syncdef_definitions::model::{ActionIn, MethodCommon};
use syncdef_definitions::openapi::{OpenApi, SentParameter};
use syncdef_definitions::{Node, Span};

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, OperationSite, Resolution, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a header or query parameter that an operation the synchronization calls
    /// declares `required: true`, and that nothing the engine sends fills: not
    /// `x-syncdef.parameters`, not the operation's `apiKey` security scheme, not the
    /// idempotency key, not an `in: Header` pre-action, not the query the operation reference
    /// fixes (`?operation=delete`), not `x-syncdef.pull.<Entry>.query` or `.headers` for a
    /// `batchRead`.
    /// `Accept`, `Content-Type` and `Authorization` are the engine's own (OpenAPI says such
    /// parameters are ignored).
    ///
    /// ## Why is this bad?
    /// Every request to that operation would be refused by the external system, usually with a
    /// 400 or 403 that names no record: Xero, for example, needs the tenant a request is for in
    /// the `xero-tenant-id` header of every call.
    ///
    /// ## Example
    /// ```yaml
    /// servers:
    ///   - url: https://api.example.com/api.xro/2.0
    /// paths:
    ///   /Contacts:
    ///     put:
    ///       parameters:
    ///         - {name: xero-tenant-id, in: header, required: true, schema: {type: string}}
    /// ```
    ///
    /// ## Use instead
    /// Declare a server variable naming the company (an overlay can add it beside the vendor's
    /// description), and give the parameter its value; each company's worker sets the variable:
    /// ```yaml
    /// servers:
    ///   - url: https://api.example.com/api.xro/2.0
    ///     variables:
    ///       tenantId: {default: "00000000-0000-0000-0000-000000000000"}
    /// x-syncdef:
    ///   parameters:
    ///     header:
    ///       xero-tenant-id: "{tenantId}"
    /// ```
    pub struct UnsuppliedParameter {
        title: "a required header or query parameter of a called operation gets no value",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    // An `x-syncdef` it cannot read is SD114's: what it would supply is not known.
    if !ctx.extension_problems.is_empty() {
        return;
    }
    let extension = &ctx.extension;
    let api = OpenApi::new(ctx.doc.root());
    for info in &ctx.entries {
        for site in &info.operations {
            let Some(Resolution::Found {
                path, operation, ..
            }) = ctx.resolve(site)
            else {
                continue;
            };
            let suppliers = Suppliers::of(extension, &api, info, site, operation);
            let sent = api.operation(operation).sent_parameters(Some(path.item));
            for parameter in sent.iter().filter(|p| p.required) {
                if !suppliers.fill(parameter) {
                    report(ctx, sink, site, parameter);
                }
            }
        }
    }
}

fn report(ctx: &Context, sink: &mut Sink, site: &OperationSite, parameter: &SentParameter) {
    let place = parameter.place.key();
    let span = ctx.span_in(site.text, 0..site.text.value.len());
    let d = sink
        .diagnostic(
            Rule::UnsuppliedParameter,
            span,
            format!(
                "`{}` requires the {place} parameter `{}`, and nothing sends it",
                site.text.value, parameter.name
            ),
        )
        .with_pointer(site.pointer)
        .with_span_label("every request it sends lacks it")
        .with_label(parameter_span(parameter.node), "declared required here")
        .with_help(format!(
            "give it a value under `x-syncdef.parameters.{place}` (`{}: \"{{companyVariable}}\"`, a server variable's value per company, or a literal)",
            parameter.name
        ));
    sink.push(d);
}

fn parameter_span(node: Node) -> Span {
    node.get("name").map_or(node.span, |n| n.span)
}

/// What fills parameters on the requests to one operation site.
struct Suppliers<'a> {
    extension: &'a Extension,
    /// `(in, name)` of the `apiKey` schemes the operation's security requirements name.
    api_keys: Vec<(ParameterPlace, &'a str)>,
    /// The idempotency key, when the site's operation carries it.
    idempotency: Option<(ParameterPlace, &'a str)>,
    /// Headers `in: Header` pre-actions set (on the record's own request only), and those
    /// the entry's pull sends on a `batchRead`.
    set_headers: Vec<&'a str>,
    /// Query parameters the reference fixes, and those the entry's pull paging sends.
    fixed_query: Vec<&'a str>,
}

impl<'a> Suppliers<'a> {
    fn of(
        extension: &'a Extension,
        api: &OpenApi<'a>,
        info: &'a EntryInfo<'a>,
        site: &OperationSite<'a>,
        operation: Node<'a>,
    ) -> Self {
        let api_keys = api.operation_api_keys(operation);
        let push_operation = site.operation.and_then(push_operation);
        let idempotency = extension.idempotency.as_ref().and_then(|key| {
            let carried = key.operations.as_deref().unwrap_or(&[Operation::Create]);
            push_operation
                .is_some_and(|op| carried.contains(&op))
                .then_some((key.placement, key.name.as_str()))
        });
        let mut set_headers = match (push_operation, &info.entry.push) {
            (Some(_), Some(push)) => header_action_names(&push.common),
            _ => Vec::new(),
        };
        let mut fixed_query = reference_query(&site.text.value);
        if site.operation == Some("batchRead")
            && let Some(pull) = extension.pull.as_ref().and_then(|p| p.get(info.name()))
        {
            fixed_query.extend(pull.query.keys().map(String::as_str));
            set_headers.extend(pull.headers.keys().map(String::as_str));
        }
        Suppliers {
            extension,
            api_keys,
            idempotency,
            set_headers,
            fixed_query,
        }
    }

    /// Whether something the engine sends fills `parameter`.
    fn fill(&self, parameter: &SentParameter) -> bool {
        let (place, name) = (parameter.place, parameter.name);
        self.extension
            .parameters
            .as_ref()
            .is_some_and(|p| p.value(place, name).is_some())
            || self
                .api_keys
                .iter()
                .any(|(at, key)| *at == place && place.same_name(key, name))
            || self
                .idempotency
                .is_some_and(|(at, key)| at == place && place.same_name(key, name))
            || (place == ParameterPlace::Header
                && self
                    .set_headers
                    .iter()
                    .any(|h| h.eq_ignore_ascii_case(name)))
            || (place == ParameterPlace::Query && self.fixed_query.contains(&name))
    }
}

/// The push operation an operation key names; `None` for actions and pulls.
fn push_operation(key: &str) -> Option<Operation> {
    match key {
        "create" => Some(Operation::Create),
        "update" => Some(Operation::Update),
        "delete" => Some(Operation::Delete),
        _ => None,
    }
}

fn header_action_names(common: &MethodCommon) -> Vec<&str> {
    common
        .pre_actions
        .iter()
        .filter(|a| {
            a.placement
                .as_ref()
                .is_some_and(|p| p.value == ActionIn::Header)
        })
        .filter_map(|a| a.schema.as_ref()?.header.as_ref())
        .map(|h| h.value.as_str())
        .collect()
}

/// The names of the query a reference fixes: `operation` in `/customer?operation=delete/post`.
fn reference_query(reference: &str) -> Vec<&str> {
    let Some((_, query)) = reference.split_once('?') else {
        return Vec::new();
    };
    let query = query.rsplit_once('/').map_or(query, |(q, _)| q);
    query
        .split('&')
        .filter_map(|pair| pair.split('=').next())
        .filter(|name| !name.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::reference_query;

    #[test]
    fn the_query_a_reference_fixes_is_read_without_its_method() {
        assert_eq!(
            reference_query("/v3/company/{realmId}/customer?operation=delete/post"),
            ["operation"]
        );
        assert_eq!(reference_query("/a?x=1&y/get"), ["x", "y"]);
        assert!(reference_query("/customer/post").is_empty());
    }
}
