//! The OpenAPI part of a definition, deserialized by `openapiv3` straight from the node tree.
//!
//! `openapiv3` buffers every untagged `ReferenceOr` and flattened struct, which makes it the
//! most expensive step of loading a large document (see `docs/benchmarks.md`). For large
//! documents `components` is deserialized on a second thread while the rest (mostly `paths`)
//! is on the calling one: the two halves are of similar size in real documents, and lint
//! latency on one big file is what users wait for.

use openapiv3::{Components, OpenAPI};

use crate::de::{self, DeError};
use crate::node::Node;

/// Documents smaller than this are deserialized on one thread (a thread costs more than it
/// saves on them).
const PARALLEL_FROM_BYTES: u32 = 512 * 1024;

/// Deserializes `root`, minus the synchronization section, into an OpenAPI 3.0 model.
pub(crate) fn from_root(root: &Node, sync_keys: &[&str; 2]) -> Result<OpenAPI, DeError> {
    let components = root
        .member("components")
        .filter(|m| m.value.as_object().is_some());
    let Some(components) = components.filter(|_| root.span.len() >= PARALLEL_FROM_BYTES) else {
        return de::from_node(root, sync_keys);
    };
    let skip = [sync_keys[0], sync_keys[1], "components"];
    let (rest, parts) = std::thread::scope(|scope| {
        let worker = scope.spawn(|| de::from_node::<Components>(&components.value, &[]));
        let rest = de::from_node::<OpenAPI>(root, &skip);
        let parts = worker
            .join()
            .unwrap_or_else(|_| Err(serde::de::Error::custom("the components could not be read")));
        (rest, parts)
    });
    let parts = parts.map_err(|e| e.within("components", components.value.span));
    match (rest, parts) {
        (Ok(mut api), Ok(parts)) => {
            api.components = Some(parts);
            Ok(api)
        }
        // Report what comes first in the file, as a sequential read would.
        (Err(a), Err(b)) => Err(if b.span < a.span { b } else { a }),
        (Err(e), _) | (_, Err(e)) => Err(e),
    }
}
