//! Calling functions: argument evaluation, conversions, and the fallback rules of
//! `ReflectionHelper.Caller`.

use std::borrow::Cow;
use std::sync::Arc;

use rust_decimal::Decimal;

use super::Cx;
use crate::error::{EvalError, EvalErrorKind, Res};
use crate::expr::{Call, Expr, Operand, Route};
use crate::path::JsonPath;
use crate::value::{Value, dotnet};

/// How a function failed.
#[derive(Debug)]
pub(crate) enum Fail {
    /// Caught by `Caller`: the function's default value unless the Strict flag is set.
    Soft(Box<EvalError>),
    /// Escapes in every mode (JUST's errors outside `Caller`, our limits).
    Fatal(Box<EvalError>),
}

impl From<Box<EvalError>> for Fail {
    fn from(e: Box<EvalError>) -> Self {
        Fail::Fatal(e)
    }
}

impl Fail {
    pub(crate) fn soft(kind: EvalErrorKind, message: impl Into<String>) -> Self {
        Fail::Soft(EvalError::new(kind, message))
    }

    pub(crate) fn function(message: impl Into<String>) -> Self {
        Fail::soft(EvalErrorKind::Function, message)
    }

    fn map(self, f: impl FnOnce(Box<EvalError>) -> Box<EvalError>) -> Self {
        match self {
            Fail::Soft(e) => Fail::Soft(f(e)),
            Fail::Fatal(e) => Fail::Fatal(f(e)),
        }
    }
}

/// A JSONPath argument: compiled with the template, or built at run time.
pub(crate) enum PathArg<'c> {
    Compiled(&'c JsonPath),
    Built(Arc<JsonPath>),
}

impl std::ops::Deref for PathArg<'_> {
    type Target = JsonPath;
    fn deref(&self) -> &JsonPath {
        match self {
            PathArg::Compiled(p) => p,
            PathArg::Built(p) => p,
        }
    }
}

