//! Functions that are not called like the others: the property keys `#loop`, `#eval`,
//! `#scope` and the bulk operations `#copy`, `#replace`, `#delete`. They are listed here so
//! that names, arities and placement are checked like every other call; the object walk
//! evaluates them.

use super::{Allowed, ArgKinds, Fallback, FuncDef, def};
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::Value;

fn walked(_: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Err(Fail::function(format!(
        "#{} is evaluated by the template walk",
        c.func.name
    )))
}

const fn key(
    name: &'static str,
    min: usize,
    max: usize,
    usage: &'static str,
    doc: &'static str,
    args: ArgKinds,
) -> FuncDef {
    FuncDef {
        placement: Allowed::Key,
        ..def(name, min, max, usage, doc, args, Fallback::Null, walked)
    }
}

const fn bulk(
    name: &'static str,
    min: usize,
    max: usize,
    usage: &'static str,
    doc: &'static str,
) -> FuncDef {
    FuncDef {
        placement: Allowed::Bulk,
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
        "loop",
        1,
        3,
        "\"#loop(path[, alias[, baseAlias]])\": template",
        "Evaluate the template for each element of the array (or member of the object) at `path`; the results replace the containing object.",
        ArgKinds::Paths(&[0]),
    ),
    key(
        "eval",
        1,
        1,
        "\"#eval(expression)\": value",
        "Adds a property named by the expression's result, at the end of the object.",
        ArgKinds::Plain,
    ),
    key(
        "scope",
        1,
        3,
        "\"#scope(path[, alias[, baseAlias]])\": { ... }",
        "Evaluate the object with `path`'s token as the #valueof input; the result replaces the containing object.",
        ArgKinds::Paths(&[0]),
    ),
    bulk(
        "copy",
        1,
        2,
        "#copy(path[, loopAlias])",
        "Appends the properties of the object at `path` (in the loop element or record).",
    ),
    bulk(
        "replace",
        2,
        2,
        "#replace(path, value)",
        "Replaces the token at `path` in the object being built.",
    ),
    bulk(
        "delete",
        1,
        1,
        "#delete(path)",
        "Removes the token at `path` from the object being built.",
    ),
];
