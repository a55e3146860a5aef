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
    #[must_use]
    pub fn add(mut self, attribute: &str, value: Value) -> Self {
        self.operations.push(PatchOperation::Add(AddOperation {
            path: pointer(attribute),
            value,
        }));
        self
    }

    /// `replace`: sets the attribute.
    #[must_use]
    pub fn replace(mut self, attribute: &str, value: Value) -> Self {
        self.operations
            .push(PatchOperation::Replace(ReplaceOperation {
                path: pointer(attribute),
                value,
            }));
        self
    }

    /// `remove`: resets the attribute to its default (removing `creditLimit` sets it to 0).
    #[must_use]
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

/// The patch that brings `current`'s attributes to the values `wanted` gives them: a `replace`
/// for each attribute of `wanted` whose value differs (an `add` where `current` lacks it),
/// attributes named in `skip` (read-only ones: `id`, `createdAt`, `updatedAt`) left out, and
/// nothing removed: an attribute `wanted` does not name is not its to change. Attributes are
/// replaced whole (spec 4.5 patches attributes, not paths inside them). Empty when nothing
/// differs.
///
/// ```
/// use serde_json::json;
/// use syncdef_platform::patch::changes;
///
/// let current = json!({"id": 5, "name": "Acme", "phone": "1", "fax": "2"});
/// let wanted = json!({"id": 5, "name": "Acme Ltd", "phone": "1", "webSite": "https://acme.test"});
/// let patch = changes(&current, &wanted, &["id"]);
/// assert_eq!(
///     serde_json::to_value(&patch).expect("serializable"),
///     json!([
///         {"op": "replace", "path": "/name", "value": "Acme Ltd"},
///         {"op": "add", "path": "/webSite", "value": "https://acme.test"}
///     ])
/// );
/// ```
#[must_use]
pub fn changes(current: &Value, wanted: &Value, skip: &[&str]) -> Patch {
    let Some(wanted) = wanted.as_object() else {
        return Patch(Vec::new());
    };
    let current = current.as_object();
    let mut builder = PatchBuilder::new();
    for (name, value) in wanted {
        if skip.contains(&name.as_str()) {
            continue;
        }
        builder = match current.and_then(|c| c.get(name)) {
            Some(now) if now == value => builder,
            Some(_) => builder.replace(name, value.clone()),
            None => builder.add(name, value.clone()),
        };
    }
    builder.build()
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
    fn changes_touch_only_what_differs_and_never_remove() {
        let current = json!({"id": 1, "name": "a", "nested": {"x": 1, "y": 2}, "kept": true});
        let same = changes(
            &current,
            &json!({"name": "a", "nested": {"y": 2, "x": 1}}),
            &[],
        );
        assert!(same.0.is_empty(), "{same:?}");
        let nested = changes(&current, &json!({"nested": {"x": 1}}), &[]);
        assert_eq!(
            serde_json::to_value(&nested).expect("serializable"),
            json!([{"op": "replace", "path": "/nested", "value": {"x": 1}}])
        );
        let skipped = changes(
            &current,
            &json!({"id": 2, "updatedAt": "now"}),
            &["id", "updatedAt"],
        );
        assert!(skipped.0.is_empty());
        assert!(changes(&current, &json!("not an object"), &[]).0.is_empty());
        let onto_nothing = changes(&serde_json::Value::Null, &json!({"name": "b"}), &[]);
        assert_eq!(
            serde_json::to_value(&onto_nothing).expect("serializable"),
            json!([{"op": "add", "path": "/name", "value": "b"}])
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
