//! JSON Patch documents for `PATCH` (spec 4.5): only `add`, `replace` and `remove`.

use json_patch::jsonptr::PointerBuf;
use json_patch::{AddOperation, Patch, PatchOperation, RemoveOperation, ReplaceOperation};
use serde_json::Value;

/// Builds a [`Patch`] of attribute-level operations.
///
/// ```
/// use serde_json::json;
/// use syncdef_platform::PatchBuilder;
///
/// let patch = PatchBuilder::new()
///     .replace("name", json!("Acme Ltd"))
///     .remove("creditLimit")
///     .build();
/// assert_eq!(
///     serde_json::to_value(&patch).expect("serializable"),
///     json!([
///         {"op": "replace", "path": "/name", "value": "Acme Ltd"},
///         {"op": "remove", "path": "/creditLimit"}
///     ])
/// );
/// ```
#[derive(Debug, Clone, Default)]
pub struct PatchBuilder {
    operations: Vec<PatchOperation>,
}

impl PatchBuilder {
    /// An empty patch.
    pub fn new() -> Self {
        Self::default()
    }

    /// `add`: sets the attribute (same effect as `replace` on the platform).
    pub fn add(mut self, attribute: &str, value: Value) -> Self {
        self.operations.push(PatchOperation::Add(AddOperation {
            path: pointer(attribute),
            value,
        }));
        self
    }

    /// `replace`: sets the attribute.
    pub fn replace(mut self, attribute: &str, value: Value) -> Self {
        self.operations
            .push(PatchOperation::Replace(ReplaceOperation {
                path: pointer(attribute),
                value,
            }));
        self
    }

    /// `remove`: resets the attribute to its default (removing `creditLimit` sets it to 0).
    pub fn remove(mut self, attribute: &str) -> Self {
        self.operations
            .push(PatchOperation::Remove(RemoveOperation {
                path: pointer(attribute),
            }));
        self
    }

    /// The patch document.
    pub fn build(self) -> Patch {
        Patch(self.operations)
    }
}

/// `/attribute`, with `~` and `/` inside the name escaped as RFC 6901 requires.
fn pointer(attribute: &str) -> PointerBuf {
    PointerBuf::from_tokens([attribute])
}

/// A patch holds operations the platform does not document (`move`, `copy`, `test`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the patch has a `{op}` operation at `{path}`; the platform takes only add, replace and \
     remove: express the change with those"
)]
pub struct UnsupportedPatch {
    /// The operation name.
    pub op: &'static str,
    /// Its path.
    pub path: String,
}

/// Refuses patches the platform would not understand, before sending them.
pub(crate) fn check_supported(patch: &Patch) -> Result<(), UnsupportedPatch> {
    for operation in &patch.0 {
        let op = match operation {
            PatchOperation::Add(_) | PatchOperation::Replace(_) | PatchOperation::Remove(_) => {
                continue;
            }
            PatchOperation::Move(_) => "move",
            PatchOperation::Copy(_) => "copy",
            PatchOperation::Test(_) => "test",
        };
        return Err(UnsupportedPatch {
            op,
            path: operation.path().to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn attribute_names_are_escaped() {
        let patch = PatchBuilder::new().add("a/b~c", json!(1)).build();
        assert_eq!(
            serde_json::to_value(&patch).expect("serializable"),
            json!([{"op": "add", "path": "/a~1b~0c", "value": 1}])
        );
    }

    #[test]
    fn move_copy_and_test_are_refused() {
        let patch: Patch = serde_json::from_value(json!([
            {"op": "replace", "path": "/name", "value": "x"},
            {"op": "move", "from": "/a", "path": "/b"}
        ]))
        .expect("valid patch");
        let error = check_supported(&patch).unwrap_err();
        assert_eq!(error.op, "move");
        assert!(check_supported(&PatchBuilder::new().remove("x").build()).is_ok());
    }
}
