//! A records directory served as it is on disk: a record edited while `syncdef-mock` runs is
//! what the next listing returns, as a real platform returns a record changed since the last
//! sync. The directory is read again only when a file in it changed (name, size or time).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use crate::platform::{LoadError, Records};

/// What identifies the directory's contents without reading them.
type Fingerprint = Vec<(PathBuf, u64, Option<SystemTime>)>;

/// The records of a directory, read again when it changes.
pub struct WatchedRecords {
    dir: PathBuf,
    last: Mutex<(Fingerprint, Arc<Records>)>,
}

impl WatchedRecords {
    /// Reads `dir` for the first time.
    ///
    /// # Errors
    /// The directory or one of its records cannot be read (see [`Records::load`]).
    pub fn open(dir: &Path) -> Result<WatchedRecords, LoadError> {
        let fingerprint = fingerprint(dir);
        let records = Records::load(dir)?;
        Ok(WatchedRecords {
            dir: dir.to_owned(),
            last: Mutex::new((fingerprint, Arc::new(records))),
        })
    }

    /// The records as the directory holds them now.
    ///
    /// # Errors
    /// A record was edited into something that cannot be served (not JSON, no `id`); the
    /// error names the file, and the next call tries again.
    pub fn current(&self) -> Result<Arc<Records>, LoadError> {
        let now = fingerprint(&self.dir);
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if last.0 != now {
            let records = Records::load(&self.dir)?;
            *last = (now, Arc::new(records));
        }
        Ok(Arc::clone(&last.1))
    }
}

/// Each file's path, size and modification time, sorted.
fn fingerprint(dir: &Path) -> Fingerprint {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Fingerprint = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let metadata = entry.metadata().ok()?;
            Some((entry.path(), metadata.len(), metadata.modified().ok()))
        })
        .collect();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        fs::write(dir.join(name), text).expect("write");
    }

    #[test]
    fn an_edited_record_is_served_as_edited_and_a_broken_one_is_named() {
        let dir = tempfile::tempdir().expect("a directory");
        let record = |name: &str| {
            format!(r#"{{"id": 1, "name": "{name}", "updatedAt": "2026-01-01T00:00:00Z"}}"#)
        };
        write(dir.path(), "account-1.json", &record("Acme"));
        let watched = WatchedRecords::open(dir.path()).expect("loads");
        let name = |records: &Records| records.all("accounts")[0]["name"].clone();
        assert_eq!(name(&watched.current().expect("served")), "Acme");
        // A longer text: the size changes even where the clock is coarse.
        write(dir.path(), "account-1.json", &record("Acme Trading"));
        assert_eq!(name(&watched.current().expect("served")), "Acme Trading");
        write(dir.path(), "account-1.json", "{not json");
        let error = watched.current().expect_err("broken");
        assert!(error.path.ends_with("account-1.json"), "{error}");
    }
}
