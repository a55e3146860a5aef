//! The function library, apart from the core: one family per file, each exporting a table of
//! [`FuncDef`]s. The evaluator knows functions only through this table.

mod aggregate;
mod applyover;
mod array;
mod conditional;
mod constant;
mod form;
#[cfg(test)]
mod form_tests;
mod joined;
mod loops;
mod math;
mod path;
mod reads;
mod special;
mod string;
mod types;

use std::sync::{Arc, OnceLock};

use crate::error::CompileErrorKind;
use crate::eval::{Cx, Fail};
use crate::expr::{Call, ExprError, Lit};
use crate::path::JsonPath;
use crate::value::{Decimal, Value};

pub(crate) use form::{BulkOp, Form, KeyForm};
pub(crate) use reads::Reads;

/// A function body: receives the call so that it can evaluate arguments lazily.
pub(crate) type Run = fn(&mut Cx<'_>, &Call) -> Result<Value, Fail>;

/// A built-in function.
pub(crate) struct FuncDef {
    pub name: &'static str,
    pub min: usize,
    pub max: usize,
    /// `#name(arg, ...)`, for help texts.
    pub usage: &'static str,
    /// One line of documentation.
    pub doc: &'static str,
    /// Which literal arguments are compiled with the template.
    pub args: ArgKinds,
    /// What the function gives when it fails outside Strict mode (the .NET default of its
    /// return type).
    pub fallback: Fallback,
    /// Where it may be written.
    pub placement: Allowed,
    /// How the core evaluates its calls besides `run` (fast paths and special forms).
    pub form: Form,
    /// What its path arguments are read against (for static analysis).
    pub reads: Reads,
    /// What kind of value it gives (for static analysis).
    pub returns: Returns,
    pub run: Run,
}

/// What kind of value a function gives, as far as it is known without evaluating it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Returns {
    /// Not known (it depends on the data: `#currentvalue`, `#applyover`).
    Unknown,
    /// Always this kind (or null when it fails outside Strict mode).
    Kind(crate::analysis::ValueKind),
    /// What one of these 1-based arguments gives (`#ifcondition`: its `then` or `else`).
    OneOf(&'static [usize]),
    /// The value its first argument, a path, reads (`#valueof`).
    Read,
}

impl std::fmt::Debug for FuncDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.name)
    }
}

/// Literal arguments compiled ahead of evaluation.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ArgKinds {
    Plain,
    /// These arguments are JSONPaths.
    Paths(&'static [usize]),
    /// These arguments are JSONPaths when they start with `$.` (else arrays or strings).
    PathsIfDollar(&'static [usize]),
    /// `PathsIfDollar` for the first list, `Paths` for the second.
    Mixed(&'static [usize], &'static [usize]),
    /// `#applyover`: templates (or expressions) given as text.
    Templates,
}

/// The .NET default of a function's return type.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fallback {
    Null,
    Zero,
    False,
    DecimalZero,
}

impl Fallback {
    pub(crate) fn value(self) -> Value {
        match self {
            Fallback::Null => Value::Null,
            Fallback::Zero => Value::Int(0),
            Fallback::False => Value::Bool(false),
            Fallback::DecimalZero => Value::Decimal(Decimal::ZERO),
        }
    }
}

/// Where an expression is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    Value,
    Key,
    Bulk,
}

impl Placement {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Placement::Value => "as a value",
            Placement::Key => "as a property name",
            Placement::Bulk => "in a \"#\" array",
        }
    }
}

/// Where a function may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Allowed {
    Value,
    Key,
    KeyOrValue,
    Bulk,
}

impl Allowed {
    pub(crate) fn allows(self, p: Placement) -> bool {
        matches!(
            (self, p),
            (Allowed::Value | Allowed::KeyOrValue, Placement::Value)
                | (Allowed::Key | Allowed::KeyOrValue, Placement::Key)
                | (Allowed::Bulk, Placement::Bulk)
        )
    }

    pub(crate) fn hint(self) -> &'static str {
        match self {
            Allowed::Value | Allowed::KeyOrValue => "use it as a property value or argument",
            Allowed::Key => "use it as a property name: \"#loop($.items)\": { ... }",
            Allowed::Bulk => "use it inside a \"#\" array: \"#\": [\"#copy($.a)\"]",
        }
    }
}

impl FuncDef {
    pub(crate) fn arity_text(&self) -> String {
        let n = |k: usize| if k == 1 { "argument" } else { "arguments" };
        if self.min == self.max {
            format!("{} {}", self.min, n(self.min))
        } else if self.max == usize::MAX {
            format!("at least {} {}", self.min, n(self.min))
        } else {
            format!("{} to {} arguments", self.min, self.max)
        }
    }
}

fn unknown(_: &mut Cx<'_>, _: &Call) -> Result<Value, Fail> {
    Err(Fail::function("unknown function"))
}

