//! Reading a definition's bytes within the loader's limit: a file of 1 GiB or more is refused
//! before it is read (its size from the file system, then a read that stops one byte past the
//! limit for what has no size: a pipe, standard input, a `/proc` file), never read whole first.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use super::error::{LoadError, LoadErrorKind};
use crate::source::{SourceFile, Span};
use crate::tree::MAX_TEXT_LEN;

/// Why a definition's bytes could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The file or stream could not be read.
    Io(std::io::Error),
    /// It holds more than the loader addresses.
    TooLarge,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => e.fmt(f),
            ReadError::TooLarge => f.write_str("it is 1 GiB or larger"),
        }
    }
}

impl ReadError {
    /// The loader's error for the file shown as `name`: an I/O failure, or the refusal SD111
    /// reports.
    #[must_use]
    pub fn into_load_error(self, name: &str) -> LoadError {
        let source = Arc::new(SourceFile::new(name, String::new()));
        match self {
            ReadError::Io(error) => LoadError {
                kind: LoadErrorKind::Io,
                message: format!("cannot read the file: {error}"),
                help: Some("check that the path exists and is readable".into()),
                span: None,
                related: Vec::new(),
                source,
            },
            ReadError::TooLarge => LoadError::new(
                LoadErrorKind::TooLarge,
                &source,
                Span::empty(0),
                "the file is 1 GiB or larger",
            )
            .with_help("split the definition into smaller files"),
        }
    }
}

/// The bytes of the file at `path`.
///
/// # Errors
/// [`ReadError::Io`] when it cannot be read; [`ReadError::TooLarge`] when it holds more than
/// the loader addresses, found from its size before it is read.
pub fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let file = File::open(path).map_err(ReadError::Io)?;
    let size = file.metadata().map_err(ReadError::Io)?.len();
    if size > MAX_TEXT_LEN as u64 {
        return Err(ReadError::TooLarge);
    }
    read_within(file, MAX_TEXT_LEN)
}

/// The bytes of `reader` (standard input, say).
///
/// # Errors
/// As [`read_file`].
pub fn read_stream(reader: impl Read) -> Result<Vec<u8>, ReadError> {
    read_within(reader, MAX_TEXT_LEN)
}

/// At most `limit` bytes of `reader`; one more is a refusal.
fn read_within(reader: impl Read, limit: usize) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() > limit {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_refused_one_byte_past_the_limit_without_reading_on() {
        // An endless stream: reading it whole would never end.
        let refused = read_within(std::io::repeat(b'a'), 1024).expect_err("refused");
        assert!(matches!(refused, ReadError::TooLarge), "{refused}");
        let read = read_within(std::io::repeat(b'a').take(1024), 1024).expect("read");
        assert_eq!(read.len(), 1024);
    }

    #[test]
    fn a_file_of_3_gib_is_refused_by_its_size() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("sparse.json");
        let file = File::create(&path).expect("create");
        // Sparse: no disk and no time, but 3 GiB to whoever reads it.
        file.set_len(3 << 30).expect("set length");
        let refused = read_file(&path).expect_err("refused");
        assert!(matches!(refused, ReadError::TooLarge), "{refused}");
        let refused = refused.into_load_error("sparse.json");
        assert_eq!(refused.kind, LoadErrorKind::TooLarge);
        assert!(
            refused.message.contains("1 GiB or larger"),
            "{}",
            refused.message
        );
        let missing = read_file(&dir.path().join("absent.json")).expect_err("absent");
        assert_eq!(
            missing.into_load_error("absent.json").kind,
            LoadErrorKind::Io
        );
    }
}
