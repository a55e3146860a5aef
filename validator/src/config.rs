//! `syncdef.toml`: rule severities and ignores, and the retry and rate-limit settings of
//! pushes ([`crate::push_config`]).
//!
//! ```toml
//! # Severity per rule: "error", "warning", "info" or "off".
//! [rules]
//! SD402 = "off"
//! SD602 = "error"
//!
//! # Rules silenced everywhere (same as "off").
//! ignore = ["SD704"]      # top-level key, before any table
//!
//! # Findings in parts of the description no entry uses: "used" (default) sets them apart,
//! # "all" reports them (see `crate::scope`).
//! scope = "all"           # top-level key, before any table
//!
//! # Which files a directory walk lints (see `crate::walk_filter`); a file named on the
//! # command line is always linted.
//! include = ["catalog"]            # default: every file
//! exclude = ["catalog/legacy"]     # top-level keys, before any table
//!
//! # Rules silenced in some files; globs are relative to the directory holding syncdef.toml.
//! [per-file-ignores]
//! "catalog/legacy/**" = ["SD109", "SD402"]
//!
//! # Pushes (`syncdef push`, `syncdef sync`): each key replaces the definition's x-syncdef one.
//! [retry]
//! max-attempts = 2
//!
//! [rate-limit]
//! requests-per-minute = 300
//! ```
//!
//! Unknown keys and unknown codes are refused with a did-you-mean: a misspelt code would
//! otherwise silently do nothing.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;

use crate::codes::Rule;
use crate::diagnostic::Severity;
use crate::push_config::{PushConfig, RateLimitConfig, RetryConfig};
use crate::scope::Scope;
use crate::suggest::did_you_mean;
use crate::walk_filter::WalkFilter;

/// The file name searched for, upward from each linted file.
pub const CONFIG_FILE_NAME: &str = "syncdef.toml";

/// A rule's configured level: a severity, or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleLevel {
    /// Report as an error.
    Error,
    /// Report as a warning.
    Warning,
    /// Report as information.
    Info,
    /// Do not run the rule.
    Off,
}

impl RuleLevel {
    fn severity(self) -> Option<Severity> {
        match self {
            RuleLevel::Error => Some(Severity::Error),
            RuleLevel::Warning => Some(Severity::Warning),
            RuleLevel::Info => Some(Severity::Info),
            RuleLevel::Off => None,
        }
    }
}

/// The settings of one `syncdef.toml` (or the defaults when there is none).
#[derive(Clone, Debug, Default)]
pub struct RuleSettings {
    levels: HashMap<Rule, RuleLevel>,
    per_file: Vec<(GlobSet, Vec<Rule>)>,
    /// Directory the per-file globs are relative to.
    root: PathBuf,
    /// The file these settings were read from.
    path: Option<PathBuf>,
    /// `[retry]` and `[rate-limit]`, for the engine.
    push: PushConfig,
    /// Which findings are reported: those in the parts the synchronization uses, or all.
    scope: Scope,
    /// `include` and `exclude`: which files a directory walk lints.
    walk: WalkFilter,
}

/// The raw file, before codes are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    #[serde(default)]
    rules: HashMap<String, RuleLevel>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    scope: Scope,
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    per_file_ignores: indexmap_like::OrderedMap,
    #[serde(default)]
    retry: RetryConfig,
    #[serde(default)]
    rate_limit: RateLimitConfig,
}

/// `per-file-ignores` keeps the order it is written in, so the first matching glob is stable.
mod indexmap_like {
    use serde::Deserialize;
    use serde::de::{MapAccess, Visitor};
    use std::fmt;

    #[derive(Default)]
    pub(super) struct OrderedMap(pub(super) Vec<(String, Vec<String>)>);

    impl<'de> Deserialize<'de> for OrderedMap {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = OrderedMap;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a table of glob = [codes]")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedMap, A::Error> {
                    let mut out = Vec::new();
                    while let Some((k, v)) = map.next_entry::<String, Vec<String>>()? {
                        out.push((k, v));
                    }
                    Ok(OrderedMap(out))
                }
            }
            d.deserialize_map(V)
        }
    }
}

