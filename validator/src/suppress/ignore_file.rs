//! The ignore file: findings to silence, by file, rule code and JSON pointer, as Redocly's
//! `.redocly.lint-ignore.yaml`.
//!
//! ```yaml
//! # File paths are relative to this file; pointers are those of the findings.
//! catalog/quickbooks-online.yaml:
//!   SD602:
//!     - '#/synchronization/Customer/push/schemasTransformer/updateRequest'
//! ```
//!
//! A pointer silences the findings of that rule at exactly that node, not beneath it: the file
//! is a baseline of findings known today (`syncdef lint --generate-ignore-file` writes it, see
//! [`super::generate`]), and a new finding below a listed node must still be seen. Pointers are
//! written as URI fragments (`#/paths/~1customer/post`, no percent-encoding) or as plain JSON
//! pointers (`/paths/~1customer/post`).
//!
//! A file that is not of this shape cannot be used: the run stops (exit code 2) naming the line
//! and column. Unknown codes (SD116) and entries that silence nothing (SD115) are findings on
//! the ignore file itself; entries of files the run did not lint are neither.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use syncdef_definitions::load::load_as;
use syncdef_definitions::{
    Format, LoadErrorKind, LoadOptions, Member, Node, NodeKind, SourceFile, Span,
};

use super::relative::{absolute, relative};
use super::{IGNORE_FILE_NAME, split};
use crate::codes::Rule;
use crate::config::RuleSettings;
use crate::diagnostic::Diagnostic;
use crate::report::{FileReport, LintError, LintReport};
use crate::rules::{invalid_suppression, unused_suppression};

/// A loaded ignore file.
#[derive(Debug, Clone)]
pub struct IgnoreFile {
    source: Arc<SourceFile>,
    path: PathBuf,
    /// The directory file paths are relative to, absolute.
    dir: PathBuf,
    entries: Vec<Entry>,
    /// Codes no rule has (SD116), reported when the file is applied.
    unknown_codes: Vec<Diagnostic>,
}

/// One JSON pointer of the file.
#[derive(Debug, Clone)]
struct Entry {
    /// The linted file, relative to the ignore file's directory, `/`-separated.
    file: String,
    rule: Rule,
    /// The JSON pointer, without the `#`.
    pointer: String,
    /// Where the pointer is written in the ignore file, and its JSON pointer there.
    span: Span,
    at: String,
}

/// Where the ignore file is: `explicit` (`--ignore-file`) when given; else
/// `.syncdef-ignore.yaml` beside the `syncdef.toml` of `--config` (`config`), else beside the
/// nearest `syncdef.toml` at or above the current directory, else in the current directory.
/// The path is relative to the current directory when it can be, for shorter messages.
#[must_use]
pub fn locate(explicit: Option<&Path>, config: Option<&Path>) -> PathBuf {
    if let Some(path) = explicit {
        return path.to_owned();
    }
    let dir = match config {
        Some(file) => file.parent().map(Path::to_owned).unwrap_or_default(),
        None => crate::config::find_config_file(Path::new("."))
            .and_then(|file| file.parent().map(Path::to_owned))
            .map(|dir| PathBuf::from(relative(&dir, Path::new("."))))
            .unwrap_or_default(),
    };
    if dir.as_os_str() == "." {
        PathBuf::from(IGNORE_FILE_NAME)
    } else {
        dir.join(IGNORE_FILE_NAME)
    }
}

/// Loads the ignore file at `path` and applies it to `report` with `settings`; a file that
/// cannot be used is added to the report's errors (exit code 2).
pub fn apply_to(report: &mut LintReport, path: &Path, settings: &RuleSettings) {
    match IgnoreFile::load(path) {
        Ok(file) => file.apply(report, settings),
        Err(error) => report.errors.push(error),
    }
}

/// [`apply_to`] in a run whose files may each have their own `syncdef.toml` (`per_file`, by
/// file name): the ignore file's own findings report with `settings` (`--config`) or the
/// `syncdef.toml` that governs the ignore file.
pub(crate) fn apply_in_run(
    report: &mut LintReport,
    path: &Path,
    settings: Option<&Arc<RuleSettings>>,
    per_file: &HashMap<String, Arc<RuleSettings>>,
) {
    let file = match IgnoreFile::load(path) {
        Ok(file) => file,
        Err(error) => return report.errors.push(error),
    };
    // An invalid syncdef.toml there was reported with the files it governs.
    let own = settings.map_or_else(
        || {
            RuleSettings::discover(path)
                .ok()
                .flatten()
                .unwrap_or_default()
        },
        |s| RuleSettings::clone(s),
    );
    let enabled = |rule: Rule, name: &str| {
        per_file
            .get(name)
            .is_none_or(|s| s.enabled(rule, Path::new(name)))
    };
    file.apply_with(report, &enabled, &own);
}

