//! The evaluation context: the record, the loop and scope stack, and the budget.

use std::sync::Arc;

use crate::error::{EvalError, EvalErrorKind, Res};
use crate::settings::Settings;
use crate::value::{Map, Value};

/// One entry of JUST's `State`: a loop element or a scope token.
#[derive(Clone, Debug)]
pub(crate) enum Frame {
    Loop(LoopFrame),
    Scope { alias: Alias, value: Value },
}

/// A loop or scope name: given in the template, or JUST's default `loop<n>`/`scope<n>`,
/// kept unformatted so that entering a loop allocates nothing.
#[derive(Clone, Debug)]
pub(crate) enum Alias {
    Named(Arc<str>),
    Default(&'static str, usize),
}

impl Alias {
    pub(crate) fn is(&self, name: &str) -> bool {
        match self {
            Alias::Named(a) => a.as_ref() == name,
            Alias::Default(prefix, n) => {
                name.strip_prefix(prefix)
                    .and_then(|rest| rest.parse::<usize>().ok())
                    == Some(*n)
            }
        }
    }
}

/// A loop being iterated.
#[derive(Clone, Debug)]
pub(crate) struct LoopFrame {
    pub alias: Alias,
    /// The elements (for an object loop, one-property objects).
    pub items: Arc<Vec<Value>>,
    pub index: usize,
    /// The member name, in an object loop.
    pub property: Option<Arc<str>>,
    /// The loop's path as written, for error messages.
    pub path: Arc<str>,
}

impl LoopFrame {
    pub(crate) fn current(&self) -> Value {
        self.items.get(self.index).cloned().unwrap_or_default()
    }
}

/// State of one `apply`.
pub(crate) struct Cx<'s> {
    pub settings: &'s Settings,
    /// The record (replaced while `#applyover` and `LookInTransformed` re-evaluate).
    pub input: Value,
    pub frames: Vec<Frame>,
    /// Objects being built, for `LookInTransformed`: (key in parent, properties so far).
    /// Shared, so that a look-up can read the innermost object without copying it; the next
    /// property then copies it only if the look-up's result kept it.
    pub building: Vec<(Option<Arc<str>>, Arc<Map>)>,
    pub in_look_in_transformed: bool,
    /// Paths built at run time (`#valueof(#xconcat(...))`), parsed once per apply; created
    /// on first use, as most templates build none.
    pub runtime_paths: Option<std::collections::HashMap<Box<str>, Arc<crate::path::JsonPath>>>,
    /// The items of the last filtered `#valueof` read, for the reads after it.
    pub filter_memo: crate::path::FilterMemo,
    pub depth: usize,
    pub steps: usize,
    pub nodes: usize,
}

thread_local! {
    /// The frame stack of the last apply on this thread, emptied: a `#loop` or `#scope`
    /// would otherwise allocate a new stack for every record.
    static SPARE_FRAMES: std::cell::Cell<Vec<Frame>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Cx<'_> {
    fn drop(&mut self) {
        let mut frames = std::mem::take(&mut self.frames);
        frames.clear();
        // A stack grown by an unusually deep template is not kept.
        if frames.capacity() <= 64 {
            SPARE_FRAMES.set(frames);
        }
    }
}

#[inline]
fn innermost_scope<'a>(frames: &'a [Frame], input: &'a Value) -> &'a Value {
    frames
        .iter()
        .rev()
        .find_map(|f| match f {
            Frame::Scope { value, .. } => Some(value),
            Frame::Loop(_) => None,
        })
        .unwrap_or(input)
}

impl<'s> Cx<'s> {
    pub(crate) fn new(settings: &'s Settings, input: Value) -> Self {
        Cx {
            settings,
            input,
            frames: SPARE_FRAMES.take(),
            building: Vec::new(),
            in_look_in_transformed: false,
            runtime_paths: None,
            filter_memo: crate::path::FilterMemo::default(),
            depth: 0,
            steps: 0,
            nodes: 0,
        }
    }

    /// A path built at run time, parsed once per apply (the cache is bounded: a template
    /// that builds a new path per element re-parses rather than grows it without end).
    pub(crate) fn runtime_path(
        &mut self,
        text: &str,
    ) -> Result<Arc<crate::path::JsonPath>, crate::path::PathError> {
        let paths = self.runtime_paths.get_or_insert_default();
        if let Some(p) = paths.get(text) {
            return Ok(p.clone());
        }
        let p = Arc::new(crate::path::JsonPath::parse(text)?);
        if paths.len() >= 256 {
            paths.clear();
        }
        paths.insert(text.into(), p.clone());
        Ok(p)
    }

