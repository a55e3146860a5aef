//! Where the platform credentials come from: environment variables or a private file.
//!
//! Never from command-line arguments: those show in `ps` and shell history.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::secret::Secret;

/// Environment variable holding the OAuth client key issued with the organization's API credentials.
pub const ENV_CLIENT_KEY: &str = "SYNCDEF_PLATFORM_CLIENT_KEY";
/// Environment variable holding the OAuth client secret.
pub const ENV_CLIENT_SECRET: &str = "SYNCDEF_PLATFORM_CLIENT_SECRET";
/// Environment variable holding the application user's name.
pub const ENV_USERNAME: &str = "SYNCDEF_PLATFORM_USERNAME";
/// Environment variable holding the application user's password.
pub const ENV_PASSWORD: &str = "SYNCDEF_PLATFORM_PASSWORD";
/// Environment variable naming a credentials file (TOML or JSON); it wins over the four above.
pub const ENV_CREDENTIALS_FILE: &str = "SYNCDEF_PLATFORM_CREDENTIALS";

/// The keys of a credentials file, in the order they are reported.
const FILE_KEYS: [&str; 4] = ["client_key", "client_secret", "username", "password"];

/// The four values the password grant needs (spec part 5).
///
/// `Debug` is safe to print: the secret and the password are [`Secret`]s.
#[derive(Debug, Clone)]
pub struct Credentials {
    /// Client key, sent only inside HTTP Basic to the token endpoint.
    pub client_key: String,
    /// Client secret, sent only inside HTTP Basic to the token endpoint.
    pub client_secret: Secret,
    /// Application user name, sent in the token form.
    pub username: String,
    /// Application user password, sent in the token form.
    pub password: Secret,
}

/// Why credentials could not be loaded. Messages name the variable or file and never a value.
#[derive(Debug, thiserror::Error)]
pub enum CredentialsError {
    /// Some of the environment variables are unset or empty.
    #[error(
        "platform credentials are incomplete: set {} (or point {ENV_CREDENTIALS_FILE} at a credentials file)",
        .missing.join(", ")
    )]
    MissingEnv {
        /// Names of the unset variables.
        missing: Vec<&'static str>,
    },
    /// The credentials file could not be read.
    #[error("cannot read the credentials file {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The credentials file can be read by other users.
    #[error(
        "the credentials file {} is readable by group or others (mode {mode:o}); run `chmod 600 {}` and try again",
        .path.display(), .path.display()
    )]
    TooOpen {
        /// The file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The file is not valid TOML or JSON, or lacks a key.
    #[error("invalid credentials file {}: {reason}", .path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, without any value from the file.
        reason: String,
    },
}

impl Credentials {
    /// Credentials given directly, for programs that keep them in their own secret store.
    pub fn new(
        client_key: impl Into<String>,
        client_secret: impl Into<Secret>,
        username: impl Into<String>,
        password: impl Into<Secret>,
    ) -> Self {
        Self {
            client_key: client_key.into(),
            client_secret: client_secret.into(),
            username: username.into(),
            password: password.into(),
        }
    }

    /// The usual entry point: the file named by [`ENV_CREDENTIALS_FILE`] if set, else the four
    /// `SYNCDEF_PLATFORM_*` variables.
    ///
    /// Reads a small file synchronously: call it at start-up, not inside a hot async path.
    pub fn load() -> Result<Self, CredentialsError> {
        match std::env::var_os(ENV_CREDENTIALS_FILE) {
            Some(path) if !path.is_empty() => Self::from_file(Path::new(&path)),
            _ => Self::from_env(),
        }
    }

    /// Reads [`ENV_CLIENT_KEY`], [`ENV_CLIENT_SECRET`], [`ENV_USERNAME`] and [`ENV_PASSWORD`].
    pub fn from_env() -> Result<Self, CredentialsError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Like [`Credentials::from_env`] with another source of variables (tests, config layers).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, CredentialsError> {
        let names = [
            ENV_CLIENT_KEY,
            ENV_CLIENT_SECRET,
            ENV_USERNAME,
            ENV_PASSWORD,
        ];
        let mut values = names.map(|name| lookup(name).filter(|v| !v.is_empty()));
        let missing: Vec<&'static str> = names
            .iter()
            .zip(&values)
            .filter(|(_, value)| value.is_none())
            .map(|(name, _)| *name)
            .collect();
        if !missing.is_empty() {
            return Err(CredentialsError::MissingEnv { missing });
        }
        let mut take = |i: usize| values[i].take().unwrap_or_default();
        Ok(Self::new(take(0), take(1), take(2), take(3)))
    }

