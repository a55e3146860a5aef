//! `UnknownOperationPath`: an operation reference matches no path of `paths`.

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Reports operation references whose path matches no path template under `paths`. A reference
    /// matches a template segment by segment: literal segments must be equal, a template parameter
    /// (`{id}`) accepts a literal or a placeholder, and OData key segments
    /// (`SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')`) match key by key. The help names
    /// the closest path.
///
    /// ## Why is this bad?
    /// The platform can only call operations the OpenAPI part describes; a reference to an
    /// undescribed path fails on every record pushed.
///
    /// ## Example
    /// ```yaml
    /// paths:
    ///   /v3/company/{realmId}/customer:
    ///     post: {responses: {"200": {description: ok}}}
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///     push:
    ///       create: "/v3/company/{realmId}/customers/post"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///     push:
    ///       create: "/v3/company/{realmId}/customer/post"
    /// ```
    pub struct UnknownOperationPath {
        title: "an operation reference matches no path of `paths`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for site in &info.operations {
            let (Some(Resolution::NotFound), Ok(parsed)) = (ctx.resolve(site), site.parsed) else {
                continue;
            };
            let path = &parsed.path;
            let span = ctx.span_in(site.text, 0..path.len());
            // Compare with placeholders blanked out: `{IntegrationId}` and `{id}` are equally
            // good fillers and must not make a path look far away.
            let wanted = blank_placeholders(path);
            let suggestion = did_you_mean(
                &wanted,
                ctx.paths
                    .entries()
                    .map(|e| Candidate(blank_placeholders(e.template), e)),
            );
            let mut d = sink
                .diagnostic(
                    Rule::UnknownOperationPath,
                    span,
                    format!("`{path}` matches no path of `paths`"),
                )
                .with_pointer(site.pointer);
            d = match suggestion {
                Some(Candidate(_, entry)) => d
                    .with_help(format!("did you mean `{}`?", entry.template))
                    .with_label(entry.key_span, "the closest path"),
                None => d.with_help("add the operation under `paths`, or correct the reference"),
            };
            sink.push(d);
        }
    }
}

struct Candidate<'a>(String, crate::context::PathEntry<'a>);

impl AsRef<str> for Candidate<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// `/customer/{id}` -> `/customer/{}`.
fn blank_placeholders(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut depth = 0;
    for c in path.chars() {
        match c {
            '{' => {
                depth += 1;
                out.push('{');
            }
            '}' => {
                depth -= 1;
                out.push('}');
            }
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}
