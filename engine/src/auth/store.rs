//! Where OAuth2 tokens live between runs: a trait, an owner-only JSON file, and memory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

use super::{AuthError, Secret};

/// The tokens of one authorization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTokens {
    /// The access token.
    pub access_token: Secret,
    /// The refresh token; the newest one must always be kept (QuickBooks rotates them).
    pub refresh_token: Option<Secret>,
    /// When the access token expires, in seconds since the Unix epoch.
    pub expires_at: Option<u64>,
}

impl StoredTokens {
    /// Whether the access token expires within `margin_secs` from now.
    #[must_use]
    pub fn expires_within(&self, margin_secs: u64) -> bool {
        self.expires_at
            .is_some_and(|at| at <= now_secs().saturating_add(margin_secs))
    }
}

pub(crate) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[derive(Serialize, Deserialize)]
struct OnDisk {
    access_token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refresh_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expires_at: Option<u64>,
}

/// Keeps tokens between runs. `save` must be durable when it returns: the engine saves a rotated
/// refresh token before it uses the new access token.
pub trait TokenStore: Send + Sync {
    /// The stored tokens, if any.
    fn load(&self) -> BoxFuture<'_, Result<Option<StoredTokens>, AuthError>>;
    /// Replaces the stored tokens.
    fn save<'a>(&'a self, tokens: &'a StoredTokens) -> BoxFuture<'a, Result<(), AuthError>>;
}

/// Tokens in memory (tests, short-lived tools).
#[derive(Debug, Default)]
pub struct MemoryTokenStore(Mutex<Option<StoredTokens>>);

impl MemoryTokenStore {
    /// A store holding `tokens`.
    #[must_use]
    pub fn new(tokens: Option<StoredTokens>) -> Self {
        MemoryTokenStore(Mutex::new(tokens))
    }
}

impl TokenStore for MemoryTokenStore {
    fn load(&self) -> BoxFuture<'_, Result<Option<StoredTokens>, AuthError>> {
        let t = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        Box::pin(std::future::ready(Ok(t)))
    }

    fn save<'a>(&'a self, tokens: &'a StoredTokens) -> BoxFuture<'a, Result<(), AuthError>> {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(tokens.clone());
        Box::pin(std::future::ready(Ok(())))
    }
}

/// Tokens in a JSON file readable by its owner only.
///
/// Reading refuses a file that group or others can read (fix: `chmod 600`). Writing creates a
/// temporary file with mode 0600 beside it, syncs it, and renames it over the old one, so a
/// crash leaves either the old tokens or the new ones, never a torn file. File I/O runs on
/// tokio's blocking pool.
#[derive(Clone, Debug)]
pub struct FileTokenStore {
    path: PathBuf,
}

impl FileTokenStore {
    /// A store at `path` (created on the first save).
    #[must_use]
    pub fn new(path: impl Into<PathBuf>) -> Self {
        FileTokenStore { path: path.into() }
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl TokenStore for FileTokenStore {
    fn load(&self) -> BoxFuture<'_, Result<Option<StoredTokens>, AuthError>> {
        let path = self.path.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || read_file(&path))
                .await
                .map_err(|e| AuthError::new(format!("the token store read was cancelled: {e}")))?
        })
    }

    fn save<'a>(&'a self, tokens: &'a StoredTokens) -> BoxFuture<'a, Result<(), AuthError>> {
        let path = self.path.clone();
        let disk = OnDisk {
            access_token: tokens.access_token.expose().to_owned(),
            refresh_token: tokens.refresh_token.as_ref().map(|s| s.expose().to_owned()),
            expires_at: tokens.expires_at,
        };
        Box::pin(async move {
            tokio::task::spawn_blocking(move || write_file(&path, &disk))
                .await
                .map_err(|e| AuthError::new(format!("the token store write was cancelled: {e}")))?
        })
    }
}

fn read_file(path: &Path) -> Result<Option<StoredTokens>, AuthError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(AuthError::new(format!(
                "cannot read the token store {}: {e}",
                path.display()
            )));
        }
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(AuthError::new(format!(
                "the token store {} is readable by others (mode {mode:o}); run `chmod 600 {}` (and consider revoking its tokens)",
                path.display(),
                path.display()
            )));
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    let text = std::fs::read_to_string(path).map_err(|e| {
        AuthError::new(format!(
            "cannot read the token store {}: {e}",
            path.display()
        ))
    })?;
    // serde_json's message names a position, never the content, so no token leaks into it.
    let disk: OnDisk = serde_json::from_str(&text).map_err(|e| {
        AuthError::new(format!(
            "the token store {} is not a syncdef token file ({e}); run `syncdef auth login` to write it again",
            path.display()
        ))
    })?;
    Ok(Some(StoredTokens {
        access_token: Secret::new(disk.access_token),
        refresh_token: disk.refresh_token.map(Secret::new),
        expires_at: disk.expires_at,
    }))
}

fn write_file(path: &Path, disk: &OnDisk) -> Result<(), AuthError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let fail = |what: &str, e: std::io::Error| {
        AuthError::new(format!(
            "cannot {what} the token store {}: {e}",
            path.display()
        ))
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "tokens".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let bytes = serde_json::to_vec_pretty(disk)
        .map_err(|e| AuthError::new(format!("cannot encode the tokens: {e}")))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let result = (|| {
        let mut file = options.open(&tmp)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // The rename is durable once the directory is synced.
        #[cfg(unix)]
        std::fs::File::open(dir)?.sync_all()?;
        Ok(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail("write", e)
    })
}
