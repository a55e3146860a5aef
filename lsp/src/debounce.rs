//! When each changed document is due to be linted: a burst of changes is linted once, on the
//! latest text, a short quiet time after its last change.
//!
//! The quiet time follows what a lint of the document costs: twice its last lint, at most the
//! server's quiet time (150 ms). A catalog definition, linted in about 10 ms, shows its
//! findings some 30 ms after a keystroke; a 13 MB description, whose lint takes a few hundred,
//! waits for a pause in the typing, so that keystrokes are not queued behind lints.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use lsp_types::Url;

/// Documents waiting to be linted, each with its due time.
#[derive(Debug)]
pub struct Debounce {
    quiet: Duration,
    due: HashMap<Url, Instant>,
    /// How long each document's last lint took.
    cost: HashMap<Url, Duration>,
}

impl Debounce {
    /// Lints a document at most `quiet` after its last change.
    #[must_use]
    pub fn new(quiet: Duration) -> Debounce {
        Debounce {
            quiet,
            due: HashMap::new(),
            cost: HashMap::new(),
        }
    }

    /// `uri` changed at `now`: its lint moves to `now` plus its quiet time.
    pub fn changed(&mut self, uri: Url, now: Instant) {
        let quiet = self
            .cost
            .get(&uri)
            .map_or(self.quiet, |cost| (*cost * 2).min(self.quiet));
        self.due.insert(uri, now + quiet);
    }

    /// `uri` was linted, in `took`.
    pub fn linted(&mut self, uri: &Url, took: Duration) {
        self.cost.insert(uri.clone(), took);
    }

    /// `uri` needs no pending lint any more (closed, or linted at once).
    pub fn cancel(&mut self, uri: &Url) {
        self.due.remove(uri);
    }

    /// `uri` was closed: nothing of it is kept.
    pub fn forget(&mut self, uri: &Url) {
        self.due.remove(uri);
        self.cost.remove(uri);
    }

    /// The earliest due time.
    #[must_use]
    pub fn next(&self) -> Option<Instant> {
        self.due.values().min().copied()
    }

    /// Takes the documents due at `now`.
    pub fn take_due(&mut self, now: Instant) -> Vec<Url> {
        let due: Vec<Url> = self
            .due
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(uri, _)| uri.clone())
            .collect();
        for uri in &due {
            self.due.remove(uri);
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_changes_is_due_once_after_its_last_change() {
        let uri = Url::parse("file:///a.yaml").expect("uri");
        let mut d = Debounce::new(Duration::from_millis(150));
        let t0 = Instant::now();
        d.changed(uri.clone(), t0);
        d.changed(uri.clone(), t0 + Duration::from_millis(100));
        assert!(d.take_due(t0 + Duration::from_millis(200)).is_empty());
        assert_eq!(d.next(), Some(t0 + Duration::from_millis(250)));
        assert_eq!(d.take_due(t0 + Duration::from_millis(250)), vec![uri]);
        assert_eq!(d.next(), None);
    }

    #[test]
    fn the_quiet_time_is_twice_the_last_lint_at_most_the_servers() {
        let small = Url::parse("file:///small.yaml").expect("uri");
        let large = Url::parse("file:///large.json").expect("uri");
        let new = Url::parse("file:///new.yaml").expect("uri");
        let mut d = Debounce::new(Duration::from_millis(150));
        d.linted(&small, Duration::from_millis(10));
        d.linted(&large, Duration::from_millis(300));
        let t0 = Instant::now();
        for uri in [&small, &large, &new] {
            d.changed(uri.clone(), t0);
        }
        assert_eq!(
            d.take_due(t0 + Duration::from_millis(20)),
            vec![small.clone()]
        );
        let mut rest = d.take_due(t0 + Duration::from_millis(150));
        rest.sort();
        assert_eq!(rest, vec![large.clone(), new.clone()]);
        d.forget(&small);
        d.changed(small.clone(), t0);
        assert_eq!(d.next(), Some(t0 + Duration::from_millis(150)));
    }
}
