//! The result of a lint run: per-file diagnostics plus the files that could not be linted.

use std::path::PathBuf;
use std::sync::Arc;

use syncdef_definitions::SourceFile;

use crate::diagnostic::{Diagnostic, Severity};

/// The diagnostics of one linted file.
#[derive(Debug, Clone)]
pub struct FileReport {
    /// The file as loaded (its name is the path as found or given).
    pub source: Arc<SourceFile>,
    /// Its diagnostics, sorted by position then code.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings an `x-syncdef-ignore` or the ignore file silenced (see [`crate::suppress`]),
    /// sorted the same way: counted apart, printed by no format, and failing no run.
    pub suppressed: Vec<Diagnostic>,
    /// Findings in parts of the description no entry uses (see [`crate::scope`]), sorted the
    /// same way: counted apart, printed by no format, failing no run, and not seen by the
    /// engine's lint gate.
    pub outside_scope: Vec<Diagnostic>,
}

impl FileReport {
    /// Sorts the three lists by position, then code.
    pub fn sort(&mut self) {
        for list in [
            &mut self.diagnostics,
            &mut self.suppressed,
            &mut self.outside_scope,
        ] {
            list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        }
    }
}

/// A path that could not be linted at all: unreadable, missing, or its `syncdef.toml` is invalid.
///
/// These are tool errors (exit code 2), not findings about a definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintError {
    /// The path concerned.
    pub path: PathBuf,
    /// What went wrong and what to do, lowercase, no final period.
    pub message: String,
}

impl std::fmt::Display for LintError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

/// Everything a lint run found, in a deterministic order whatever the thread scheduling.
#[derive(Debug, Clone, Default)]
pub struct LintReport {
    /// One entry per linted file, sorted by file name.
    pub files: Vec<FileReport>,
    /// Paths that could not be linted, sorted by path.
    pub errors: Vec<LintError>,
}

/// Counts for the summary line and the JSON `summary` object.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files linted (those holding a synchronization section, or named explicitly).
    pub files: usize,
    /// Files with at least one diagnostic (suppressed findings not counted).
    pub files_with_findings: usize,
    /// Diagnostics of severity error.
    pub errors: usize,
    /// Diagnostics of severity warning.
    pub warnings: usize,
    /// Diagnostics of severity info.
    pub infos: usize,
    /// Findings a suppression silenced, whatever their severity (not in the counts above).
    pub suppressed: usize,
    /// Findings in parts of the description no entry uses, whatever their severity (not in
    /// the counts above; `--scope all` reports them).
    pub outside_scope: usize,
}

impl LintReport {
    /// A report of already computed diagnostics, grouped by file and sorted.
    #[must_use]
    pub fn from_diagnostics(diagnostics: Vec<Diagnostic>) -> LintReport {
        let mut files: Vec<FileReport> = Vec::new();
        for d in diagnostics {
            match files.iter_mut().find(|f| Arc::ptr_eq(&f.source, &d.file)) {
                Some(file) => file.diagnostics.push(d),
                None => files.push(FileReport {
                    source: Arc::clone(&d.file),
                    diagnostics: vec![d],
                    suppressed: Vec::new(),
                    outside_scope: Vec::new(),
                }),
            }
        }
        let mut report = LintReport {
            files,
            errors: Vec::new(),
        };
        report.sort();
        report
    }

    /// Sorts files by name and diagnostics by position, so output never depends on threads.
    pub fn sort(&mut self) {
        self.files
            .sort_by(|a, b| a.source.name().cmp(b.source.name()));
        for file in &mut self.files {
            file.sort();
        }
        self.errors.sort_by(|a, b| a.path.cmp(&b.path));
    }

    /// Every diagnostic, file by file.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.files.iter().flat_map(|f| f.diagnostics.iter())
    }

    /// The findings a suppression silenced, file by file (for formats that list them apart,
    /// as SARIF's `suppressions` do).
    pub fn suppressed(&self) -> impl Iterator<Item = &Diagnostic> {
        self.files.iter().flat_map(|f| f.suppressed.iter())
    }

    /// The findings in parts of the description no entry uses, file by file.
    pub fn outside_scope(&self) -> impl Iterator<Item = &Diagnostic> {
        self.files.iter().flat_map(|f| f.outside_scope.iter())
    }

    /// Counts of files, of diagnostics per severity, of suppressed findings and of those
    /// outside the scope.
    #[must_use]
    pub fn summary(&self) -> Summary {
        let mut summary = Summary {
            files: self.files.len(),
            files_with_findings: self
                .files
                .iter()
                .filter(|f| !f.diagnostics.is_empty())
                .count(),
            suppressed: self.suppressed().count(),
            outside_scope: self.outside_scope().count(),
            ..Summary::default()
        };
        for d in self.diagnostics() {
            match d.severity {
                Severity::Error => summary.errors += 1,
                Severity::Warning => summary.warnings += 1,
                Severity::Info => summary.infos += 1,
            }
        }
        summary
    }

    /// The process exit code the CLI should use: 2 when a path could not be linted, 1 when
    /// errors (or, with `deny_warnings`, warnings) were found, else 0.
    #[must_use]
    pub fn exit_code(&self, deny_warnings: bool) -> i32 {
        self.exit_code_at(Some(if deny_warnings {
            Severity::Warning
        } else {
            Severity::Error
        }))
    }

    /// The process exit code when findings of severity `fail` or above fail the run (`None`:
    /// none does): 2 when a file could not be read or a setting is invalid, 1 when a finding
    /// reaches `fail`, else 0.
    #[must_use]
    pub fn exit_code_at(&self, fail: Option<Severity>) -> i32 {
        if !self.errors.is_empty() {
            return 2;
        }
        let summary = self.summary();
        let reached = match fail {
            None => false,
            Some(Severity::Error) => summary.errors > 0,
            Some(Severity::Warning) => summary.errors + summary.warnings > 0,
            Some(Severity::Info) => summary.errors + summary.warnings + summary.infos > 0,
        };
        i32::from(reached)
    }
}
