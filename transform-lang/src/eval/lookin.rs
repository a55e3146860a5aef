//! `LookInTransformed`: re-evaluation against the output built so far.

use std::sync::Arc;

use super::{Cx, Fail};
use crate::value::{Map, Value};

impl Cx<'_> {
    /// Runs `f` again with the input replaced by the output built so far (JUST's
    /// `state.Transformer.Root`): the properties already evaluated, in every enclosing object.
    pub(crate) fn look_in_transformed(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<Value, Fail>,
    ) -> Result<Value, Fail> {
        let snapshot = self.transformed_snapshot();
        let saved = std::mem::replace(&mut self.input, snapshot);
        self.in_look_in_transformed = true;
        let r = f(self);
        self.in_look_in_transformed = false;
        self.input = saved;
        r
    }

    /// Assembles the enclosing partial objects, innermost nested under its key in its parent.
    fn transformed_snapshot(&self) -> Value {
        let mut inner: Option<(Option<Arc<str>>, Value)> = None;
        for (key, map) in self.building.iter().rev() {
            // The innermost object is shared, not copied: an object of many properties each
            // looked up again would otherwise copy it once per property. An enclosing object
            // is copied to hold the one inside it.
            let this = match inner.take() {
                Some((Some(k), v)) => {
                    let mut m: Map = (**map).clone();
                    m.insert(k, v);
                    Value::object(m)
                }
                _ => Value::Object(Arc::clone(map)),
            };
            inner = Some((key.clone(), this));
        }
        inner.map(|(_, v)| v).unwrap_or_default()
    }
}
