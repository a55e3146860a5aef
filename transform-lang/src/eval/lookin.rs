//! `LookInTransformed`: re-evaluation against the output built so far.

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
        let mut inner: Option<(Option<std::sync::Arc<str>>, Value)> = None;
        for (key, map) in self.building.iter().rev() {
            let mut m: Map = map.clone();
            if let Some((Some(k), v)) = inner.take() {
                m.insert(k, v);
            }
            inner = Some((key.clone(), Value::object(m)));
        }
        inner.map(|(_, v)| v).unwrap_or_default()
    }
}
