//! Expressions: the `#function(args)` strings of a template, parsed once into an AST.

mod parse;

use std::ops::Range;
use std::sync::Arc;

pub(crate) use parse::{ExprError, parse_call_or_literal};

use crate::functions::{Form, FuncDef};
use crate::path::JsonPath;
use crate::value::Value;

/// A parsed argument or top-level expression.
#[derive(Debug)]
pub(crate) enum Expr {
    /// A literal argument: always a string, never trimmed.
    Lit(Lit),
    /// A nested call.
    Call(Box<Call>),
}

/// A literal argument.
#[derive(Debug)]
pub(crate) struct Lit {
    /// The string value (escapes removed).
    pub value: Value,
    /// The argument compiled as a JSONPath, when the function reads it as one.
    pub path: Option<Arc<JsonPath>>,
    /// A template compiled from the literal (the arguments of `#applyover`).
    pub template: Option<Arc<crate::template::Node>>,
    /// Byte range in the key or string holding the expression.
    pub span: Range<usize>,
}

/// A function call.
#[derive(Debug)]
pub(crate) struct Call {
    /// The function.
    pub func: &'static FuncDef,
    /// Arguments in order.
    pub args: Vec<Expr>,
    /// Byte range of the whole call.
    pub span: Range<usize>,
    /// A direct route for the commonest call shapes, decided once at compile time.
    pub route: Route,
}

/// How a call is evaluated.
#[derive(Debug)]
pub(crate) enum Route {
    /// Through the function's `run`, with the argument machinery.
    General,
    /// A [`Form::ScopeRead`] (`#valueof`) of a compiled path: a read that cannot fail.
    ValueOf(Arc<JsonPath>),
    /// A [`Form::ExistsTest`] (`#exists`) of a compiled path: a test that cannot fail.
    Exists(Arc<JsonPath>),
    /// A [`Form::Choice`] (`#ifcondition`) whose four arguments are literals or direct reads
    /// of singular paths: none can fail, so the arguments are compared and the branch is read
    /// borrowed, without the argument machinery's copies.
    IfCondition(Box<[Operand; 4]>),
}

/// An argument that is read in place.
#[derive(Debug)]
pub(crate) enum Operand {
    /// A literal.
    Lit(Value),
    /// A direct read ([`Route::ValueOf`]) of a singular path (one step counted, as for the
    /// call).
    Read(Arc<JsonPath>),
}

impl Route {
    /// The route for a call of `func` with `args`: decided by the evaluation form the
    /// function declares in its table, and by the shape of the arguments.
    pub(crate) fn of(func: &FuncDef, args: &[Expr]) -> Route {
        match (func.form, args) {
            (Form::ScopeRead, [Expr::Lit(Lit { path: Some(p), .. })]) => Route::ValueOf(p.clone()),
            (Form::ExistsTest, [Expr::Lit(Lit { path: Some(p), .. })]) => Route::Exists(p.clone()),
            (Form::Choice, [a, b, then, otherwise]) => {
                match (
                    Operand::of(a),
                    Operand::of(b),
                    Operand::of(then),
                    Operand::of(otherwise),
                ) {
                    (Some(a), Some(b), Some(then), Some(otherwise)) => {
                        Route::IfCondition(Box::new([a, b, then, otherwise]))
                    }
                    _ => Route::General,
                }
            }
            _ => Route::General,
        }
    }
}

impl Operand {
    /// The argument as an operand read in place, when it cannot fail: a literal, or a direct
    /// read of a singular path.
    fn of(e: &Expr) -> Option<Operand> {
        match e {
            Expr::Lit(l) => Some(Operand::Lit(l.value.clone())),
            Expr::Call(c) => match &c.route {
                Route::ValueOf(p) if p.is_singular() => Some(Operand::Read(p.clone())),
                _ => None,
            },
        }
    }
}

impl Expr {
    /// Visits this expression and every nested call, depth-first.
    pub(crate) fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        if let Expr::Call(c) = self {
            for a in &c.args {
                a.visit(f);
            }
        }
    }
}
