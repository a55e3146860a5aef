//! Duplicate-key detection shared by both loaders.
//!
//! JSON and YAML both leave duplicate keys undefined and tools disagree on which one wins, so a
//! definition with one would mean different things to different readers: we refuse it.

use std::sync::Arc;

use super::{LoadError, LoadErrorKind};
use crate::node::Member;
use crate::source::SourceFile;

/// Objects up to this size are checked pairwise; larger ones through a sorted index.
const SMALL: usize = 12;

/// Fails on the first key (in document order) that repeats an earlier one.
pub(super) fn check(members: &[Member], source: &Arc<SourceFile>) -> Result<(), LoadError> {
    let found = if members.len() <= SMALL {
        (1..members.len()).find_map(|second| {
            (0..second)
                .find(|&first| members[first].key.name == members[second].key.name)
                .map(|first| (first, second))
        })
    } else {
        let mut order: Vec<u32> = (0..members.len() as u32).collect();
        // Stable sort: among equal keys the earliest stays first.
        order.sort_by(|&a, &b| {
            members[a as usize]
                .key
                .name
                .cmp(&members[b as usize].key.name)
        });
        order
            .windows(2)
            .filter(|w| members[w[0] as usize].key.name == members[w[1] as usize].key.name)
            .map(|w| (w[0] as usize, w[1] as usize))
            .min_by_key(|&(_, second)| second)
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