impl IgnoreFile {
    /// Reads the ignore file at `path`.
    ///
    /// # Errors
    /// The file cannot be read, is not UTF-8, or is not of the documented shape; the message
    /// names the line and column and says what to write.
    pub fn load(path: &Path) -> Result<IgnoreFile, LintError> {
        let text = std::fs::read_to_string(path).map_err(|e| LintError {
            path: path.to_owned(),
            message: format!(
                "cannot read the ignore file: {e}; name an existing file, or write one with `syncdef lint --generate-ignore-file`"
            ),
        })?;
        Self::parse(path, &text)
    }

    /// Reads `text` as the ignore file at `path` (file paths in it are relative to its
    /// directory).
    ///
    /// # Errors
    /// See [`IgnoreFile::load`].
    pub fn parse(path: &Path, text: &str) -> Result<IgnoreFile, LintError> {
        let source = Arc::new(SourceFile::new(path.display().to_string(), text));
        let dir = absolute(path.parent().unwrap_or_else(|| Path::new("")));
        let mut file = IgnoreFile {
            source: Arc::clone(&source),
            path: path.to_owned(),
            dir,
            entries: Vec::new(),
            unknown_codes: Vec::new(),
        };
        let doc = match load_as(Arc::clone(&source), Format::Yaml, &LoadOptions::default()) {
            Ok(doc) => doc,
            // Only comments: nothing is ignored yet.
            Err(e) if e.kind == LoadErrorKind::EmptyDocument => return Ok(file),
            Err(e) => {
                let help = e.help.as_deref().unwrap_or("fix the YAML syntax");
                return Err(file.error(e.span.unwrap_or_default(), &e.message, help));
            }
        };
        let root = doc.root();
        if root.is_null() {
            return Ok(file);
        }
        let Some(files) = root.as_object() else {
            return Err(file.error(
                root.span,
                "the ignore file must map file paths to rule codes",
                SHAPE,
            ));
        };
        for member in files {
            file.read_file(&member)?;
        }
        Ok(file)
    }

