//! `TemplateSyntaxError`: a template does not compile.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports templates that are not valid: a string template that is not JSON, an unknown
    /// function, a wrong number of arguments, unbalanced parentheses, an invalid JSONPath. The
    /// location is the exact characters inside the template text, even when the template is a
    /// string of JSON inside YAML.
///
    /// ## Why is this bad?
    /// The platform compiles templates when it pushes; a template that does not compile fails
    /// every record of the entry.
///
    /// ## Example
    /// ```yaml
    /// schemasTransformer:
    ///   createRequest: '{"DisplayName": "#valueof($.account.name"}'
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// schemasTransformer:
    ///   createRequest: '{"DisplayName": "#valueof($.account.name)"}'
    /// ```
    pub struct TemplateSyntaxError {
        title: "a template does not compile",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for template in &info.templates {
            for error in &template.errors {
                let d = sink
                    .diagnostic(
                        Rule::TemplateSyntaxError,
                        error.span,
                        format!("template `{}`: {}", template.name(), error.message),
                    )
                    .with_pointer(template.source.pointer.clone())
                    .with_optional_help(error.help.clone());
                sink.push(d);
            }
        }
    }
}
