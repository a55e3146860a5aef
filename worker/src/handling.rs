//! [`Handling`]: the records a pusher of this worker is handling now.
//!
//! The shared queue's leases keep other workers off a record, but the pushers of one worker
//! share its name in the leases, so a lease cannot keep them off each other: two invoices
//! of one account, taken by two pushers, would both claim the account under the worker's
//! lease and could both create it (a lookup does not see a create still on its way, and not
//! every system takes idempotency keys). A pusher therefore also holds the record here while
//! it handles it; another pusher of the worker that meets it does what a pusher of another
//! worker does: it leaves it, and its own record is tried again.

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

use crate::state::RecordKey;

/// The records held by this worker's pushers.
#[derive(Debug, Default)]
pub(crate) struct Handling(Mutex<HashSet<RecordKey>>);

/// A record held until dropped.
#[derive(Debug)]
pub(crate) struct Hold<'a> {
    handling: &'a Handling,
    key: RecordKey,
}

impl Handling {
    /// Holds `key`, unless another pusher holds it.
    pub(crate) fn hold(&self, key: &RecordKey) -> Option<Hold<'_>> {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        held.insert(key.clone()).then(|| Hold {
            handling: self,
            key: key.clone(),
        })
    }
}

impl Drop for Hold<'_> {
    fn drop(&mut self) {
        self.handling
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_held_once_until_let_go() {
        let handling = Handling::default();
        let key = RecordKey::new("Account", "7");
        let hold = handling.hold(&key).expect("free");
        assert!(handling.hold(&key).is_none(), "held by the first");
        assert!(handling.hold(&RecordKey::new("Account", "8")).is_some());
        drop(hold);
        assert!(handling.hold(&key).is_some(), "free again");
    }
}
