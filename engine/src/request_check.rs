//! Each rendered request body is checked against its operation's OpenAPI request body schema
//! before it is sent.
//!
//! Why: a body the schema refuses (a QuickBooks `DisplayName` over 500 characters, a Business
//! Central `addressLine2` over 50) is at best refused by the external system and at worst cut
//! or stored half-right. The schema says so before anything leaves: the push fails with a
//! `configuration` error naming the JSON pointer, the rule and the template key that wrote the
//! value, and nothing is sent. The lint rule SD802 checks the template over a sample record;
//! this checks every real record.
//!
//! Cost: the schema is converted (by the validator's conversion, the one SD802 uses) and
//! compiled once per operation when the definition is compiled, and the request template's
//! output shape is proven against it then (`BodyGuard`: required members written, no member
//! the schema forbids, constants valid). Per push, only the values the template computes from
//! the record are checked, each as it is written, mostly by a few comparisons (type, length,
//! enumeration, bounds). A body the guard cannot prove, or a template whose structure it cannot
//! follow, is validated whole, in place (`RequestBodySchema::is_valid_text`: one scan into an
//! index of its values, then the `jsonschema` crate's `is_valid`). Only a failing body is
//! parsed and validated again, to collect every violation and locate them in the definition.
//! docs/benchmarks.md ("Request body validation") has the measurements.

use std::sync::Arc;

use syncdef_definitions::model::TemplateSource;
use syncdef_definitions::operation_ref::OperationRef;
use syncdef_definitions::{Node, SourceFile};
use syncdef_transform::{EvalError, Template, Value};
use syncdef_validator::request_schema::{BodyGuard, RequestBodySchema, template_output_span};

use crate::error::EngineError;

/// At most this many violations are named in one message; the rest are counted.
const SHOWN: usize = 5;

/// The request body schema of one call, with what locates a violation in the definition.
pub(crate) struct RequestCheck {
    schema: RequestBodySchema,
    /// The template's structure proven against the schema, when it can be.
    guard: Option<BodyGuard>,
    /// The request template, kept to map a failing pointer back to the key that wrote it.
    template: TemplateSource,
    file: Arc<SourceFile>,
}

impl std::fmt::Debug for RequestCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestCheck")
            .field("template", &self.template.name.value)
            .finish_non_exhaustive()
    }
}

impl RequestCheck {
    /// The check of the bodies `template` (compiled as `compiled`) renders for `operation` (an
    /// operation object of the definition's tree `root`), written as `media_type` when the
    /// definition names one: `None` when the operation declares no request body schema in the
    /// media type the body is written in. A form or multipart body is checked as the JSON value
    /// its fields are written from.
    ///
    /// # Errors
    /// A message when the schema does not compile.
    pub fn compile(
        root: &Node,
        operation: &Node,
        media_type: Option<&str>,
        template: &TemplateSource,
        compiled: &Template,
        file: &Arc<SourceFile>,
    ) -> Result<Option<RequestCheck>, String> {
        match RequestBodySchema::of_operation_as(root, operation, media_type) {
            None => Ok(None),
            Some(Err(e)) => Err(format!(
                "{e}; fix the schema, or turn the check off for the entry with `x-syncdef.requestValidation.skip`"
            )),
            Some(Ok(schema)) => Ok(Some(RequestCheck {
                guard: schema.guard(compiled),
                schema,
                template: template.clone(),
                file: Arc::clone(file),
            })),
        }
    }

    /// Renders `template` over `input` into `out`, as `Template::apply_to_json` does: whether
    /// the body was proven to fit the schema as it was written.
    pub fn render(
        &self,
        template: &Template,
        input: &Value,
        out: &mut String,
    ) -> Result<bool, EvalError> {
        match &self.guard {
            Some(guard) => {
                let mut watch = guard.watch();
                template.apply_to_json_observed(input, out, &mut watch)?;
                Ok(watch.proven())
            }
            None => template.apply_to_json(input, out).map(|()| false),
        }
    }

    /// Whether `body` (the rendered JSON text) fits the schema; a configuration error naming
    /// each violation's pointer, rule and template key when it does not. A body `proven` as it
    /// was rendered is not looked at again.
    pub fn check(
        &self,
        operation: &OperationRef,
        body: &[u8],
        proven: bool,
    ) -> Result<(), EngineError> {
        if proven {
            return Ok(());
        }
        // The hot path: the text validated in place. A body that fails (or that the in-place
        // reader does not take) is parsed the ordinary way for the detailed answer.
        if let Ok(text) = std::str::from_utf8(body)
            && self.schema.is_valid_text(text) == Some(true)
        {
            return Ok(());
        }
        let value: serde_json::Value = match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => {
                return Err(EngineError::configuration(format!(
                    "`{}` rendered a body that cannot be read as JSON to check it against the request body schema of `{operation}` ({e}); nothing was sent",
                    self.template.name.value
                )));
            }
        };
        if self.schema.is_valid(&value) {
            return Ok(());
        }
        Err(EngineError::configuration(self.message(operation, &value)))
    }

    /// Every violation, each with the place in the definition of the key that wrote it.
    fn message(&self, operation: &OperationRef, body: &serde_json::Value) -> String {
        let violations = self.schema.violations(body);
        let name = &self.template.name.value;
        let text = self.file.text();
        let parts: Vec<String> = violations
            .iter()
            .take(SHOWN)
            .map(|v| {
                let span = template_output_span(text, &self.template, &v.pointer);
                let at = self.file.line_col(span.start);
                let key = self.file.slice(span).trim_matches(['"', '\'']);
                let pointer = if v.pointer.is_empty() {
                    "the body".to_owned()
                } else {
                    format!("`{}`", v.pointer)
                };
                format!(
                    "at {pointer}: {} (written by `{name}` key `{key}`, {} line {}, column {})",
                    v.rule,
                    self.file.name(),
                    at.line,
                    at.column
                )
            })
            .collect();
        let more = violations.len().saturating_sub(SHOWN);
        format!(
            "the body `{name}` rendered does not fit the request body schema of `{operation}`, so nothing was sent: {}{}; change the record or the template (`#substring` cuts a string), correct the schema if the external system accepts the value, or turn the check off for the entry with `x-syncdef.requestValidation.skip`",
            parts.join("; "),
            if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            }
        )
    }
}