impl Cx<'_> {
    /// Evaluates an expression (a literal or a call).
    #[inline]
    pub(crate) fn eval_expr(&mut self, e: &Expr) -> Res<Value> {
        match e {
            Expr::Lit(l) => Ok(l.value.clone()),
            Expr::Call(c) => self.call(c),
        }
    }

    /// Calls a function, applying the mode's error rules.
    ///
    /// Inlined into the object walk so that the direct routes cost no call frames; the
    /// general route stays out of line.
    #[inline]
    pub(crate) fn call(&mut self, c: &Call) -> Res<Value> {
        // Call nesting is bounded when the expression is parsed; only the step count needs
        // a check here. Objects and arrays a function builds are counted where they are
        // built, and strings by `limits.max_string_len`.
        self.step()?;
        // The most common call by far, `#valueof` of a compiled path in the current scope,
        // cannot fail: read it directly rather than through the argument machinery. A null
        // result still takes the general route, which may look in the transformed output.
        match &c.route {
            Route::ValueOf(path) => {
                let (root, memo) = self.scope_input_and_memo();
                let v = path.select_value_memo(root, memo);
                if !v.is_null() || !self.looks_in_transformed() {
                    return Ok(v);
                }
            }
            Route::Exists(path) => return Ok(Value::Bool(path.exists(self.loop_input_ref()))),
            Route::IfCondition(_) | Route::General => {}
        }
        self.call_general(c)
    }

    /// The branch an `#ifcondition` of [`Route::IfCondition`] takes, with the steps its
    /// reads count (the call's own step counted by the caller). A limit hit by a read is
    /// reported as the general route reports it, from the call.
    pub(crate) fn if_condition<'a>(
        &mut self,
        c: &Call,
        args: &'a [Operand; 4],
    ) -> Res<&'a Operand> {
        let [a, b, then, otherwise] = args;
        for read in [a, b] {
            self.operand_step(c, read)?;
        }
        let equal = crate::functions::equals(self, self.operand(a), self.operand(b));
        let branch = if equal { then } else { otherwise };
        self.operand_step(c, branch)?;
        Ok(branch)
    }

    fn operand_step(&mut self, c: &Call, operand: &Operand) -> Res<()> {
        match operand {
            Operand::Read(_) => self.step().map_err(|e| self.annotate(e, c)),
            Operand::Lit(_) => Ok(()),
        }
    }

    /// The value of an operand, borrowed: a literal, or what its read selects (`null` for
    /// nothing, as `#valueof` gives).
    #[inline]
    pub(crate) fn operand<'a>(&'a self, operand: &'a Operand) -> &'a Value {
        match operand {
            Operand::Lit(v) => v,
            Operand::Read(path) => path
                .select_singular(self.scope_input())
                .unwrap_or(&Value::Null),
        }
    }

    /// A call through the function's `run` and the argument machinery (or, for an
    /// `#ifcondition` of plain arguments, around it).
    #[inline(never)]
    fn call_general(&mut self, c: &Call) -> Res<Value> {
        if let Route::IfCondition(args) = &c.route
            && !self.looks_in_transformed()
        {
            let branch = self.if_condition(c, args)?;
            return Ok(self.operand(branch).clone());
        }
        let mut result = (c.func.run)(self, c);
        if matches!(result, Ok(Value::Null)) && self.looks_in_transformed() {
            result = self.look_in_transformed(|cx| (c.func.run)(cx, c));
        }
        match result {
            Ok(v) => Ok(v),
            Err(Fail::Soft(_)) if !self.settings.mode.propagates_errors() => {
                Ok(c.func.fallback.value())
            }
            Err(Fail::Soft(e) | Fail::Fatal(e)) => Err(self.annotate(e, c)),
        }
    }

    /// Whether a null result is looked for again in the output built so far.
    fn looks_in_transformed(&self) -> bool {
        self.tracks_output() && !self.in_look_in_transformed
    }

    fn annotate(&self, mut e: Box<EvalError>, c: &Call) -> Box<EvalError> {
        if e.function.is_none() {
            e.function = Some(c.func.name.to_string());
        }
        if e.record_path.is_empty() {
            e.record_path = self.record_path();
        }
        e
    }

    /// Evaluates argument `i` (0-based); absent arguments are `null`.
    pub(crate) fn arg(&mut self, c: &Call, i: usize) -> Result<Value, Fail> {
        match c.args.get(i) {
            None => Ok(Value::Null),
            Some(e) => self.eval_expr(e).map_err(Fail::Fatal),
        }
    }

    /// Argument `i` as an alias name (`None` when absent or null).
    pub(crate) fn alias_arg(&mut self, c: &Call, i: usize) -> Result<Option<Arc<str>>, Fail> {
        if i >= c.args.len() {
            return Ok(None);
        }
        let v = self.arg(c, i)?;
        Ok(match v {
            // The common case, a literal alias: share its string.
            Value::String(s) if s.trim().len() == s.len() => Some(s),
            v => dotnet::to_dotnet_string(&v).map(|s| Arc::from(s.trim())),
        })
    }

    /// Argument `i` as a JSONPath: the compiled literal, or the text an expression built.
    pub(crate) fn path_arg<'c>(&mut self, c: &'c Call, i: usize) -> Result<PathArg<'c>, Fail> {
        if let Some(Expr::Lit(l)) = c.args.get(i)
            && let Some(p) = &l.path
        {
            return Ok(PathArg::Compiled(p));
        }
        let v = self.arg(c, i)?;
        let text = dotnet::to_dotnet_string(&v).unwrap_or(Cow::Borrowed(""));
        self.runtime_path(&text).map(PathArg::Built).map_err(|e| {
            Fail::soft(
                EvalErrorKind::InvalidPath,
                format!("invalid JSONPath '{text}': {}", e.message),
            )
            .map(|e| e.with_argument(i + 1))
        })
    }

    fn conversion_failed<T>(&self, v: &Value, to: &str, i: usize, default: T) -> Result<T, Fail> {
        if self.settings.mode.is_exactly_strict() {
            let shown =
                dotnet::to_dotnet_string(v).map_or("null".into(), std::borrow::Cow::into_owned);
            Err(Fail::Soft(
                EvalError::new(
                    EvalErrorKind::Conversion,
                    format!("cannot convert '{shown}' ({}) to {to}", v.type_name()),
                )
                .with_argument(i + 1),
            ))
        } else {
            Ok(default)
        }
    }

    /// `GetTypedValue(v, decimal)`: the default 0 on failure unless the mode is exactly Strict.
    pub(crate) fn to_decimal(&self, v: &Value, i: usize) -> Result<Decimal, Fail> {
        match dotnet::to_decimal(v) {
            Some(d) => Ok(d),
            None if v.is_null() => Ok(Decimal::ZERO),
            None => self.conversion_failed(v, "a decimal", i, Decimal::ZERO),
        }
    }

    /// `GetTypedValue(v, int)`.
    pub(crate) fn to_int(&self, v: &Value, i: usize) -> Result<i32, Fail> {
        match dotnet::to_int(v) {
            Some(n) => Ok(n),
            None if v.is_null() => Ok(0),
            None => self.conversion_failed(v, "an integer", i, 0),
        }
    }

    /// `GetTypedValue(v, bool)`.
    pub(crate) fn to_bool(&self, v: &Value, i: usize) -> Result<bool, Fail> {
        match dotnet::to_bool(v) {
            Some(b) => Ok(b),
            None if v.is_null() => Ok(false),
            None => self.conversion_failed(v, "a boolean", i, false),
        }
    }

    /// Case rule of `ComparisonHelper`: case-sensitive only when the mode is exactly Strict.
    pub(crate) fn ignore_case(&self) -> bool {
        !self.settings.mode.is_exactly_strict()
    }
}