/// A `syncdef.toml` that cannot be used.
#[derive(Debug, thiserror::Error)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong and what to do.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl RuleSettings {
    /// Reads and checks the `syncdef.toml` at `path`.
    ///
    /// # Errors
    /// The file cannot be read, is not TOML of the documented shape, or names an unknown code
    /// or an invalid glob.
    pub fn load(path: &Path) -> Result<RuleSettings, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.to_owned(),
            message: format!("cannot read the configuration: {e}"),
        })?;
        Self::parse(&text, path)
    }

    /// Parses `text` as the `syncdef.toml` at `path` (globs are relative to its directory).
    ///
    /// # Errors
    /// See [`RuleSettings::load`].
    pub fn parse(text: &str, path: &Path) -> Result<RuleSettings, ConfigError> {
        let error = |message: String| ConfigError {
            path: path.to_owned(),
            message,
        };
        let raw: RawConfig = toml::from_str(text).map_err(|e| error(explain(&e)))?;
        let mut levels = HashMap::new();
        for (code, level) in &raw.rules {
            levels.insert(parse_code(code).map_err(&error)?, *level);
        }
        for code in &raw.ignore {
            levels.insert(parse_code(code).map_err(&error)?, RuleLevel::Off);
        }
        let mut per_file = Vec::new();
        for (glob, codes) in &raw.per_file_ignores.0 {
            let mut set = GlobSetBuilder::new();
            set.add(
                Glob::new(glob).map_err(|e| {
                    error(format!("invalid glob {glob:?} in [per-file-ignores]: {e}"))
                })?,
            );
            let set = set
                .build()
                .map_err(|e| error(format!("invalid glob {glob:?} in [per-file-ignores]: {e}")))?;
            let rules = codes
                .iter()
                .map(|c| parse_code(c))
                .collect::<Result<Vec<_>, _>>()
                .map_err(&error)?;
            per_file.push((set, rules));
        }
        Ok(RuleSettings {
            levels,
            per_file,
            // `syncdef.toml` given alone (`--config syncdef.toml`) is in the current directory.
            root: path
                .parent()
                .filter(|dir| !dir.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
                .to_owned(),
            path: Some(path.to_owned()),
            push: PushConfig {
                retry: raw.retry,
                rate_limit: raw.rate_limit,
            },
            scope: raw.scope,
            walk: WalkFilter::new(&raw.include, &raw.exclude).map_err(error)?,
        })
    }

    /// The `syncdef.toml` nearest to `start` (a file or a directory), searching upward.
    ///
    /// # Errors
    /// A `syncdef.toml` was found but is invalid.
    pub fn discover(start: &Path) -> Result<Option<RuleSettings>, ConfigError> {
        match find_config_file(start) {
            Some(path) => Self::load(&path).map(Some),
            None => Ok(None),
        }
    }

    /// The file these settings come from, if any.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The rules this file sets: a level in `[rules]`, in `ignore`, or in `[per-file-ignores]`.
    #[must_use]
    pub fn configured_rules(&self) -> std::collections::BTreeSet<Rule> {
        let per_file = self.per_file.iter().flat_map(|(_, rules)| rules.iter());
        self.levels.keys().chain(per_file).copied().collect()
    }

    /// The `[retry]` and `[rate-limit]` tables (empty without a file).
    #[must_use]
    pub fn push(&self) -> &PushConfig {
        &self.push
    }

    /// Which findings a lint with these settings reports (`scope`; default: those in the
    /// parts of the description the synchronization uses).
    #[must_use]
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// These settings with `scope` in place of the file's (`syncdef lint --scope`).
    #[must_use]
    pub fn with_scope(mut self, scope: Scope) -> RuleSettings {
        self.scope = scope;
        self
    }

    /// The severity `rule` reports with in `file`, or `None` when it is off there.
    #[must_use]
    pub fn severity(&self, rule: Rule, file: &Path) -> Option<Severity> {
        let level = self.levels.get(&rule).copied();
        let severity = match level {
            Some(level) => level.severity()?,
            None => rule.default_severity(),
        };
        if self.per_file.is_empty() {
            return Some(severity);
        }
        let relative = relative_to(file, &self.root);
        let ignored = self
            .per_file
            .iter()
            .any(|(globs, rules)| rules.contains(&rule) && globs.is_match(&relative));
        (!ignored).then_some(severity)
    }

    /// Whether the walk of the directory `walk_root` lints `file`, by `include` and `exclude`
    /// (globs relative to this file's directory). Only the directories below `walk_root` are
    /// matched, with the file: a directory named on the command line is walked even when a
    /// glob names it or a directory above it.
    #[must_use]
    pub fn walks(&self, file: &Path, walk_root: &Path) -> bool {
        if self.walk.is_empty() {
            return true;
        }
        let file = relative_to(file, &self.root);
        let walk_root = relative_to(walk_root, &self.root);
        // A walk from above this file's directory matches every directory of the file.
        let below = if walk_root.is_absolute() {
            Path::new("")
        } else {
            walk_root.as_path()
        };
        self.walk.admits(&file, below)
    }

    /// Whether `rule` runs for `file`.
    #[must_use]
    pub fn enabled(&self, rule: Rule, file: &Path) -> bool {
        self.severity(rule, file).is_some()
    }
}

