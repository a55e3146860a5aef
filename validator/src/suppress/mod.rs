//! Suppressing one finding at one place, as ruff's `# noqa` and Redocly's ignore file do.
//!
//! - [`inline`]: `x-syncdef-ignore: [SD602]` on an object of the definition silences those
//!   codes at that node and everywhere beneath it (by JSON pointer prefix).
//! - [`ignore_file`]: `.syncdef-ignore.yaml` lists, per file and rule, the JSON pointers of
//!   findings to silence, each exactly at that node: a baseline of known findings, which
//!   [`generate`] writes from a run.
//!
//! `syncdef.toml` decides first: a rule that is off for a file never runs, so there is nothing
//! of it to silence there, and its suppressions are not reported as unused. A suppressed
//! finding keeps the severity `syncdef.toml` gave it; it is moved to
//! [`crate::FileReport::suppressed`], out of the counts, the exit code and the output.
//! Suppressions that silence nothing (SD115) or name no rule (SD116) are reported, and cannot
//! themselves be suppressed: the way to silence them is `syncdef.toml`.

pub mod generate;
pub mod ignore_file;
pub(crate) mod inline;
mod relative;

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;

/// The name of the ignore file, found beside `syncdef.toml` (see [`ignore_file::locate`]).
pub const IGNORE_FILE_NAME: &str = ".syncdef-ignore.yaml";

/// Whether `rule`'s findings can be suppressed: not those that report suppressions, or a stale
/// suppression could hide itself.
#[must_use]
pub fn suppressible(rule: Rule) -> bool {
    !matches!(rule, Rule::UnusedSuppression | Rule::InvalidSuppression)
}

/// Whether the JSON pointer `at` is `node` or lies beneath it, token by token
/// (`/a/bc` is not beneath `/a/b`).
pub(crate) fn is_at_or_beneath(at: &str, node: &str) -> bool {
    at.strip_prefix(node)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Splits `diagnostics` into those no suppression matches and those one does: `matching(d,
/// used)` says whether a suppression matches `d`, and sets `used[i]` for each suppression `i`
/// that does, so that the unused ones can be reported.
pub(crate) fn split(
    diagnostics: Vec<Diagnostic>,
    used: &mut [bool],
    mut matching: impl FnMut(&Diagnostic, &mut [bool]) -> bool,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut kept = Vec::with_capacity(diagnostics.len());
    let mut suppressed = Vec::new();
    for d in diagnostics {
        if suppressible(d.rule) && matching(&d, used) {
            suppressed.push(d);
        } else {
            kept.push(d);
        }
    }
    (kept, suppressed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beneath_goes_by_whole_tokens() {
        assert!(is_at_or_beneath("/a/b", "/a/b"));
        assert!(is_at_or_beneath("/a/b/c", "/a/b"));
        assert!(is_at_or_beneath("/a/b", ""));
        assert!(!is_at_or_beneath("/a/bc", "/a/b"));
        assert!(!is_at_or_beneath("/a", "/a/b"));
    }
}
