//! `UnusedTemplate`: a template is used by no operation of its entry.

use crate::codes::Rule;
use syncdef_definitions::Node;

use crate::context::{Context, EntryInfo, Sink};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;
use crate::templates::{OPERATIONS, request_name, response_name, split_template_name};

declare_rule! {
    /// ## What it does
    /// Reports templates of `schemasTransformer` that no operation of the entry uses: a name that
    /// is not `{operation}Request` or `{operation}Response` for an operation the entry declares,
    /// nor `{action}Request` (the body of an `ApiPath` action's call) for one of its actions,
    /// often a typo (`updateRequst`) or a leftover of a removed operation. A typo of a template
    /// an operation needs (`createRequestX`) is reported by SD401 instead, as an error.
///
    /// ## Why is this bad?
    /// The platform ignores the template, so the mapping it holds silently never applies; if it is
    /// a typo, the operation it was meant for has no template at all.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     createRequest: {DisplayName: "#valueof($.account.name)"}
    ///     createResponse: {id: "#valueof($.Customer.Id)"}
    ///     updateRequest: {sparse: true}
    /// ```
///
    /// ## Use instead
    /// Declare the operation the template is for, or delete the template:
    ///
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   update: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     createRequest: {DisplayName: "#valueof($.account.name)"}
    ///     createResponse: {id: "#valueof($.Customer.Id)"}
    ///     updateRequest: {sparse: true, Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)"}
    /// ```
    pub struct UnusedTemplate {
        title: "a template is used by no operation of its entry",
        severity: Warning,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let declared = declared_operations(ctx, info);
        let mut expected: Vec<String> = declared
            .iter()
            .flat_map(|op| [request_name(op), response_name(op)])
            .collect();
        // An `ApiPath` action's call sends `{action}Request` as its body.
        expected.extend(
            info.operations
                .iter()
                .filter(|site| site.operation.is_none())
                .map(|site| request_name(site.key)),
        );
        // A typo of a template its operation needs is SD401's, an error there.
        let typos: Vec<&str> = if sink.enabled(Rule::MissingTemplate) {
            crate::rules::missing_template::missing(ctx, info)
                .iter()
                .filter_map(|m| m.typo.map(crate::context::Template::name))
                .collect()
        } else {
            Vec::new()
        };
        for template in &info.templates {
            let name = template.name();
            if expected.iter().any(|e| e == name) || typos.contains(&name) {
                continue;
            }
            let known_op = split_template_name(name)
                .map(|(op, _)| op)
                .filter(|op| OPERATIONS.iter().any(|o| o.operation == *op));
            let help = if let Some(s) = did_you_mean(name, expected.iter()) {
                format!("did you mean `{s}`?")
            } else if let Some(op) = known_op {
                format!("the entry declares no `{op}` operation; add it, or delete this template")
            } else {
                "templates are named `{operation}Request` or `{operation}Response` after an operation of the entry; rename or delete this one".to_owned()
            };
            let d = sink
                .diagnostic(
                    Rule::UnusedTemplate,
                    template.source.name.span,
                    format!(
                        "template `{name}` is not used by any operation of `{}`",
                        info.name()
                    ),
                )
                .with_pointer(template.source.pointer.clone())
                .with_help(help);
            sink.push(d);
        }
    }
}

/// Operation keys written in `push` and `pull`, even with a value of the wrong type (SD108
/// reports that; its templates are not "unused" for it).
fn declared_operations<'a>(ctx: &Context<'a>, info: &EntryInfo<'a>) -> Vec<&'static str> {
    let objects = [
        info.entry.push.as_ref().map(|p| p.pointer.as_str()),
        info.entry.pull.as_ref().map(|p| p.pointer.as_str()),
    ];
    let nodes: Vec<Node<'_>> = objects
        .into_iter()
        .flatten()
        .filter_map(|p| ctx.doc.root().pointer(p))
        .collect();
    OPERATIONS
        .iter()
        .map(|o| o.operation)
        .filter(|op| nodes.iter().any(|n| n.get(op).is_some()))
        .collect()
}
