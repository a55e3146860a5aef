//! Templates: compile once, apply to many records.

mod compile;
pub(crate) mod lenient;
mod node;
mod shape;

use crate::analysis::{self, CallUse, PathUse};
use crate::error::{CompileErrors, EvalError};
use crate::eval::{Cx, Unobserved, eval_node, write_node};
use crate::settings::Settings;
use crate::value::Value;

pub(crate) use compile::compile_runtime;
pub(crate) use node::{ExprNode, Node, ObjectNode, Prop};
pub use shape::{OutputObserver, OutputShape};

/// A compiled template. Immutable, `Send + Sync`: share it between threads and apply it to
/// any number of records; applying parses nothing.
#[derive(Debug)]
pub struct Template {
    root: Node,
    settings: Settings,
}

const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Template>();
};

impl Template {
    /// Compiles a template given as a JSON value (object, array or scalar), from a
    /// [`Value`] or a `serde_json::Value`. All errors are reported, not just the first.
    pub fn compile(template: impl Into<Value>, settings: &Settings) -> Result<Self, CompileErrors> {
        let template = template.into();
        let root = compile::compile(&template, settings, None)?;
        Ok(Template {
            root,
            settings: settings.clone(),
        })
    }

    /// Compiles a template given as JSON text, read leniently like Newtonsoft (single quotes,
    /// trailing commas, comments, unquoted names). Error locations also carry byte offsets
    /// into `text`.
    pub fn compile_str(text: &str, settings: &Settings) -> Result<Self, CompileErrors> {
        let (template, source) =
            lenient::parse(text, settings.limits.max_depth).map_err(|e| CompileErrors(vec![*e]))?;
        let root = compile::compile(&template, settings, Some(&source))?;
        Ok(Template {
            root,
            settings: settings.clone(),
        })
    }

    /// Applies the template to one record.
    pub fn apply(&self, input: &Value) -> Result<Value, EvalError> {
        let mut cx = Cx::new(&self.settings, input.clone());
        eval_node(&mut cx, &self.root, None).map_err(|e| *e)
    }

    /// Applies the template to one record and appends the output to `out` as compact JSON:
    /// the text `value::write_compact` gives for [`Template::apply`]'s output, written without
    /// building the output where the template allows (one request body or one JSON Lines
    /// output line). On an error nothing is appended.
    pub fn apply_to_json(&self, input: &Value, out: &mut String) -> Result<(), EvalError> {
        self.apply_to_json_observed(input, out, &mut Unobserved)
    }

    /// [`Template::apply_to_json`], telling `observer` where the text of each computed part of
    /// [`Template::output_shape`] is as it is written. On an error nothing is appended (the
    /// observer may have been told of parts written before it).
    pub fn apply_to_json_observed(
        &self,
        input: &Value,
        out: &mut String,
        observer: &mut impl OutputObserver,
    ) -> Result<(), EvalError> {
        let start = out.len();
        let mut cx = Cx::new(&self.settings, input.clone());
        write_node(&mut cx, &self.root, None, out, observer).map_err(|e| {
            out.truncate(start);
            *e
        })
    }

    /// The shape of every output of the template: what is always the same, and what is
    /// computed from each record.
    pub fn output_shape(&self) -> OutputShape<'_> {
        let tracks_output = self
            .settings
            .mode
            .contains(crate::EvaluationMode::LOOK_IN_TRANSFORMED);
        shape::shape_of(&self.root, tracks_output)
    }

    /// The settings the template was compiled with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Every JSONPath the template reads, with its location and context.
    pub fn paths(&self) -> Vec<PathUse<'_>> {
        analysis::paths(&self.root)
    }

    /// Every function call of the template, with its location.
    pub fn calls(&self) -> Vec<CallUse> {
        analysis::calls(&self.root)
    }
}
