//! `#grouparrayby`.

use std::collections::HashMap;
use std::sync::Arc;

use super::{ArgKinds, Fallback, FuncDef, Returns, def, text};
use crate::analysis::ValueKind;
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::{Map, Value};

pub(super) const DEFS: &[FuncDef] = &[def(
    "grouparrayby",
    3,
    3,
    "#grouparrayby(path, key[:key2...], groupName)",
    "Groups the objects of the array at `path` by the key(s): `[{key: \"v\", groupName: [objects without the key]}]`.",
    ArgKinds::Paths(&[0]),
    Fallback::Null,
    group_array_by,
)
        .returning(Returns::Kind(ValueKind::Array))];

fn group_array_by(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let path = cx.path_arg(c, 0)?;
    let array = path.select_value(&cx.loop_input());
    let keys = cx.arg(c, 1)?;
    let keys = text(&keys).unwrap_or_default().into_owned();
    let keys: Vec<Arc<str>> = keys
        .split(cx.settings.split_group_char)
        .map(|k| Arc::from(k.trim()))
        .collect();
    let group_name = cx.arg(c, 2)?;
    let group_name: Arc<str> = text(&group_name).unwrap_or_default().as_ref().into();
    let Value::Array(items) = array else {
        return Err(Fail::function(format!(
            "'{}' does not select an array",
            path.text()
        )));
    };
    // Groups in first-seen order: (key values, members), found by their key values through
    // `position` (a scan of the groups per item would be quadratic when keys are distinct).
    let mut groups: Vec<(Vec<Arc<str>>, Vec<Value>)> = Vec::new();
    let mut position: HashMap<Vec<Arc<str>>, usize> = HashMap::new();
    for item in items.iter() {
        let Value::Object(o) = item else { continue };
        let mut values = Vec::with_capacity(keys.len());
        for k in &keys {
            // Key values are compared and written as strings, as JUST does.
            match o.get(k).and_then(text) {
                Some(t) => values.push(Arc::<str>::from(t.as_ref())),
                None => break,
            }
        }
        if values.len() != keys.len() {
            continue;
        }
        let mut rest = (**o).clone();
        for k in &keys {
            rest.remove(k);
        }
        if let Some(&at) = position.get(&values) {
            groups[at].1.push(Value::object(rest));
        } else {
            position.insert(values.clone(), groups.len());
            groups.push((values, vec![Value::object(rest)]));
        }
    }
    cx.produced(groups.len())?;
    let out = groups
        .into_iter()
        .map(|(values, members)| {
            let mut m = Map::with_capacity(keys.len() + 1);
            for (k, v) in keys.iter().zip(values) {
                m.insert(k.clone(), Value::String(v));
            }
            m.insert(group_name.clone(), Value::array(members));
            Value::object(m)
        })
        .collect();
    Ok(Value::array(out))
}
