//! Paths made absolute and cleaned lexically: the file system is not asked (symlinks are not
//! followed), so `catalog/../catalog/x.yaml` and `catalog/x.yaml` compare equal whatever the
//! checkout. Shared by the SARIF artifact locations, the ignore file's relative paths and the
//! `extends` `syncdef new` writes.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute (against the current directory) with `.` and `..` resolved; `path`
/// cleaned as it is when the current directory cannot be read.
#[must_use]
pub fn absolute(path: &Path) -> PathBuf {
    // The parent of a bare file name is the empty path: the current directory.
    let path = if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    };
    let joined = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            // `..` of the root is the root, as for the operating system.
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