    /// Whether the file lists nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.unknown_codes.is_empty()
    }

    /// The path it was read from.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Silences the findings of `report` the file lists, and adds the file's own findings (unknown
    /// codes, entries that silenced nothing) with the severities of `settings`.
    pub fn apply(&self, report: &mut LintReport, settings: &RuleSettings) {
        let enabled = |rule: Rule, name: &str| settings.enabled(rule, Path::new(name));
        self.apply_with(report, &enabled, settings);
    }

    /// The entries of one linted file (`file: {SD602: [...]}`).
    fn read_file(&mut self, member: &Member) -> Result<(), LintError> {
        // A file with nothing under it yet (`catalog/qbo.yaml:`) lists nothing.
        let rules = match &member.value.kind {
            NodeKind::Object(rules) => rules,
            NodeKind::Null => return Ok(()),
            _ => {
                let what = format!(
                    "`{}` must map rule codes to lists of JSON pointers",
                    member.key.name
                );
                return Err(self.error(member.value.span, &what, SHAPE));
            }
        };
        let file = relative(&self.dir.join(member.key.name), &self.dir);
        for code in rules {
            self.read_rule(member, &file, &code)?;
        }
        Ok(())
    }

    /// The pointers of one rule of one file (`SD602: ['#/...']`).
    fn read_rule(&mut self, file: &Member, key: &str, code: &Member) -> Result<(), LintError> {
        let items = match &code.value.kind {
            NodeKind::Array(items) => items,
            NodeKind::Null => &syncdef_definitions::Items::default(),
            _ => {
                let what = format!(
                    "`{}` of `{}` must be a list of JSON pointers",
                    code.key.name, file.key.name
                );
                return Err(self.error(code.value.span, &what, SHAPE));
            }
        };
        let rule = Rule::from_code(code.key.name);
        let mut at = syncdef_definitions::pointer::join([file.key.name, code.key.name]);
        if rule.is_none() {
            self.unknown_codes.push(invalid_suppression::unknown_code(
                Arc::clone(&self.source),
                code.key.span,
                at.clone(),
                code.key.name,
            ));
        }
        for (i, item) in items.iter().enumerate() {
            let pointer = self.pointer(&item)?;
            let Some(rule) = rule else { continue };
            let len = at.len();
            syncdef_definitions::pointer::push_index(&mut at, i);
            self.entries.push(Entry {
                file: key.to_owned(),
                rule,
                pointer,
                span: item.span,
                at: at.clone(),
            });
            at.truncate(len);
        }
        Ok(())
    }

    /// A JSON pointer as written: `#/a/b` or `/a/b` (`#` or nothing is the whole document).
    fn pointer(&self, item: &Node) -> Result<String, LintError> {
        let pointer = item
            .as_str()
            .map(|p| p.strip_prefix('#').unwrap_or(p))
            .filter(|p| p.is_empty() || p.starts_with('/'));
        pointer.map(str::to_owned).ok_or_else(|| {
            self.error(
                item.span,
                "this is not a JSON pointer",
                "write the pointer of the finding, as `syncdef lint --format json` prints it, as in '#/paths/~1customer/post'",
            )
        })
    }

    fn error(&self, span: Span, what: &str, todo: &str) -> LintError {
        let at = self.source.line_col(span.start);
        LintError {
            path: self.path.clone(),
            message: format!("line {}, column {}: {what}; {todo}", at.line, at.column),
        }
    }

    /// [`IgnoreFile::apply`] with whether a rule ran for a linted file (`enabled(rule, name)`)
    /// and the settings of the ignore file's own findings.
    fn apply_with(
        &self,
        report: &mut LintReport,
        enabled: &dyn Fn(Rule, &str) -> bool,
        own: &RuleSettings,
    ) {
        let mut index: HashMap<(&str, Rule, &str), Vec<usize>> = HashMap::new();
        for (i, e) in self.entries.iter().enumerate() {
            let key = (e.file.as_str(), e.rule, e.pointer.as_str());
            index.entry(key).or_default().push(i);
        }
        let mut used = vec![false; self.entries.len()];
        // Linted files by their path in the ignore file, to their name in the report.
        let mut linted: HashMap<String, String> = HashMap::new();
        for file in &mut report.files {
            let name = file.source.name().to_owned();
            let key = relative(Path::new(&name), &self.dir);
            let matching = |d: &Diagnostic, used: &mut [bool]| {
                let found = d
                    .pointer
                    .as_deref()
                    .and_then(|p| index.get(&(&*key, d.rule, p)));
                found
                    .inspect(|found| found.iter().for_each(|i| used[*i] = true))
                    .is_some()
            };
            // A finding an `x-syncdef-ignore` silenced uses the entry too, and so does one
            // outside the scope: a baseline written with `--scope all` stays in use, and the
            // finding stays set apart (not suppressed) as the scope left it.
            for d in file.suppressed.iter().chain(&file.outside_scope) {
                matching(d, &mut used);
            }
            let (kept, mut suppressed) =
                split(std::mem::take(&mut file.diagnostics), &mut used, matching);
            file.diagnostics = kept;
            file.suppressed.append(&mut suppressed);
            file.sort();
            linted.insert(key, name);
        }
        let own_findings = self.own_findings(&used, &linted, enabled, own);
        if !own_findings.is_empty() {
            report.files.push(FileReport {
                source: Arc::clone(&self.source),
                diagnostics: own_findings,
                suppressed: Vec::new(),
                outside_scope: Vec::new(),
            });
            report.sort();
        }
    }

    /// Unknown codes, and entries of linted files that silenced nothing although their rule ran.
    fn own_findings(
        &self,
        used: &[bool],
        linted: &HashMap<String, String>,
        enabled: &dyn Fn(Rule, &str) -> bool,
        settings: &RuleSettings,
    ) -> Vec<Diagnostic> {
        let unused = self.entries.iter().zip(used).filter(|(e, used)| {
            !**used
                && linted
                    .get(&e.file)
                    .is_some_and(|name| enabled(e.rule, name))
        });
        let unused = unused.map(|(e, _)| {
            unused_suppression::in_ignore_file(
                Arc::clone(&self.source),
                e.span,
                e.at.clone(),
                e.rule,
                &e.file,
                &format!("#{}", e.pointer),
            )
        });
        self.unknown_codes
            .iter()
            .cloned()
            .chain(unused)
            .filter_map(|mut d| {
                d.severity = settings.severity(d.rule, &self.path)?;
                Some(d)
            })
            .collect()
    }
}

/// What a valid ignore file looks like, for the errors.
const SHAPE: &str = "write each linted file (relative to the ignore file), under it rule codes, under each a list of JSON pointers: `catalog/qbo.yaml:` / `  SD602:` / `    - '#/synchronization/Customer'`";
