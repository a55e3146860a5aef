//! Conditionals: `#ifcondition`, and `#ifgroup` in its value form (the key form is part of the
//! object walk).

use super::{Allowed, ArgKinds, Fallback, Form, FuncDef, KeyForm, Returns, def, text};
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::Value;

pub(super) const DEFS: &[FuncDef] = &[
    FuncDef {
        form: Form::Choice,
        ..def(
            "ifcondition",
            4,
            4,
            "#ifcondition(a, b, then, else)",
            "`then` if a and b are equal as strings (case-insensitive unless Strict), else `else`; only the chosen branch is evaluated.",
            ArgKinds::Plain,
            Fallback::Null,
            ifcondition,
        )
        .returning(Returns::OneOf(&[3, 4]))
    },
    FuncDef {
        placement: Allowed::KeyOrValue,
        form: Form::Key(KeyForm::IfGroup),
        ..def(
            "ifgroup",
            1,
            2,
            "#ifgroup(condition[, value])",
            "As a key: merge the object's properties when `condition` is true. As a value: `value` or null.",
            ArgKinds::Plain,
            Fallback::Null,
            ifgroup,
        )
    },
];

/// `ComparisonHelper.Equals`: the string forms, case-insensitively unless the mode is
/// exactly Strict; null equals only null.
pub(crate) fn equals(cx: &Cx<'_>, a: &Value, b: &Value) -> bool {
    match (text(a), text(b)) {
        (None, None) => true,
        (Some(x), Some(y)) => {
            if cx.ignore_case() {
                x == y
                    || if x.is_ascii() && y.is_ascii() {
                        x.eq_ignore_ascii_case(&y)
                    } else {
                        x.to_lowercase() == y.to_lowercase()
                    }
            } else {
                x == y
            }
        }
        _ => false,
    }
}

fn ifcondition(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let a = cx.arg(c, 0)?;
    let b = cx.arg(c, 1)?;
    let branch = if equals(cx, &a, &b) { 2 } else { 3 };
    cx.arg(c, branch)
}

fn ifgroup(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let cond = cx.arg(c, 0)?;
    if cx.to_bool(&cond, 0)? {
        cx.arg(c, 1)
    } else {
        Ok(Value::Null)
    }
}
