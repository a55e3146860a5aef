//! [`StateLocation`]: where the state is, from `--state` (or `SYNCDEF_STATE`): a
//! `postgres://` URL for a shared PostgreSQL state, anything else a `SQLite` file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::postgres::shown_location;
use super::{PostgresState, SqliteState, State, StateError};

/// Where a state is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateLocation {
    /// An embedded `SQLite` file (the default, beside the definition).
    Sqlite(PathBuf),
    /// A PostgreSQL database, shared by every worker given the same URL.
    Postgres(String),
}

impl StateLocation {
    /// Reads `--state`: `postgres://` and `postgresql://` URLs name a PostgreSQL database,
    /// anything else a `SQLite` file.
    pub fn parse(text: &str) -> Self {
        let lower = text.get(..13).unwrap_or(text).to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            StateLocation::Postgres(text.to_owned())
        } else {
            StateLocation::Sqlite(PathBuf::from(text))
        }
    }

    /// The location for messages: a path, or the URL without its password.
    pub fn shown(&self) -> String {
        match self {
            StateLocation::Sqlite(path) => path.display().to_string(),
            StateLocation::Postgres(url) => shown_location(url),
        }
    }

    /// The `SQLite` file, if the state is one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            StateLocation::Sqlite(path) => Some(path),
            StateLocation::Postgres(_) => None,
        }
    }

    /// Opens the state for a sync run (migrated; see [`SqliteState::open`],
    /// [`PostgresState::open`]).
    pub fn open(&self) -> Result<Arc<dyn State>, StateError> {
        Ok(match self {
            StateLocation::Sqlite(path) => Arc::new(SqliteState::open(path)?),
            StateLocation::Postgres(url) => Arc::new(PostgresState::open(url)?),
        })
    }

    /// Opens the state for a dry-run: writes are rolled back.
    pub fn open_dry_run(&self) -> Result<Arc<dyn State>, StateError> {
        Ok(match self {
            StateLocation::Sqlite(path) => Arc::new(SqliteState::open_dry_run(path)?),
            StateLocation::Postgres(url) => Arc::new(PostgresState::open_dry_run(url)?),
        })
    }

    /// Opens the state to read it (`syncdef sync status`).
    pub fn open_read_only(&self) -> Result<Arc<dyn State>, StateError> {
        Ok(match self {
            StateLocation::Sqlite(path) => Arc::new(SqliteState::open_read_only(path)?),
            StateLocation::Postgres(url) => Arc::new(PostgresState::open_read_only(url)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_postgres_and_anything_else_a_file() {
        for url in ["postgres://u@h/db", "POSTGRESQL://u@h/db"] {
            assert_eq!(
                StateLocation::parse(url),
                StateLocation::Postgres(url.into())
            );
        }
        assert_eq!(
            StateLocation::parse("postgres.sqlite"),
            StateLocation::Sqlite("postgres.sqlite".into())
        );
        assert_eq!(
            StateLocation::parse("postgres://u:pw@h/db").shown(),
            "postgres://u:***@h/db"
        );
    }
}
