//! Compile and evaluation errors.

use std::fmt;
use std::ops::Range;

/// Which part of a template property an error is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodePart {
    /// The property name (`"#loop($.items)"`).
    Key,
    /// The value (a string holding an expression).
    Value,
}

/// Where in a template something is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// JSON pointer of the template node (`""` for the root, `/a/0/b`).
    pub pointer: String,
    /// Key or value.
    pub part: NodePart,
    /// Byte range inside the key or the string value.
    pub range: Range<usize>,
    /// Byte range in the template's source text, when compiled from text
    /// ([`crate::Template::compile_str`]) and the string holds no JSON escapes before it.
    pub offset: Option<Range<usize>>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        let part = match self.part {
            NodePart::Key => "key",
            NodePart::Value => "value",
        };
        write!(
            f,
            "{pointer} ({part}, bytes {}..{})",
            self.range.start, self.range.end
        )
    }
}

/// The kind of a compile error; stable, for tools to map onto their own codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompileErrorKind {
    /// `#valueoff(...)`: no such function.
    UnknownFunction,
    /// `#ifcondition(a,b,c)`: wrong number of arguments.
    ArgumentCount,
    /// `#valueof($.a`: parentheses do not balance.
    UnbalancedParentheses,
    /// `#valueof($.a[)`: the JSONPath does not parse.
    InvalidPath,
    /// The template text is not JSON (`compile_str`, or an `#applyover` template).
    InvalidTemplate,
    /// `#customfunction(...)`, `#Ns.Class::Method()`: .NET extensibility is not available.
    UnsupportedFunction,
    /// A function used where it has no meaning (`#copy` outside a `"#"` array, `#loop` as a
    /// value).
    Misplaced,
    /// The template nests deeper than [`crate::Limits::max_depth`].
    TooDeep,
}

/// One compile error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// Stable kind.
    pub kind: CompileErrorKind,
    /// What is wrong, one sentence.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Where.
    pub location: Location,
}

impl CompileError {
    /// 1-based line and column (in characters) of the error in the template text it was
    /// compiled from, when the location carries an offset into that text.
    pub fn line_column(&self, text: &str) -> Option<(usize, usize)> {
        let at = self.location.offset.as_ref()?.start;
        let before = text.get(..at)?;
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Some((line, before[line_start..].chars().count() + 1))
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileError {}

/// All errors found in a template (compilation does not stop at the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileErrors(pub Vec<CompileError>);

impl CompileErrors {
    /// The errors, in template order.
    pub fn errors(&self) -> &[CompileError] {
        &self.0
    }
}

impl fmt::Display for CompileErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(
            f,
            "template has {n} error{}:",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.0 {
            writeln!(f, "- {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileErrors {}

/// The kind of an evaluation error; stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalErrorKind {
    /// A function failed (Strict mode, or a failure JUST treats as fatal in every mode).
    Function,
    /// An argument could not be converted to the type the function needs (Strict mode).
    Conversion,
    /// A loop function outside a loop, or an alias that names no loop or scope.
    Context,
    /// A JSONPath built at run time does not parse.
    InvalidPath,
    /// `#copy`, `#replace`, `#delete` could not be applied.
    Bulk,
    /// An `#applyover` template built at run time does not compile.
    InvalidTemplate,
    /// A [`crate::Limits`] bound was reached.
    LimitExceeded,
}

/// An error while applying a template to a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// Stable kind.
    pub kind: EvalErrorKind,
    /// What went wrong.
    pub message: String,
    /// The function being called.
    pub function: Option<String>,
    /// The 1-based argument at fault, when one is.
    pub argument: Option<usize>,
    /// JSON pointer of the template node being evaluated.
    pub pointer: String,
    /// Where in the record: the loop elements being visited (`$.items[3]`), or `$`.
    pub record_path: String,
}

/// Evaluation results carry the error boxed: the `Ok` path (a 24-byte `Value`) stays small
/// through every layer of calls.
pub(crate) type Res<T> = Result<T, Box<EvalError>>;

impl EvalError {
    pub(crate) fn new(kind: EvalErrorKind, message: impl Into<String>) -> Box<Self> {
        Box::new(EvalError {
            kind,
            message: message.into(),
            function: None,
            argument: None,
            pointer: String::new(),
            record_path: String::new(),
        })
    }

    pub(crate) fn with_argument(mut self: Box<Self>, n: usize) -> Box<Self> {
        self.argument.get_or_insert(n);
        self
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "at template {pointer}")?;
        if let Some(func) = &self.function {
            write!(f, ", #{func}")?;
            if let Some(a) = self.argument {
                write!(f, " argument {a}")?;
            }
        }
        if !self.record_path.is_empty() {
            write!(f, ", record {}", self.record_path)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for EvalError {}
