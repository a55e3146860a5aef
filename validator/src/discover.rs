//! Which files a lint run looks at.
//!
//! A path named on the command line is always linted: if it holds no synchronization section
//! the user is told so ([`crate::codes::Rule::MissingSyncSection`]). Files found by walking a
//! directory are linted only when they are `*.yaml`, `*.yml` or `*.json` and hold a
//! `synchronization` (or `x-synchronization`) section; everything else in a repository (plain
//! OpenAPI files, CI configs, package.json) is skipped silently. Hidden directories,
//! `node_modules` and `target` are not entered: they hold copies or dependencies, never
//! definitions of the project. `include` and `exclude` in `syncdef.toml` narrow a walk further
//! (`crate::walk_filter`, applied once each file's configuration is known).

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::report::LintError;

/// A file to lint and how it was found.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    /// The path, as given or as joined by the walk.
    pub path: PathBuf,
    /// Named on the command line (reported even without a synchronization section).
    pub explicit: bool,
    /// The directory named on the command line whose walk found the file; `None` when the
    /// file itself was named.
    pub walk_root: Option<PathBuf>,
}

/// Extensions of files a directory walk considers.
pub const EXTENSIONS: [&str; 3] = ["yaml", "yml", "json"];

/// Directories a walk never enters.
const SKIPPED_DIRS: [&str; 2] = ["node_modules", "target"];

/// The files under `paths` (or the current directory when empty), sorted and deduplicated, and
/// the paths that do not exist or cannot be walked.
#[must_use]
pub fn collect(paths: &[PathBuf]) -> (Vec<Candidate>, Vec<LintError>) {
    let default = [PathBuf::from(".")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &mut files, &mut errors),
            Ok(_) => files.push(Candidate {
                path: path.clone(),
                explicit: true,
                walk_root: None,
            }),
            Err(e) => errors.push(LintError {
                path: path.clone(),
                message: format!("cannot read this path: {e}"),
            }),
        }
    }
    files.sort();
    // An explicit mention wins over the same file found by a walk (sorted first by `explicit`
    // = false, so keep the last of equal paths).
    files.dedup_by(|later, earlier| {
        if later.path == earlier.path {
            if later.explicit {
                earlier.explicit = true;
                earlier.walk_root = None;
            }
            true
        } else {
            false
        }
    });
    (files, errors)
}

fn walk(root: &Path, files: &mut Vec<Candidate>, errors: &mut Vec<LintError>) {
    let walker = WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_skipped_dir(e));
    for entry in walker {
        match entry {
            Ok(entry) if entry.file_type().is_file() && has_definition_extension(entry.path()) => {
                files.push(Candidate {
                    path: entry.into_path(),
                    explicit: false,
                    walk_root: Some(root.to_owned()),
                });
            }
            Ok(_) => {}
            Err(e) => errors.push(LintError {
                path: e.path().map_or_else(|| root.to_owned(), Path::to_owned),
                message: format!("cannot walk this directory: {e}"),
            }),
        }
    }
}

fn is_skipped_dir(entry: &walkdir::DirEntry) -> bool {
    let name = entry.file_name().to_string_lossy();
    entry.file_type().is_dir() && (name.starts_with('.') || SKIPPED_DIRS.contains(&name.as_ref()))
}

fn has_definition_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Cheap pre-check on raw bytes: a file that never mentions `synchronization` cannot hold the
/// section, so a directory walk need not parse it (most JSON/YAML files of a repository).
#[must_use]
pub fn may_hold_sync_section(bytes: &[u8]) -> bool {
    const NEEDLE: &[u8] = b"synchronization";
    bytes.windows(NEEDLE.len()).any(|w| w == NEEDLE)
}
