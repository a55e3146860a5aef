//! When each changed document is due to be linted: a burst of changes is linted once, on the
//! latest text, a short quiet time after its last change.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use lsp_types::Url;

/// Documents waiting to be linted, each with its due time.
#[derive(Debug)]
pub struct Debounce {
    quiet: Duration,
    due: HashMap<Url, Instant>,
}

impl Debounce {
    /// Lints a document `quiet` after its last change.
    #[must_use]
    pub fn new(quiet: Duration) -> Debounce {
        Debounce {
            quiet,
            due: HashMap::new(),
        }
    }

    /// `uri` changed at `now`: its lint moves to `now + quiet`.
    pub fn changed(&mut self, uri: Url, now: Instant) {
        self.due.insert(uri, now + self.quiet);
    }

    /// `uri` needs no pending lint any more (closed, or linted at once).
    pub fn cancel(&mut self, uri: &Url) {
        self.due.remove(uri);
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
}
