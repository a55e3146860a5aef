//! Paths relative to the ignore file, so that the file means the same in every checkout.
//!
//! Lexical only: the file system is not asked (symlinks are not followed), so the answer
//! depends on the paths as written, not on where a checkout happens to be.

use std::path::Path;

pub(crate) use syncdef_definitions::lexical_path::absolute;

/// `path` relative to the directory `base`, `/`-separated, with `..` where `path` is not
/// beneath `base`; `path` as absolute when the two share no root (two Windows drives).
pub(crate) fn relative(path: &Path, base: &Path) -> String {
    let path = absolute(path);
    let base = absolute(base);
    let mut path_parts = path.components().peekable();
    let mut base_parts = base.components().peekable();
    // Roots (and Windows prefixes) must agree, or there is no relative path.
    if path_parts.peek() != base_parts.peek() {
        return path.to_string_lossy().into_owned();
    }
    while let (Some(a), Some(b)) = (path_parts.peek(), base_parts.peek()) {
        if a != b {
            break;
        }
        path_parts.next();
        base_parts.next();
    }
    let ups = base_parts.map(|_| "..".to_owned());
    let downs = path_parts.map(|c| c.as_os_str().to_string_lossy().into_owned());
    let parts: Vec<String> = ups.chain(downs).collect();
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_go_up_and_down_by_components() {
        let base = Path::new("/repo/ci");
        assert_eq!(relative(Path::new("/repo/ci/a.yaml"), base), "a.yaml");
        assert_eq!(
            relative(Path::new("/repo/defs/a.yaml"), base),
            "../defs/a.yaml"
        );
        assert_eq!(
            relative(Path::new("/repo/ci/./x/../b.yaml"), base),
            "b.yaml"
        );
        assert_eq!(
            relative(Path::new("/repo/cix/a.yaml"), base),
            "../cix/a.yaml"
        );
        assert_eq!(relative(Path::new("/repo/ci"), base), ".");
    }

    #[test]
    fn relative_paths_are_taken_from_the_current_directory() {
        let cwd = std::env::current_dir().expect("a current directory");
        assert_eq!(relative(Path::new("defs/a.yaml"), &cwd), "defs/a.yaml");
        assert_eq!(
            relative(Path::new("./defs/a.yaml"), Path::new(".")),
            "defs/a.yaml"
        );
        assert_eq!(
            relative(Path::new("defs/a.yaml"), Path::new("")),
            "defs/a.yaml"
        );
    }
}