    /// Reads a TOML or JSON file with the keys `client_key`, `client_secret`, `username` and
    /// `password` (all strings). The format follows the extension (`.json`, else TOML).
    ///
    /// On Unix the file must not be readable by group or others.
    pub fn from_file(path: &Path) -> Result<Self, CredentialsError> {
        check_private(path)?;
        let text = std::fs::read_to_string(path).map_err(|source| CredentialsError::Read {
            path: path.to_owned(),
            source,
        })?;
        let invalid = |reason: String| CredentialsError::Invalid {
            path: path.to_owned(),
            reason,
        };
        let is_json = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("json"));
        let fields = if is_json {
            parse_json(&text)
        } else {
            parse_toml(&text)
        }
        .map_err(invalid)?;
        Self::from_fields(fields).map_err(invalid)
    }

    fn from_fields(mut fields: BTreeMap<String, FieldValue>) -> Result<Self, String> {
        if let Some(unknown) = fields.keys().find(|k| !FILE_KEYS.contains(&k.as_str())) {
            let hint = crate::suggest::did_you_mean(unknown, FILE_KEYS.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            return Err(format!(
                "unknown key `{unknown}`{hint} (expected {})",
                FILE_KEYS.join(", ")
            ));
        }
        let mut take = |key: &str| match fields.remove(key) {
            Some(FieldValue::Text(v)) if !v.is_empty() => Ok(v),
            Some(FieldValue::Text(_)) => Err(format!("`{key}` is empty")),
            Some(FieldValue::NotText) => Err(format!("`{key}` must be a string")),
            None => Err(format!("`{key}` is missing")),
        };
        Ok(Self::new(
            take("client_key")?,
            take("client_secret")?,
            take("username")?,
            take("password")?,
        ))
    }
}

/// A value of the file, kept only when it is text so that wrong-typed values are never echoed.
enum FieldValue {
    Text(String),
    NotText,
}

fn parse_json(text: &str) -> Result<BTreeMap<String, FieldValue>, String> {
    // Only the position is reported: parser messages could quote part of a secret.
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("not valid JSON (line {}, column {})", e.line(), e.column()))?;
    let serde_json::Value::Object(map) = value else {
        return Err("the top level must be an object".to_owned());
    };
    Ok(map
        .into_iter()
        .map(|(k, v)| match v {
            serde_json::Value::String(s) => (k, FieldValue::Text(s)),
            _ => (k, FieldValue::NotText),
        })
        .collect())
}

fn parse_toml(text: &str) -> Result<BTreeMap<String, FieldValue>, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|span| text[..span.start.min(text.len())].lines().count().max(1));
        match line {
            Some(line) => format!("not valid TOML (line {line}); expected `key = \"value\"` lines"),
            None => "not valid TOML; expected `key = \"value\"` lines".to_owned(),
        }
    })?;
    Ok(table
        .into_iter()
        .map(|(k, v)| match v {
            toml::Value::String(s) => (k, FieldValue::Text(s)),
            _ => (k, FieldValue::NotText),
        })
        .collect())
}

#[cfg(unix)]
fn check_private(path: &Path) -> Result<(), CredentialsError> {
    use std::os::unix::fs::PermissionsExt;
    let metadata = std::fs::metadata(path).map_err(|source| CredentialsError::Read {
        path: path.to_owned(),
        source,
    })?;
    let mode = metadata.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(CredentialsError::TooOpen {
            path: path.to_owned(),
            mode,
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_path: &Path) -> Result<(), CredentialsError> {
    // Windows ACLs do not map to mode bits; the file's ACL is the user's responsibility.
    Ok(())
}
