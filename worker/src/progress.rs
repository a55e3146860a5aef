//! Whether a listing makes progress. A platform that ignores `$filter` (a proxy that drops
//! query parameters, an endpoint that does not implement it) answers every listing with the
//! same first page: the cursor moves back to that page's timestamps and the worker would list
//! forever. Each listing must move forward, so the scan stops with [`WorkerError::Stalled`] at
//! the first sign that it does not:
//!
//! - a record changed before the cursor the query asked for changes after;
//! - a page with the same records as the page before it;
//! - a listing after which the cursor would not move.

use serde_json::Value;

use crate::error::WorkerError;
use crate::shared::EntryInfo;
use crate::stamp::Stamp;

/// What one listing asked for, and the page it read last.
pub(crate) struct Progress<'a> {
    entry: &'a EntryInfo,
    /// The cursor of the query, and whether it asked for changes at it (`ge`) or after it.
    from: Option<(Stamp, bool)>,
    previous_page: Option<PageMark>,
    pages: u32,
}

/// What tells a page from the one before: its length and the ids of its first and last
/// records (records are listed in a fixed order, so a page repeating another matches all
/// three), read from two records instead of every one.
#[derive(PartialEq, Eq)]
struct PageMark {
    len: usize,
    first: String,
    last: String,
}

impl<'a> Progress<'a> {
    /// A listing of `entry` for changes after `from` (at it too when `inclusive`).
    pub fn new(entry: &'a EntryInfo, from: Option<&Stamp>, inclusive: bool) -> Self {
        Progress {
            entry,
            from: from.map(|f| (f.clone(), inclusive)),
            previous_page: None,
            pages: 0,
        }
    }

    /// A page read: refused when it holds the records of the page before it.
    pub fn page(&mut self, records: &[Value]) -> Result<(), WorkerError> {
        self.pages += 1;
        let (Some(first), Some(last)) = (records.first(), records.last()) else {
            self.previous_page = None;
            return Ok(());
        };
        let id = |record| self.entry.module.id_of(record).unwrap_or_default();
        let mark = PageMark {
            len: records.len(),
            first: id(first),
            last: id(last),
        };
        if self.previous_page.as_ref() == Some(&mark) {
            return Err(self.stalled(format!(
                "page {} of the listing holds the same {} records as page {} (the first is {}): the platform seems to ignore the page asked for",
                self.pages,
                mark.len,
                self.pages - 1,
                mark.first
            )));
        }
        self.previous_page = Some(mark);
        Ok(())
    }

    /// A record listed with its change time: refused when it changed before the cursor.
    pub fn record(&self, record: &Value, stamp: &Stamp) -> Result<(), WorkerError> {
        let Some((from, inclusive)) = &self.from else {
            return Ok(());
        };
        if stamp >= from {
            return Ok(());
        }
        let id = self
            .entry
            .module
            .id_of(record)
            .unwrap_or_else(|_| "without an id".to_owned());
        let field = self.entry.module.change_cursor();
        Err(self.stalled(format!(
            "the platform listed record {id}, changed at {}, for a query of the records changed {} {}: it seems to ignore `$filter` on `{field}`",
            stamp.text,
            if *inclusive { "at or after" } else { "after" },
            from.text
        )))
    }

    /// The cursor the next listing starts after: refused when it is not past this one's.
    pub fn next_from(&self, next: &Stamp) -> Result<(), WorkerError> {
        let Some((from, inclusive)) = &self.from else {
            return Ok(());
        };
        // A listing at the cursor (`ge`) moves on by asking after it next, at the same time.
        if next > from || (next == from && *inclusive) {
            return Ok(());
        }
        Err(self.stalled(format!(
            "after a whole page, the cursor would stay at {} (next: {}): the listing would start again where it started",
            from.text, next.text
        )))
    }

    fn stalled(&self, why: String) -> WorkerError {
        tracing::error!(entry = %self.entry.name, %why, "the listing makes no progress");
        WorkerError::Stalled {
            entry: self.entry.name.clone(),
            why,
        }
    }
}
