//! The OpenAPI part of a definition, deserialized by `openapiv3` straight from the node tree.
//!
//! Two things shape this step:
//! - `openapiv3` buffers every untagged `ReferenceOr` and flattened struct, which makes it the
//!   most expensive step of loading a large document (see `docs/benchmarks.md`). For large
//!   documents `components` is deserialized on a second thread while the rest (mostly `paths`)
//!   is on a first: the two halves are of similar size in real documents, and lint latency on
//!   one big file is what users wait for.
//! - serde recursion costs kilobytes of stack per level of nesting (more in debug builds), so a
//!   document at the loader's depth limit would overflow a default 2 MiB thread stack. The
//!   deserialization runs on threads with a stack sized for the depth limit instead.

use std::thread::{Scope, ScopedJoinHandle};

use openapiv3::{Components, OpenAPI};

use crate::de::{self, DeError};
use crate::node::Node;

/// Documents smaller than this are deserialized on one thread (a second one costs more than it
/// saves on them).
const PARALLEL_FROM_BYTES: u32 = 512 * 1024;

/// Stack for the deserializing threads: enough for `LoadOptions::max_depth` levels in a debug
/// build (measured: 8 MiB suffice for 256 levels; 2 MiB do not). Only touched pages use memory.
const STACK_BYTES: usize = 32 << 20;

/// Deserializes `root`, minus the synchronization section, into an OpenAPI 3.0 model.
pub(crate) fn from_root(root: &Node, sync_keys: &[&str; 2]) -> Result<OpenAPI, DeError> {
    let components = root
        .member("components")
        .filter(|m| m.value.as_object().is_some() && root.span.len() >= PARALLEL_FROM_BYTES);
    let Some(components) = components else {
        let whole = || de::from_node::<OpenAPI>(root, sync_keys);
        return std::thread::scope(|scope| spawn(scope, &whole).join());
    };
    let skip = [sync_keys[0], sync_keys[1], "components"];
    let rest = || de::from_node::<OpenAPI>(root, &skip);
    let parts = || de::from_node::<Components>(&components.value, &[]);
    let (rest, parts) = std::thread::scope(|scope| {
        let parts = spawn(scope, &parts);
        let rest = spawn(scope, &rest);
        (rest.join(), parts.join())
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

/// A deserialization running on its own thread, or already done on the caller's.
enum Job<'scope, T> {
    Thread(ScopedJoinHandle<'scope, Result<T, DeError>>),
    Done(Result<T, DeError>),
}

/// Starts `f` on a thread with a large stack; runs it right away on the caller's thread if the
/// system cannot start one.
fn spawn<'scope, T, F>(scope: &'scope Scope<'scope, '_>, f: &'scope F) -> Job<'scope, T>
where
    T: Send + 'scope,
    F: Fn() -> Result<T, DeError> + Sync,
{
    match std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn_scoped(scope, f)
    {
        Ok(handle) => Job::Thread(handle),
        Err(_) => Job::Done(f()),
    }
}

impl<T> Job<'_, T> {
    fn join(self) -> Result<T, DeError> {
        match self {
            Job::Thread(handle) => handle.join().unwrap_or_else(|_| {
                Err(serde::de::Error::custom(
                    "reading the OpenAPI model failed unexpectedly",
                ))
            }),
            Job::Done(result) => result,
        }
    }
}
