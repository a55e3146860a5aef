//! What a run did: counts per entry, and in a dry-run the requests it would have sent.

use std::collections::BTreeMap;

use serde::Serialize;
use syncdef_engine::RecordedRequest;

/// What became of one record in this run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RecordResult {
    /// Created in the external system.
    Created,
    /// Updated there.
    Updated,
    /// Deleted there (a record whose deletion marker turned on, a line its record lost).
    Deleted,
    /// Nothing changed since the last push: not sent.
    Unchanged,
    /// The push failed; stored with its error and retried later.
    Failed,
    /// A create may have happened; stored as unknown, waiting for an operator.
    Unknown,
    /// Not tried in this run: waiting for its backoff, or for an operator.
    Skipped,
}

/// What became of one record pulled onto the platform in this run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PullResult {
    /// Created on the platform.
    Created,
    /// Patched on the platform.
    Updated,
    /// Already as the external system has it: nothing written.
    Unchanged,
    /// Changed on both sides since the last sync; the policy kept the platform's version.
    Conflict,
    /// Could not be written (stored with its error).
    Failed,
    /// A create of it may have reached the platform: it waits for an operator.
    Unknown,
}

/// Counts of one entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntrySummary {
    /// Records listed as changed since the cursor.
    pub listed: u64,
    /// Failed records tried again because their backoff ended.
    pub retried: u64,
    /// Pushed because another entry's record needed them first.
    pub pushed_as_dependency: u64,
    /// Created.
    pub created: u64,
    /// Updated.
    pub updated: u64,
    /// Deleted.
    #[serde(skip_serializing_if = "is_zero")]
    pub deleted: u64,
    /// Unchanged, not sent.
    pub unchanged: u64,
    /// Failed.
    pub failed: u64,
    /// Unknown outcome.
    pub unknown: u64,
    /// Skipped.
    pub skipped: u64,
    /// Listed but impossible to sync (no usable `id`): also counted as skipped, and a reason
    /// the run is not clean.
    pub unusable: u64,
    /// Created by a create sent again under the idempotency key of an earlier create of
    /// unknown outcome, with a record changed since: the external system may have answered
    /// with the earlier create, so each was updated at once with the record as it is now.
    #[serde(skip_serializing_if = "is_zero")]
    pub repeated_creates: u64,
    /// The cursor after the run.
    pub cursor: Option<String>,
    /// What the run met that a person should know, each once: records without an id, paging
    /// numbers that disagree. Kept in the state for `syncdef sync status`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl EntrySummary {
    /// Notes `warning`, once however often it comes.
    pub(crate) fn warn(&mut self, warning: String) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }

    /// Created, updated and deleted.
    pub fn pushed(&self) -> u64 {
        self.created + self.updated + self.deleted
    }

    pub(crate) fn count(&mut self, result: RecordResult) {
        match result {
            RecordResult::Created => self.created += 1,
            RecordResult::Updated => self.updated += 1,
            RecordResult::Deleted => self.deleted += 1,
            RecordResult::Unchanged => self.unchanged += 1,
            RecordResult::Failed => self.failed += 1,
            RecordResult::Unknown => self.unknown += 1,
            RecordResult::Skipped => self.skipped += 1,
        }
    }
}

/// Counts of one entry's pull.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PullSummary {
    /// Pages read.
    pub pages: u64,
    /// Records read.
    pub read: u64,
    /// Created on the platform.
    pub created: u64,
    /// Patched on the platform.
    pub updated: u64,
    /// Already as the external system has them.
    pub unchanged: u64,
    /// Changed on both sides since the last sync; the policy kept the platform's version.
    pub conflicts: u64,
    /// Elements the template made that are not records (see the log).
    pub rejected: u64,
    /// Could not be written (stored with their error).
    pub failed: u64,
    /// A create of them may have reached the platform: waiting for an operator.
    pub unknown: u64,
    /// The pull cursor after the run.
    pub cursor: Option<String>,
}

impl PullSummary {
    pub(crate) fn count(&mut self, result: PullResult) {
        match result {
            PullResult::Created => self.created += 1,
            PullResult::Updated => self.updated += 1,
            PullResult::Unchanged => self.unchanged += 1,
            PullResult::Conflict => self.conflicts += 1,
            PullResult::Failed => self.failed += 1,
            PullResult::Unknown => self.unknown += 1,
        }
    }
}

/// A push a dry-run would have made.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedPush {
    /// The entry.
    pub entry: String,
    /// The record's platform id.
    pub platform_id: String,
    /// `create` or `update`, once the engine chose.
    pub operation: Option<String>,
    /// Every request, secrets masked, in order (pre-actions included).
    pub requests: Vec<RecordedRequest>,
    /// Why the push would fail, if it would.
    pub error: Option<String>,
}

/// The result of [`crate::Worker::run`].
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncReport {
    /// Per entry, in the order run.
    pub entries: BTreeMap<String, EntrySummary>,
    /// Per entry pulled (`--direction pull` or `both`), before the pushes.
    pub pulled: BTreeMap<String, PullSummary>,
    /// The order the entries ran in.
    pub order: Vec<String>,
    /// Creates cut short by an earlier crash, found at the start and set to unknown.
    pub recovered_in_flight: u64,
    /// A dry-run: nothing was sent and nothing stored.
    pub dry_run: bool,
    /// In a dry-run, what would have been pushed.
    pub planned: Vec<PlannedPush>,
    /// Why the run stopped early, if it did (the counts are what was done until then).
    pub stopped: Option<String>,
    /// The run stopped because a listing made no progress: run again, the worker would list
    /// the same records again (`syncdef sync alive` reports such a worker stalled).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stalled: bool,
    /// What the run met outside any entry that a person should know (the platform's token
    /// endpoint); each entry's are in its summary.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl SyncReport {
    /// Whether every record handled ended well (no failure, no unknown, no early stop).
    pub fn is_clean(&self) -> bool {
        self.stopped.is_none() && self.records_clean()
    }

    /// Whether no record failed, ended unknown or could not be synced (whether or not the run
    /// was stopped).
    pub fn records_clean(&self) -> bool {
        self.entries
            .values()
            .all(|s| s.failed == 0 && s.unknown == 0 && s.unusable == 0)
            && self
                .pulled
                .values()
                .all(|s| s.failed == 0 && s.unknown == 0 && s.rejected == 0)
    }
}
