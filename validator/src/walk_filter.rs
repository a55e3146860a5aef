//! `include` and `exclude` of `syncdef.toml`: which of the files a directory walk finds are
//! linted. A file named on the command line is always linted; these only narrow a walk.
//!
//! Globs are relative to the directory holding the `syncdef.toml`, `**` crossing directories.
//! A glob that names a directory covers everything under it (`tests/fixtures` as
//! `tests/fixtures/**`), as in a `.gitignore`.

use std::path::Path;

use globset::{Glob, GlobSet, GlobSetBuilder};

/// The compiled `include` and `exclude` lists.
#[derive(Clone, Debug, Default)]
pub struct WalkFilter {
    /// `None`: every file is included (no `include` key, or an empty list).
    include: Option<GlobSet>,
    exclude: GlobSet,
}

impl WalkFilter {
    /// Compiles the two lists.
    ///
    /// # Errors
    /// A glob that does not compile: the message names the key and the glob.
    pub fn new(include: &[String], exclude: &[String]) -> Result<WalkFilter, String> {
        let include = if include.is_empty() {
            None
        } else {
            Some(compile("include", include)?)
        };
        Ok(WalkFilter {
            include,
            exclude: compile("exclude", exclude)?,
        })
    }

    /// Whether a walk lints the file at `relative` (relative to the `syncdef.toml`'s
    /// directory): it or a directory above it matches `include` (when given), and neither it
    /// nor a directory between it and `walk_root` (the directory named on the command line,
    /// relative too) matches `exclude`: a directory named there is walked whatever `exclude`
    /// says of it or of those above it.
    #[must_use]
    pub fn admits(&self, relative: &Path, walk_root: &Path) -> bool {
        let paths = || relative.ancestors().filter(|p| !p.as_os_str().is_empty());
        let included = match &self.include {
            None => true,
            Some(include) => paths().any(|p| include.is_match(p)),
        };
        let excluded = paths()
            .filter(|p| p.starts_with(walk_root) && *p != walk_root)
            .any(|p| self.exclude.is_match(p));
        included && !excluded
    }

    /// Whether the filter lets every file through (neither key set).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.include.is_none() && self.exclude.is_empty()
    }
}

fn compile(key: &str, globs: &[String]) -> Result<GlobSet, String> {
    let mut set = GlobSetBuilder::new();
    for glob in globs {
        let glob = Glob::new(glob.trim_end_matches('/')).map_err(|e| {
            format!("invalid glob {glob:?} in `{key}`: {e}; write a path relative to this file's directory, `*` and `**` as wildcards")
        })?;
        set.add(glob);
    }
    set.build()
        .map_err(|e| format!("invalid globs in `{key}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(include: &[&str], exclude: &[&str]) -> WalkFilter {
        let owned = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        WalkFilter::new(&owned(include), &owned(exclude)).expect("globs compile")
    }

    #[test]
    fn a_directory_glob_covers_everything_under_it() {
        let top = Path::new("");
        let f = filter(&[], &["tests/fixtures", "benches/data/"]);
        assert!(!f.admits(Path::new("tests/fixtures/lint/broken.yaml"), top));
        assert!(!f.admits(Path::new("benches/data/a/b/c.json"), top));
        assert!(f.admits(Path::new("tests/other/ok.yaml"), top));
        assert!(f.admits(Path::new("catalog/qbo/definition.yaml"), top));
    }

    #[test]
    fn include_narrows_and_exclude_wins() {
        let top = Path::new("");
        let f = filter(&["catalog", "docs/**/*.yaml"], &["catalog/legacy/**"]);
        assert!(f.admits(Path::new("catalog/qbo/definition.yaml"), top));
        assert!(f.admits(Path::new("docs/examples/a.yaml"), top));
        assert!(!f.admits(Path::new("docs/examples/a.json"), top));
        assert!(!f.admits(Path::new("catalog/legacy/old.yaml"), top));
        assert!(!f.admits(Path::new("tests/x.yaml"), top));
        assert!(filter(&[], &[]).is_empty());
        assert!(filter(&[], &[]).admits(Path::new("anything.yaml"), top));
    }

    #[test]
    fn a_directory_named_on_the_command_line_is_walked_whatever_exclude_says() {
        let f = filter(&["tests"], &["tests/fixtures", "**/broken"]);
        let file = Path::new("tests/fixtures/lint/broken/a.yaml");
        assert!(!f.admits(file, Path::new("")));
        assert!(!f.admits(file, Path::new("tests/fixtures")));
        assert!(f.admits(file, Path::new("tests/fixtures/lint/broken")));
        assert!(!f.admits(Path::new("catalog/a.yaml"), Path::new("catalog")));
    }

    #[test]
    fn a_bad_glob_names_the_key() {
        let error = WalkFilter::new(&[], &["tests/[fixtures".to_owned()]).expect_err("unclosed");
        assert!(error.contains("`exclude`"), "{error}");
        assert!(error.contains("tests/[fixtures"), "{error}");
    }
}