    /// The innermost loop.
    /// Whether the output is tracked as it is built: in look-in-transformed mode a null
    /// result is looked for again in what the template has produced so far.
    pub(crate) fn tracks_output(&self) -> bool {
        self.settings
            .mode
            .contains(crate::EvaluationMode::LOOK_IN_TRANSFORMED)
    }

    pub(crate) fn innermost_loop(&self) -> Option<&LoopFrame> {
        self.frames.iter().rev().find_map(|f| match f {
            Frame::Loop(l) => Some(l),
            Frame::Scope { .. } => None,
        })
    }

    /// The loop named `alias`, or the innermost one.
    pub(crate) fn find_loop(&self, alias: Option<&str>) -> Res<&LoopFrame> {
        let found = match alias {
            None => self.innermost_loop(),
            Some(a) => self.frames.iter().rev().find_map(|f| match f {
                Frame::Loop(l) if l.alias.is(a) => Some(l),
                _ => None,
            }),
        };
        found.ok_or_else(|| {
            EvalError::new(
                EvalErrorKind::Context,
                match alias {
                    None => "loop functions can only be used inside #loop".to_string(),
                    Some(a) => format!("no enclosing loop is named '{a}'"),
                },
            )
        })
    }

    /// Input of the generic path functions: the current loop element, or the record.
    pub(crate) fn loop_input(&self) -> Value {
        self.loop_input_ref().clone()
    }

    /// [`Cx::loop_input`] without the reference count traffic.
    pub(crate) fn loop_input_ref(&self) -> &Value {
        match self.innermost_loop() {
            Some(l) => l.items.get(l.index).unwrap_or(&Value::Null),
            None => &self.input,
        }
    }

    /// The innermost scope, or the record.
    pub(crate) fn scope_input(&self) -> &Value {
        innermost_scope(&self.frames, &self.input)
    }

    /// [`Cx::scope_input`], and the filter memo to read it with.
    #[inline]
    pub(crate) fn scope_input_and_memo(&mut self) -> (&Value, &mut crate::path::FilterMemo) {
        (
            innermost_scope(&self.frames, &self.input),
            &mut self.filter_memo,
        )
    }

    /// `#valueof`'s input, borrowed.
    pub(crate) fn scope_input_ref(&self, alias: Option<&str>) -> Res<&Value> {
        match alias {
            None => Ok(self.scope_input()),
            Some("root") => Ok(&self.input),
            Some(a) => self
                .frames
                .iter()
                .rev()
                .find_map(|f| match f {
                    Frame::Scope { alias, value } if alias.is(a) => Some(value),
                    _ => None,
                })
                .ok_or_else(|| {
                    EvalError::new(EvalErrorKind::Context, format!("no scope is named '{a}'"))
                }),
        }
    }

    /// Base of a `#loop`/`#scope` path: `alias` (a loop, a scope or `root`), or the innermost
    /// loop element or scope (`State.GetHigherAlias`), or the record.
    pub(crate) fn base_input(&self, alias: Option<&str>) -> Res<Value> {
        match alias {
            Some("root") => Ok(self.input.clone()),
            Some(a) => self
                .frames
                .iter()
                .rev()
                .find_map(|f| match f {
                    Frame::Loop(l) if l.alias.is(a) => Some(l.current()),
                    Frame::Scope { alias, value } if alias.is(a) => Some(value.clone()),
                    _ => None,
                })
                .ok_or_else(|| {
                    EvalError::new(
                        EvalErrorKind::Context,
                        format!("no enclosing loop or scope is named '{a}'"),
                    )
                }),
            None => Ok(match self.frames.last() {
                Some(Frame::Loop(l)) => l.current(),
                Some(Frame::Scope { value, .. }) => value.clone(),
                None => self.input.clone(),
            }),
        }
    }

    /// Where in the record evaluation is: the loop elements, outermost first.
    pub(crate) fn record_path(&self) -> String {
        let mut out = String::new();
        for f in &self.frames {
            if let Frame::Loop(l) = f {
                if !out.is_empty() {
                    out.push_str(" > ");
                }
                match &l.property {
                    Some(p) => out.push_str(&format!("{}.{p}", l.path)),
                    None => out.push_str(&format!("{}[{}]", l.path, l.index)),
                }
            }
        }
        if out.is_empty() {
            out.push('$');
        }
        out
    }

    pub(crate) fn loop_count(&self) -> usize {
        self.frames
            .iter()
            .filter(|f| matches!(f, Frame::Loop(_)))
            .count()
    }

    pub(crate) fn scope_count(&self) -> usize {
        self.frames.len() - self.loop_count()
    }
}
