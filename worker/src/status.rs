//! The view `syncdef sync status` prints: counts per entry and status, cursors, and the
//! records that need attention.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::state::{CursorRow, RecordRow, State, StateError, WarningRow};

/// Counts, cursors and problem records of a state.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusReport {
    /// Per entry, per status (`done`, `failed`, `unknown`, `inFlight`), how many records.
    pub counts: BTreeMap<String, BTreeMap<String, u64>>,
    /// Saved cursors.
    pub cursors: Vec<CursorRow>,
    /// Failed and unknown records with their errors (at most the limit asked for).
    pub problems: Vec<RecordRow>,
    /// Whether more problem records exist than listed.
    pub truncated: bool,
    /// What the last runs met that a person should know, by entry (`""`: the run itself).
    pub warnings: Vec<WarningRow>,
}

impl StatusReport {
    /// Reads the report from `state`, listing at most `limit` problem records.
    pub fn read(state: &dyn State, limit: u32) -> Result<Self, StateError> {
        let mut counts: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
        for c in state.counts()? {
            counts
                .entry(c.entry)
                .or_default()
                .insert(c.status.as_str().to_owned(), c.count);
        }
        let mut problems = state.problems(limit.saturating_add(1))?;
        let truncated = problems.len() > limit as usize;
        problems.truncate(limit as usize);
        Ok(StatusReport {
            counts,
            cursors: state.cursors()?,
            problems,
            truncated,
            warnings: state.warnings()?,
        })
    }

    /// Whether some record failed or waits for an operator.
    pub fn has_problems(&self) -> bool {
        !self.problems.is_empty()
    }
}
