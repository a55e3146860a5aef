//! Functions that are not called like the others: the property keys `#loop`, `#eval`,
//! `#scope` and the bulk operations `#copy`, `#replace`, `#delete`. They are listed here so
//! that names, arities and placement are checked like every other call; the object walk
//! evaluates them by the [`Form`] each declares.

use super::{Allowed, ArgKinds, BulkOp, Fallback, Form, FuncDef, KeyForm, Reads, def};
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::Value;

fn walked(_: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Err(Fail::function(format!(
        "#{} is evaluated by the template walk",
        c.func.name
    )))
}

/// A property key function doing `form` to its object.
const fn key(
    (name, form): (&'static str, KeyForm),
    min: usize,
    max: usize,
    usage: &'static str,
    doc: &'static str,
    (args, reads): (ArgKinds, Reads),
) -> FuncDef {
    FuncDef {
        placement: Allowed::Key,
        form: Form::Key(form),
        reads,
        ..def(name, min, max, usage, doc, args, Fallback::Null, walked)
    }
}

/// A `"#"` array operation; its first argument is a path.
const fn bulk(
    (name, op): (&'static str, BulkOp),
    min: usize,
    max: usize,
    usage: &'static str,
    doc: &'static str,
    reads: Reads,
) -> FuncDef {
    FuncDef {
        placement: Allowed::Bulk,
        form: Form::Bulk(op),
        reads,
        ..def(
            name,
            min,
            max,
            usage,
            doc,
            ArgKinds::Paths(&[0]),
            Fallback::Null,
            walked,
        )
    }
}

pub(super) const DEFS: &[FuncDef] = &[
    key(
        ("loop", KeyForm::Loop),
        1,
        3,
        "\"#loop(path[, alias[, baseAlias]])\": template",
        "Evaluate the template for each element of the array (or member of the object) at `path`; the results replace the containing object.",
        (ArgKinds::Paths(&[0]), Reads::Frame { alias: 2 }),
    ),
    key(
        ("eval", KeyForm::Eval),
        1,
        1,
        "\"#eval(expression)\": value",
        "Adds a property named by the expression's result, at the end of the object.",
        (ArgKinds::Plain, Reads::LoopElementAndItems),
    ),
    key(
        ("scope", KeyForm::Scope),
        1,
        3,
        "\"#scope(path[, alias[, baseAlias]])\": { ... }",
        "Evaluate the object with `path`'s token as the #valueof input; the result replaces the containing object.",
        (ArgKinds::Paths(&[0]), Reads::Frame { alias: 2 }),
    ),
    bulk(
        ("copy", BulkOp::Copy),
        1,
        2,
        "#copy(path[, loopAlias])",
        "Appends the properties of the object at `path` (in the loop element or record).",
        Reads::LoopElement { alias: 1 },
    ),
    bulk(
        ("replace", BulkOp::Replace),
        2,
        2,
        "#replace(path, value)",
        "Replaces the token at `path` in the object being built.",
        Reads::Output,
    ),
    bulk(
        ("delete", BulkOp::Delete),
        1,
        1,
        "#delete(path)",
        "Removes the token at `path` from the object being built.",
        Reads::Output,
    ),
];
