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

/// The bytes of the file at `path`, shown as `name`.
///
/// # Errors
/// [`LoadErrorKind::Io`] when it cannot be read; [`LoadErrorKind::TooLarge`] when it holds
/// more than the loader addresses.
pub fn read_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    let name = path.display().to_string();
    let io = |e: std::io::Error| io_error(&name, &e);
    let file = File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > MAX_TEXT_LEN as u64 {
        return Err(too_large(&name));
    }
    read_within(&name, file, MAX_TEXT_LEN)
}

/// The bytes of `reader` (standard input, say), shown as `name`.
///
/// # Errors
/// As [`read_file`].
pub fn read_stream(name: &str, reader: impl Read) -> Result<Vec<u8>, LoadError> {
    read_within(name, reader, MAX_TEXT_LEN)
}

/// At most `limit` bytes of `reader`; one more is a refusal.
fn read_within(name: &str, reader: impl Read, limit: usize) -> Result<Vec<u8>, LoadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(name, &e))?;
    if bytes.len() > limit {
        return Err(too_large(name));
    }
    Ok(bytes)
}

fn empty_source(name: &str) -> Arc<SourceFile> {
    Arc::new(SourceFile::new(name, String::new()))
}

fn too_large(name: &str) -> LoadError {
    LoadError::new(
        LoadErrorKind::TooLarge,
        &empty_source(name),
        Span::empty(0),
        "the file is 1 GiB or larger",
    )
    .with_help("split the definition into smaller files")
}

fn io_error(name: &str, error: &std::io::Error) -> LoadError {
    LoadError {
        kind: LoadErrorKind::Io,
        message: format!("cannot read the file: {error}"),
        help: Some("check that the path exists and is readable".into()),
        span: None,
        related: Vec::new(),
        source: empty_source(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_refused_one_byte_past_the_limit_without_reading_on() {
        // An endless stream: reading it whole would never end.
        let refused = read_within("<stdin>", std::io::repeat(b'a'), 1024).expect_err("refused");
        assert_eq!(refused.kind, LoadErrorKind::TooLarge);
        let read = read_within("<stdin>", std::io::repeat(b'a').take(1024), 1024).expect("read");
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
        assert_eq!(refused.kind, LoadErrorKind::TooLarge);
        assert!(
            refused.message.contains("1 GiB or larger"),
            "{}",
            refused.message
        );
        let missing = read_file(&dir.path().join("absent.json")).expect_err("absent");
        assert_eq!(missing.kind, LoadErrorKind::Io);
    }
}
