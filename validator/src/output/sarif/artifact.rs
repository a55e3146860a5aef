//! Where a result's file is: a URI relative to the source root (`%SRCROOT%`), which the run
//! resolves in `originalUriBaseIds`, or an absolute `file://` URI for a file outside the root.
//!
//! GitHub code scanning resolves relative URIs against the repository's checkout, so the root
//! is the repository (the nearest directory above the current one holding `.git`), or the
//! current directory outside a repository.

use std::path::{Path, PathBuf};

use syncdef_definitions::lexical_path::absolute;

use serde_json::{Value, json};

/// The base id relative artifact URIs name, as SARIF producers conventionally spell it.
pub const SRCROOT: &str = "%SRCROOT%";

/// The source root for a run started in the current directory: the repository holding it, or
/// the directory itself. Without a current directory (it was deleted), `.`.
#[must_use]
pub fn source_root() -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else {
        return PathBuf::from(".");
    };
    cwd.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map_or_else(|| cwd.clone(), Path::to_owned)
}

/// Turns file names, as the report holds them, into artifact locations.
pub(super) struct Artifacts {
    root: PathBuf,
}

impl Artifacts {
    /// Locations relative to `root` (made absolute against the current directory).
    pub(super) fn new(root: &Path) -> Self {
        Artifacts {
            root: absolute(root),
        }
    }

    /// The `originalUriBaseIds` entry giving the root's absolute URI.
    pub(super) fn base_ids(&self) -> Value {
        let mut uri = file_uri(&self.root);
        // A base URI must end with a slash, or resolving against it drops its last segment.
        if !uri.ends_with('/') {
            uri.push('/');
        }
        json!({ SRCROOT: { "uri": uri } })
    }

    /// The `artifactLocation` of the file named `name`.
    pub(super) fn location(&self, name: &str) -> Value {
        let path = absolute(Path::new(name));
        match path.strip_prefix(&self.root) {
            Ok(relative) => json!({ "uri": relative_uri(relative), "uriBaseId": SRCROOT }),
            Err(_) => json!({ "uri": file_uri(&path) }),
        }
    }

    /// The URI a fingerprint names the file by: the same on every checkout of the repository.
    pub(super) fn stable_name(&self, name: &str) -> String {
        let path = absolute(Path::new(name));
        match path.strip_prefix(&self.root) {
            Ok(relative) => relative_uri(relative),
            Err(_) => file_uri(&path),
        }
    }
}

/// A relative URI reference: forward slashes, reserved characters percent-encoded.
fn relative_uri(path: &Path) -> String {
    let segments: Vec<String> = path
        .components()
        .map(|c| encode(&c.as_os_str().to_string_lossy()))
        .collect();
    segments.join("/")
}

/// The `file://` URI of an absolute path (`file:///C:/...` for a Windows drive).
fn file_uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = if text.starts_with('/') {
        text
    } else {
        format!("/{text}")
    };
    let encoded: Vec<String> = text.split('/').map(encode_keeping_drive).collect();
    format!("file://{}", encoded.join("/"))
}

/// Encodes a segment, keeping the colon of a Windows drive (`C:`) as RFC 8089 writes it.
fn encode_keeping_drive(segment: &str) -> String {
    let bytes = segment.as_bytes();
    if bytes.len() == 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return segment.to_owned();
    }
    encode(segment)
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
fn encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(byte as char);
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_under_the_root_are_relative_and_encoded() {
        let artifacts = Artifacts::new(Path::new("/repo"));
        assert_eq!(
            artifacts.location("/repo/./catalog/qbo online.yaml"),
            json!({ "uri": "catalog/qbo%20online.yaml", "uriBaseId": SRCROOT })
        );
        assert_eq!(
            artifacts.location("/repo/catalog/../x,y.yaml")["uri"],
            "x%2Cy.yaml"
        );
        assert_eq!(
            artifacts.location("/other/bc.yaml"),
            json!({ "uri": "file:///other/bc.yaml" })
        );
        assert_eq!(artifacts.base_ids()[SRCROOT]["uri"], "file:///repo/");
    }

    #[test]
    fn relative_names_are_taken_from_the_current_directory() {
        let cwd = std::env::current_dir().expect("a current directory");
        let artifacts = Artifacts::new(&cwd);
        assert_eq!(
            artifacts.location("./catalog/bc.yaml")["uri"],
            "catalog/bc.yaml"
        );
    }
}
