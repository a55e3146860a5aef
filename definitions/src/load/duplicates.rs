//! Duplicate-key detection shared by both loaders.
//!
//! JSON and YAML both leave duplicate keys undefined and tools disagree on which one wins, so a
//! definition with one would mean different things to different readers: we refuse it.

use std::sync::Arc;

use super::{LoadError, LoadErrorKind};
use crate::members::Members;
use crate::source::SourceFile;

/// Fails on the first key (in document order) that repeats an earlier one. Small objects are
/// checked pairwise; large ones through the index their members keep (positions sorted by key,
/// equal keys in document order).
pub(super) fn check(members: &Members, source: &Arc<SourceFile>) -> Result<(), LoadError> {
    let found = match members.sorted_positions() {
        None => (1..members.len()).find_map(|second| {
            (0..second)
                .find(|&first| members[first].key.name == members[second].key.name)
                .map(|first| (first, second))
        }),
        Some(order) => order
            .windows(2)
            .filter(|w| members[w[0] as usize].key.name == members[w[1] as usize].key.name)
            .map(|w| (w[0] as usize, w[1] as usize))
            .min_by_key(|&(_, second)| second),
    };
    match found {
        None => Ok(()),
        Some((first, second)) => {
            let key = &members[second].key;
            Err(LoadError::new(
                LoadErrorKind::DuplicateKey,
                source,
                key.span,
                format!("duplicate key `{}`", key.name),
            )
            .with_related(members[first].key.span, "first defined here")
            .with_help("remove one of the two, or merge their contents under one key"))
        }
    }
}
