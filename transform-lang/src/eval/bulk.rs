//! The bulk functions of a `"#": [...]` property: `#copy`, `#replace`, `#delete`.

use super::object::locate;
use super::{Cx, Fail};
use crate::error::{EvalError, EvalErrorKind, Res};
use crate::expr::{Call, Expr};
use crate::functions::{BulkOp, Form};
use crate::settings::EvaluationMode;
use crate::template::ExprNode;
use crate::value::{Map, Value};

fn fail(e: Fail) -> Box<EvalError> {
    match e {
        Fail::Soft(e) | Fail::Fatal(e) => e,
    }
}

fn bulk_error(call: &Call, message: String) -> Box<EvalError> {
    let mut e = EvalError::new(EvalErrorKind::Bulk, message);
    e.function = Some(call.func.name.into());
    e
}

/// Runs the operations on `out` by the phase each declares: every copy, then every replace,
/// then every delete.
pub(super) fn apply(cx: &mut Cx<'_>, ops: &[ExprNode], out: &mut Map) -> Res<()> {
    for phase in BulkOp::PHASES {
        for op in ops {
            let Expr::Call(call) = &op.expr else { continue };
            if call.func.form != Form::Bulk(phase) {
                continue;
            }
            let r = match phase {
                BulkOp::Copy => copy(cx, call, out),
                BulkOp::Replace => replace(cx, call, out),
                BulkOp::Delete => delete(cx, call, out),
            };
            r.map_err(|mut e| {
                if e.record_path.is_empty() {
                    e.record_path = cx.record_path();
                }
                locate(e, op)
            })?;
        }
    }
    Ok(())
}

fn copy(cx: &mut Cx<'_>, call: &Call, out: &mut Map) -> Res<()> {
    let path = cx.path_arg(call, 0).map_err(fail)?;
    let input = match cx.alias_arg(call, 1).map_err(fail)? {
        Some(a) => cx.find_loop(Some(&a))?.current(),
        None => cx.loop_input(),
    };
    let selected = path.select_value(&input);
    let Value::Object(m) = selected else {
        return Err(bulk_error(
            call,
            if selected.is_null() {
                format!(
                    "Invalid path for #copy: '{}' resolved to null!",
                    path.text()
                )
            } else {
                format!(
                    "#copy needs an object, but '{}' selects a {}",
                    path.text(),
                    selected.type_name()
                )
            },
        ));
    };
    let merge = cx
        .settings
        .mode
        .contains(EvaluationMode::ADD_OR_REPLACE_PROPERTIES);
    for (k, v) in m.iter() {
        match out.get_mut(k) {
            Some(existing) if merge => merge_into(existing, v),
            Some(_) => {
                return Err(bulk_error(
                    call,
                    format!(
                        "#copy would add property '{k}' a second time; set the add-or-replace-properties mode to merge"
                    ),
                ));
            }
            None => out.insert(k.clone(), v.clone()),
        }
    }
    Ok(())
}

/// `AddOrReplaceProperties`: the template's values win; objects merge recursively.
fn merge_into(existing: &mut Value, copied: &Value) {
    if let (Value::Object(e), Value::Object(c)) = (&mut *existing, copied) {
        let e = std::sync::Arc::make_mut(e);
        for (k, v) in c.iter() {
            match e.get_mut(k) {
                Some(x) => merge_into(x, v),
                None => e.insert(k.clone(), v.clone()),
            }
        }
    }
}

fn with_object<R>(out: &mut Map, f: impl FnOnce(&mut Value) -> R) -> R {
    let mut v = Value::object(std::mem::take(out));
    let r = f(&mut v);
    if let Value::Object(m) = v {
        *out = std::sync::Arc::try_unwrap(m).unwrap_or_else(|m| (*m).clone());
    }
    r
}

fn replace(cx: &mut Cx<'_>, call: &Call, out: &mut Map) -> Res<()> {
    let path = cx.path_arg(call, 0).map_err(fail)?;
    let value = cx.arg(call, 1).map_err(fail)?;
    let text = path.text().to_string();
    with_object(out, |root| {
        let locations = path.locations(root);
        if locations.is_empty() {
            return Err(bulk_error(
                call,
                format!("Invalid path for #replace: '{text}' resolved to null!"),
            ));
        }
        for loc in locations {
            if let Some(slot) = root.pointer_mut(&loc) {
                *slot = value.clone();
            }
        }
        Ok(())
    })
}

fn delete(cx: &mut Cx<'_>, call: &Call, out: &mut Map) -> Res<()> {
    let path = cx.path_arg(call, 0).map_err(fail)?;
    let text = path.text().to_string();
    with_object(out, |root| {
        let locations = path.locations(root);
        if locations.is_empty() {
            return Err(bulk_error(
                call,
                format!("Invalid path for #delete: '{text}' resolved to null!"),
            ));
        }
        super::removal::remove_locations(root, locations);
        Ok(())
    })
}