/// The nearest `syncdef.toml` at or above `start`.
#[must_use]
pub fn find_config_file(start: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(start).ok()?;
    let mut dir = if absolute.is_dir() {
        Some(absolute.as_path())
    } else {
        absolute.parent()
    };
    while let Some(d) = dir {
        let candidate = d.join(CONFIG_FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        dir = d.parent();
    }
    None
}

/// `file` relative to `root` when both can be made absolute and one contains the other;
/// otherwise `file` unchanged.
fn relative_to(file: &Path, root: &Path) -> PathBuf {
    let (Ok(file_abs), Ok(root_abs)) = (std::path::absolute(file), std::path::absolute(root))
    else {
        return file.to_owned();
    };
    file_abs
        .strip_prefix(&root_abs)
        .map(Path::to_owned)
        .unwrap_or(file_abs)
}

/// toml's message (with the line, the column and the line itself), and for an unknown key the
/// known one it most likely meant.
fn explain(error: &toml::de::Error) -> String {
    let mut text = error.to_string();
    if let Some(hint) = unknown_key_hint(error.message()) {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&hint);
    }
    text
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" (or "expected `a`", "expected `a`
/// or `b`"): "did you mean `a`?" when `x` is close to one of them.
fn unknown_key_hint(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (unknown, expected) = rest.split_once('`')?;
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    did_you_mean(unknown, known).map(|k| format!("did you mean `{k}`?"))
}

fn parse_code(code: &str) -> Result<Rule, String> {
    Rule::from_code(code).ok_or_else(|| {
        let codes = Rule::ALL.iter().map(|r| r.code());
        match did_you_mean(code, codes) {
            Some(s) => format!("unknown rule code {code:?}: did you mean {s}?"),
            None => format!("unknown rule code {code:?}: `syncdef rules` lists the codes"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_ignores_and_per_file() {
        let toml = r#"
ignore = ["SD704"]
[rules]
SD402 = "off"
sd602 = "error"
[per-file-ignores]
"legacy/**" = ["SD109"]
"#;
        let s = RuleSettings::parse(toml, Path::new("/repo/syncdef.toml")).unwrap();
        let file = Path::new("/repo/catalog/qbo.yaml");
        assert_eq!(s.severity(Rule::UnusedTemplate, file), None);
        assert_eq!(s.severity(Rule::MissingSecurity, file), None);
        assert_eq!(
            s.severity(Rule::UpdateWithoutConcurrencyToken, file),
            Some(Severity::Error)
        );
        assert_eq!(s.severity(Rule::UnknownKey, file), Some(Severity::Warning));
        assert_eq!(
            s.severity(Rule::UnknownKey, Path::new("/repo/legacy/a/b.yaml")),
            None
        );
        assert_eq!(
            s.severity(Rule::UnknownModule, Path::new("/repo/legacy/b.yaml")),
            Some(Severity::Error)
        );
    }

    #[test]
    fn unknown_code_is_refused_with_a_suggestion() {
        let err = RuleSettings::parse("[rules]\nSD40 = \"off\"\n", Path::new("syncdef.toml"))
            .unwrap_err();
        assert!(
            err.message.contains("unknown rule code \"SD40\""),
            "{}",
            err.message
        );
        let err = RuleSettings::parse("[rule]\n", Path::new("syncdef.toml")).unwrap_err();
        assert!(err.message.contains("unknown field"), "{}", err.message);
        let err = RuleSettings::parse("[rules]\nSD402 = \"loud\"\n", Path::new("syncdef.toml"))
            .unwrap_err();
        assert!(err.message.contains("unknown variant"), "{}", err.message);
    }
}
