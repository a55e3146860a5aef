//! Duplicate keys, refused by both loaders.
//!
//! JSON and YAML both leave duplicate keys undefined and tools disagree on which one wins, so a
//! definition with one would mean different things to different readers: we refuse it. The
//! tree builder finds them when an object closes (pairwise for small objects, through the sorted
//! positions it indexes large ones with); this is the error the user sees.

use std::sync::Arc;

use super::{LoadError, LoadErrorKind};
use crate::source::SourceFile;
use crate::tree::DuplicateKey;

/// The error for the first key (in document order) that repeats an earlier one.
pub(super) fn error(duplicate: &DuplicateKey, source: &Arc<SourceFile>) -> LoadError {
    LoadError::new(
        LoadErrorKind::DuplicateKey,
        source,
        duplicate.second,
        format!("duplicate key `{}`", duplicate.name),
    )
    .with_related(duplicate.first, "first defined here")
    .with_help("remove one of the two, or merge their contents under one key")
}
