//! One allocation per distinct string of a document.
//!
//! API descriptions repeat themselves: GitHub's 13 MB description has 217,559 object keys
//! but 6,653 distinct ones, and 151,060 string values of which 19,500 differ (`type: string`,
//! `$ref`s to the same component, descriptions of shared parameters). Each loader reads its
//! strings through one [`Strings`], so a repeated string is a reference count, not a copy:
//! the tree of that description takes 13 MB less.

use arcstr::ArcStr;
use hashbrown::HashSet;

/// The distinct strings read so far. Hashed with foldhash, seeded per process: SipHash was a
/// tenth of loading Microsoft Graph's description, and a per-process seed keeps a hostile
/// document from choosing colliding keys in advance. hashbrown's set, for its
/// `get_or_insert_with`: a string seen first is hashed once, not once to look and once to
/// insert (most of a description's long texts are seen once).
#[derive(Default)]
pub(crate) struct Strings {
    seen: HashSet<ArcStr, foldhash::fast::RandomState>,
}

impl Strings {
    /// The shared copy of `text`, made on first sight.
    pub(crate) fn get(&mut self, text: &str) -> ArcStr {
        self.seen
            .get_or_insert_with(text, |t: &str| ArcStr::from(t))
            .clone()
    }

    /// Whether `text` was read.
    pub(crate) fn contains(&self, text: &str) -> bool {
        self.seen.contains(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_string_is_shared() {
        let mut strings = Strings::default();
        let a = strings.get("type");
        let b = strings.get(&String::from("type"));
        assert!(ArcStr::ptr_eq(&a, &b));
        assert!(!ArcStr::ptr_eq(&a, &strings.get("types")));
    }
}
