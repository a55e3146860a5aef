//! The keys the `synchronization` format defines at each level, and how a key the format does
//! not define is read: a near miss of a defined key that the object lacks
//! (`preSyncronizationAction`) is read as that key, so that every check of its content still
//! runs, and is reported as misspelt; any other key is unknown.

use crate::operation::Operation;

/// Keys of an entry.
pub const ENTRY_KEYS: &[&str] = &["description", "module", "push", "pull"];
/// Keys of `push`. `statements` is the vendor's, accepted and not executed.
pub const PUSH_KEYS: &[&str] = &[
    Operation::Create.key(),
    Operation::Update.key(),
    Operation::Delete.key(),
    "preSynchronizationAction",
    "postSynchronizationAction",
    "schemasTransformer",
    "statements",
];
/// Keys of `pull`.
pub const PULL_KEYS: &[&str] = &[
    Operation::Read.key(),
    Operation::BatchRead.key(),
    "preSynchronizationAction",
    "postSynchronizationAction",
    "schemasTransformer",
    "statements",
];
/// Keys of an action.
pub const ACTION_KEYS: &[&str] = &["type", "path", "schema", "in"];

/// The defined key `key` is a near miss of, when the object (whose keys are `present`) lacks
/// it: equal but for case, or within a small edit distance (one edit for keys up to eight
/// characters, two up to sixteen, three beyond). `x-` keys are extensions and mean themselves.
/// A key as close to two defined keys is not guessed.
#[must_use]
pub fn near_miss(
    key: &str,
    known: &[&'static str],
    mut present: impl FnMut(&str) -> bool,
) -> Option<&'static str> {
    if key.starts_with("x-") || known.contains(&key) {
        return None;
    }
    let lower = key.to_ascii_lowercase();
    let mut best: Option<(usize, &'static str)> = None;
    let mut tie = false;
    for candidate in known {
        let distance = strsim::damerau_levenshtein(&lower, &candidate.to_ascii_lowercase());
        let allowed = match candidate.len() {
            0..=8 => 1,
            9..=16 => 2,
            _ => 3,
        };
        if distance > allowed {
            continue;
        }
        match best {
            Some((d, _)) if d < distance => {}
            Some((d, _)) if d == distance => tie = true,
            _ => {
                best = Some((distance, candidate));
                tie = false;
            }
        }
    }
    let (_, meant) = best.filter(|_| !tie)?;
    (!present(meant)).then_some(meant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_are_read_as_the_key_meant() {
        let none = |_: &str| false;
        assert_eq!(
            near_miss("preSyncronizationAction", PUSH_KEYS, none),
            Some("preSynchronizationAction")
        );
        assert_eq!(near_miss("crate", PUSH_KEYS, none), Some("create"));
        assert_eq!(near_miss("Update", PUSH_KEYS, none), Some("update"));
        assert_eq!(
            near_miss("schemaTransformer", PUSH_KEYS, none),
            Some("schemasTransformer")
        );
        assert_eq!(near_miss("batchread", PULL_KEYS, none), Some("batchRead"));
    }

    #[test]
    fn far_keys_extensions_and_keys_already_present_are_not_guessed() {
        let none = |_: &str| false;
        assert_eq!(near_miss("retries", PUSH_KEYS, none), None);
        assert_eq!(near_miss("x-create", PUSH_KEYS, none), None);
        assert_eq!(near_miss("create", PUSH_KEYS, none), None);
        assert_eq!(near_miss("crate", PUSH_KEYS, |k| k == "create"), None);
    }
}