/// Stands for an unknown name so that its arguments can still be checked.
pub(crate) static UNKNOWN: FuncDef = FuncDef {
    name: "?",
    min: 0,
    max: usize::MAX,
    usage: "",
    doc: "",
    args: ArgKinds::Plain,
    fallback: Fallback::Null,
    placement: Allowed::KeyOrValue,
    form: Form::Call,
    reads: Reads::LoopElementAndItems,
    returns: Returns::Unknown,
    run: unknown,
};

fn table() -> &'static [&'static FuncDef] {
    static TABLE: OnceLock<Vec<&'static FuncDef>> = OnceLock::new();
    TABLE.get_or_init(|| {
        [
            path::DEFS,
            conditional::DEFS,
            string::DEFS,
            math::DEFS,
            aggregate::DEFS,
            array::DEFS,
            types::DEFS,
            constant::DEFS,
            loops::DEFS,
            applyover::DEFS,
            special::DEFS,
        ]
        .into_iter()
        .flatten()
        .collect()
    })
}

/// Every built-in function (for documentation and tests).
pub fn names() -> impl Iterator<Item = &'static str> {
    table().iter().map(|f| f.name)
}

/// The function called `name` (case-sensitive, as in JUST).
pub(crate) fn lookup(name: &str) -> Option<&'static FuncDef> {
    table().iter().copied().find(|f| f.name == name)
}

/// The closest known name, if any is close enough to be a likely typo.
pub(crate) fn did_you_mean(name: &str) -> Option<&'static str> {
    closest(name, names())
}

/// The closest property function (those of a [`Form::Key`]: `#ifgroup`, `#loop`, ...).
pub(crate) fn did_you_mean_key(name: &str) -> Option<&'static str> {
    let keys = table()
        .iter()
        .filter(|f| matches!(f.form, Form::Key(_)))
        .map(|f| f.name);
    closest(name, keys)
}

/// The property function called `name`, with what it does to its object: `None` for any
/// other name, which JUST keeps as a literal key.
pub(crate) fn key_form(name: &str) -> Option<KeyForm> {
    match lookup(name)?.form {
        Form::Key(k) => Some(k),
        _ => None,
    }
}

fn closest(name: &str, candidates: impl Iterator<Item = &'static str>) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    candidates
        .map(|c| (strsim::damerau_levenshtein(&lower, c), c))
        .filter(|(d, c)| *d <= 1.max(c.len() / 3) && *d < c.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Compiles the literal argument `i` of `func` when the function reads it as a path or a
/// template.
pub(crate) fn prepare_literal(
    func: &FuncDef,
    i: usize,
    lit: &mut Lit,
    errors: &mut Vec<ExprError>,
) {
    let Some(text) = lit.value.as_str().map(str::to_owned) else {
        return;
    };
    let is_path = match func.args {
        ArgKinds::Paths(ix) => ix.contains(&i),
        ArgKinds::PathsIfDollar(ix) => ix.contains(&i) && text.starts_with("$."),
        ArgKinds::Mixed(dollar, paths) => {
            paths.contains(&i) || (dollar.contains(&i) && text.starts_with("$."))
        }
        ArgKinds::Templates => {
            applyover::prepare(i, &text, lit, errors);
            false
        }
        ArgKinds::Plain => false,
    };
    if !is_path {
        return;
    }
    match JsonPath::parse(&text) {
        Ok(p) => lit.path = Some(Arc::new(p)),
        Err(e) => {
            // Offsets map one to one unless escapes were removed before the error.
            let start = (lit.span.start + e.span.start).min(lit.span.end);
            let end = (lit.span.start + e.span.end).min(lit.span.end).max(start);
            errors.push(ExprError {
                kind: CompileErrorKind::InvalidPath,
                message: format!("invalid JSONPath '{text}': {}", e.message),
                help: Some("paths look like $.a.b, $.items[0], $.items[?(@.x == 'y')].name".into()),
                span: start..end,
            });
        }
    }
}

/// Shorthand for table entries.
#[expect(
    clippy::too_many_arguments,
    reason = "one positional argument per column of the function tables, which read as rows"
)]
pub(crate) const fn def(
    name: &'static str,
    min: usize,
    max: usize,
    usage: &'static str,
    doc: &'static str,
    args: ArgKinds,
    fallback: Fallback,
    run: Run,
) -> FuncDef {
    FuncDef {
        name,
        min,
        max,
        usage,
        doc,
        args,
        fallback,
        placement: Allowed::Value,
        form: Form::Call,
        reads: Reads::LoopElementAndItems,
        returns: Returns::Unknown,
        run,
    }
}

impl FuncDef {
    /// This function, declared to give `returns`.
    pub(crate) const fn returning(self, returns: Returns) -> FuncDef {
        FuncDef { returns, ..self }
    }
}

/// The string form of a value (`ToString()`), `None` for null.
pub(crate) use conditional::equals;

pub(crate) fn text(v: &Value) -> Option<std::borrow::Cow<'_, str>> {
    crate::value::dotnet::to_dotnet_string(v)
}

/// The documentation table: (usage, description) of every function, in library order.
pub fn reference() -> Vec<(&'static str, &'static str)> {
    table().iter().map(|f| (f.usage, f.doc)).collect()
}
