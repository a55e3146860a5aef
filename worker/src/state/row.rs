//! A record row as both stores read it: the columns in one order ([`COLUMNS`]), and one decoder
//! that turns them into a [`RecordRow`] (the status parsed, the stored error redacted as it is
//! shown now, the create kept in flight paired).

use super::{InFlightCreate, RecordKey, RecordRow, RecordStatus};

/// The columns of `records` every store selects, in the order [`StoredRow`] holds them.
pub(crate) const COLUMNS: &str = "entry, platform_id, external_id, body_hash, updated_at, status, \
                                  error_class, last_error, attempts, next_attempt_at, changed_at, \
                                  create_key, create_body";

/// The values of one row of `records`, as a store reads them.
pub(crate) struct StoredRow {
    pub entry: String,
    pub platform_id: String,
    pub external_id: Option<String>,
    pub body_hash: Option<String>,
    pub updated_at: Option<String>,
    pub status: String,
    pub error_class: Option<String>,
    pub last_error: Option<String>,
    pub attempts: i64,
    pub next_attempt_at: Option<i64>,
    pub changed_at: i64,
    pub create_key: Option<String>,
    pub create_body: Option<String>,
}

impl StoredRow {
    /// The record row, or what makes the stored values unreadable.
    pub fn decode(self) -> Result<RecordRow, String> {
        let status = RecordStatus::parse(&self.status)
            .ok_or_else(|| format!("unknown status `{}`", self.status))?;
        Ok(RecordRow {
            key: RecordKey::new(self.entry, self.platform_id),
            external_id: self.external_id,
            body_hash: self.body_hash,
            updated_at: self.updated_at,
            status,
            error_class: self.error_class,
            // Shown as written now even when an older version stored it: redacted, bounded.
            last_error: self
                .last_error
                .map(|m| syncdef_secrets::shown(&m).into_owned()),
            attempts: u32::try_from(self.attempts).unwrap_or(0),
            next_attempt_at: self.next_attempt_at,
            changed_at: self.changed_at,
            create: match (self.create_key, self.create_body) {
                (None, None) => None,
                (idempotency_key, body) => Some(InFlightCreate {
                    idempotency_key,
                    body,
                }),
            },
        })
    }
}
