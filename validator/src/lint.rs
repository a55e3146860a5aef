//! The lint driver: files in, a sorted [`LintReport`] out.

use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use syncdef_definitions::load::{ReadError, load_bytes};
use syncdef_definitions::{
    Definition, Document, LoadError, LoadErrorKind, LoadOptions, SourceFile,
};

use crate::checker;
use crate::codes::Rule;
use crate::config::{ConfigError, RuleSettings};
use crate::diagnostic::Diagnostic;
use crate::discover::{self, Candidate};
use crate::load_problem;
use crate::report::{FileReport, LintError, LintReport};
use crate::suppress::ignore_file;

/// How a lint run is configured.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Settings given explicitly (`--config`); `None` finds the nearest `syncdef.toml` upward
    /// from each linted file.
    pub settings: Option<Arc<RuleSettings>>,
    /// Files linted at once; `None` uses every available core.
    pub jobs: Option<NonZeroUsize>,
    /// Loader limits (nesting depth, alias expansion).
    pub load: LoadOptions,
    /// Sample records by entry name (`--record ENTRY=FILE`): request templates of that entry
    /// are also rendered over it and the rendering checked against the request body schema;
    /// and the external ids of related records they are rendered with (`--related ENTRY=ID`).
    pub samples: Arc<crate::typecheck::Samples>,
    /// The ignore file applied to the run (`--ignore-file`, or the one
    /// [`crate::suppress::ignore_file::locate`] finds); `None`: none, only `x-syncdef-ignore`.
    /// A file that cannot be used is reported in [`LintReport::errors`].
    pub ignore_file: Option<PathBuf>,
    /// The scope for every file (`--scope`), in place of the one each file's `syncdef.toml`
    /// sets; `None`: theirs.
    pub scope: Option<crate::scope::Scope>,
}

impl Config {
    /// Adds the sample record of entry `entry` read from the JSON file at `path`.
    ///
    /// # Errors
    /// The file cannot be read or is not a JSON object; the message says which and why.
    pub fn add_sample(&mut self, entry: &str, path: &Path) -> Result<(), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the sample {}: {e}", path.display()))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            format!(
                "the sample {} is not JSON: {e} (line {}, column {})",
                path.display(),
                e.line(),
                e.column()
            )
        })?;
        if !value.is_object() {
            return Err(format!(
                "the sample {} must be one platform record (a JSON object), as the platform API returns it",
                path.display()
            ));
        }
        Arc::make_mut(&mut self.samples)
            .records
            .insert(entry.to_owned(), value);
        Ok(())
    }

    /// Renders request templates with `id` as the external id of entry `entry`'s related
    /// record (`$.related.<entry>.IntegrationId`), as `syncdef push --dry-run --related` does.
    pub fn add_related(&mut self, entry: &str, id: &str) {
        Arc::make_mut(&mut self.samples)
            .related
            .insert(entry.to_owned(), id.to_owned());
    }

    /// A configuration that uses the `syncdef.toml` at `path` for every file.
    ///
    /// # Errors
    /// The file cannot be read or is invalid.
    pub fn with_settings_file(path: &Path) -> Result<Config, ConfigError> {
        Ok(Config {
            settings: Some(Arc::new(RuleSettings::load(path)?)),
            ..Config::default()
        })
    }
}

/// Lints files and directories (see [`crate::discover`] for which files a walk picks).
///
/// Files are linted in parallel; the report is sorted, so its order never depends on threads.
#[must_use]
pub fn lint_paths(paths: &[PathBuf], config: &Config) -> LintReport {
    lint_paths_with_progress(paths, config, &|_| {})
}

/// What [`lint_paths_with_progress`] tells while it works.
#[derive(Clone, Copy, Debug)]
pub enum LintProgress<'a> {
    /// The files to lint are known: this many.
    Found {
        /// Files to lint.
        files: usize,
    },
    /// One of them is linted (from any of the threads linting).
    Linted {
        /// The file.
        path: &'a Path,
    },
}

/// [`lint_paths`], telling `progress` how many files there are and when each is linted (a
/// progress bar's needs).
pub fn lint_paths_with_progress(
    paths: &[PathBuf],
    config: &Config,
    progress: &(dyn Fn(LintProgress<'_>) + Sync),
) -> LintReport {
    let (candidates, mut errors) = discover::collect(paths);
    let (jobs, config_errors) = attach_settings(candidates, config);
    errors.extend(config_errors);
    progress(LintProgress::Found { files: jobs.len() });
    let outcomes = run_parallel(&jobs, config, progress);
    let mut report = LintReport {
        files: Vec::with_capacity(outcomes.len()),
        errors,
    };
    let mut entries = collect_outcomes(outcomes, &mut report);
    if let Some(path) = &config.ignore_file {
        let per_file = jobs
            .iter()
            .map(|j| {
                (
                    j.candidate.path.display().to_string(),
                    Arc::clone(&j.settings),
                )
            })
            .collect();
        ignore_file::apply_in_run(&mut report, path, config.settings.as_ref(), &per_file);
    }
    // A sample or related id for an entry no definition has would silently check nothing.
    let samples = config.samples.records.keys().map(|e| ("--record", e));
    let related = config.samples.related.keys().map(|e| ("--related", e));
    for (flag, entry) in samples.chain(related) {
        if !entries.contains(entry) {
            entries.sort();
            entries.dedup();
            report.errors.push(LintError {
                path: PathBuf::from(format!("{flag} {entry}=...")),
                message: match crate::suggest::did_you_mean(
                    entry,
                    entries.iter().map(String::as_str),
                ) {
                    Some(s) => {
                        format!("no linted definition has an entry `{entry}`: did you mean `{s}`?")
                    }
                    None => format!(
                        "no linted definition has an entry `{entry}`; the entries are: {}",
                        entries.join(", ")
                    ),
                },
            });
        }
    }
    report.sort();
    report
}

/// Adds the outcomes to `report`; returns the entry names of the linted definitions.
fn collect_outcomes(outcomes: Vec<Outcome>, report: &mut LintReport) -> Vec<String> {
    let mut entries: Vec<String> = Vec::new();
    for outcome in outcomes {
        match outcome {
            Outcome::Linted(file, names) => {
                report.files.push(file);
                entries.extend(names);
            }
            Outcome::Skipped => {}
            Outcome::Failed(error) => report.errors.push(error),
        }
    }
    entries
}

/// Lints one in-memory text named `name` (editors, tests, the CLI's stdin mode).
#[must_use]
pub fn lint_text(name: &str, text: &str, settings: &RuleSettings) -> FileReport {
    lint_source(SourceFile::new(name, text), settings).0
}

/// Lints `source` as [`lint_text`] does, and hands back the definition it loaded (`None` when
/// the text does not load: the report says why), so that a caller that needs both (an
/// editor's features) loads the text once. Findings `x-syncdef-ignore` silences are in the
/// report's `suppressed`, for the ignore file; those outside the scope of `settings` in its
/// `outside_scope`.
#[must_use]
pub fn lint_source(
    source: SourceFile,
    settings: &RuleSettings,
) -> (FileReport, Option<Definition>) {
    let source = Arc::new(source);
    let (linted, definition) =
        match syncdef_definitions::load::load_with(Arc::clone(&source), &LoadOptions::default()) {
            Ok(doc) => {
                let definition = Definition::from_document(doc);
                let linted = lint_definition_with(
                    &definition,
                    settings,
                    true,
                    &crate::typecheck::Samples::default(),
                );
                (linted, Some(definition))
            }
            Err(error) => (
                Linted {
                    diagnostics: load_problem::diagnostics(
                        &error,
                        settings,
                        Path::new(source.name()),
                    ),
                    suppressed: Vec::new(),
                    outside_scope: Vec::new(),
                },
                None,
            ),
        };
    // The definition's source: for an overlay, the files it joins.
    let mut file = linted.into_report(
        definition
            .as_ref()
            .map_or(source, |d| Arc::clone(&d.source)),
    );
    file.sort();
    (file, definition)
}

/// Lints a loaded document. `explicit` says whether the user named this file (a file without
/// a synchronization section is then reported rather than ignored).
#[must_use]
pub fn lint_document(doc: Document, settings: &RuleSettings, explicit: bool) -> Vec<Diagnostic> {
    lint_definition(&Definition::from_document(doc), settings, explicit)
}

/// Lints a definition already built (the engine's loader and the linter share one parse).
///
/// Findings its `x-syncdef-ignore` lists silence are left out (the ignore file is a matter of
/// the run: see [`Config::ignore_file`]), and so are findings outside the scope of `settings`
/// (by default those in parts of the description no entry uses: see [`crate::scope`]), which
/// can change nothing a push sends: the engine's lint gate sees what `syncdef lint` reports.
#[must_use]
pub fn lint_definition(
    def: &Definition,
    settings: &RuleSettings,
    explicit: bool,
) -> Vec<Diagnostic> {
    lint_definition_with(
        def,
        settings,
        explicit,
        &crate::typecheck::Samples::default(),
    )
    .diagnostics
}

/// Lints a definition already built, rendering its request templates over `samples` as
/// `syncdef lint --record ENTRY=FILE --related ENTRY=ID` does: what a dry-run of those records
/// would send is checked against the operations' request body schemas.
#[must_use]
pub fn lint_definition_over(
    def: &Definition,
    settings: &RuleSettings,
    explicit: bool,
    samples: &crate::typecheck::Samples,
) -> Vec<Diagnostic> {
    lint_definition_with(def, settings, explicit, samples).diagnostics
}

/// The findings of one definition: those to report, those a suppression silenced, and those
/// in parts of the description no entry uses.
struct Linted {
    diagnostics: Vec<Diagnostic>,
    suppressed: Vec<Diagnostic>,
    outside_scope: Vec<Diagnostic>,
}

impl Linted {
    /// The report of `source` holding these findings.
    fn into_report(self, source: Arc<SourceFile>) -> FileReport {
        FileReport {
            source,
            diagnostics: self.diagnostics,
            suppressed: self.suppressed,
            outside_scope: self.outside_scope,
        }
    }
}

/// Runs the rules, then the `x-syncdef-ignore` suppressions, then the scope: a suppression in
/// a part no entry uses is judged on what it silences before that part is set apart.
fn lint_definition_with(
    def: &Definition,
    settings: &RuleSettings,
    explicit: bool,
    samples: &crate::typecheck::Samples,
) -> Linted {
    let path = PathBuf::from(def.source.name());
    let checked = checker::check(def, settings, &path, samples);
    let mut diagnostics = checked.diagnostics;
    if !explicit {
        diagnostics.retain(|d| d.rule != Rule::MissingSyncSection);
    }
    let sink = crate::context::Sink::new(settings, &path, Arc::clone(&def.source));
    let (diagnostics, suppressed) = crate::suppress::inline::apply(def, diagnostics, sink);
    let (diagnostics, outside_scope) = match &checked.used {
        Some(used) => crate::scope::split(used, diagnostics),
        None => (diagnostics, Vec::new()),
    };
    Linted {
        diagnostics,
        suppressed,
        outside_scope,
    }
}

struct Job {
    candidate: Candidate,
    settings: Arc<RuleSettings>,
}

enum Outcome {
    /// The report and the names of the file's entries (to check `--record` names against).
    Linted(FileReport, Vec<String>),
    Skipped,
    Failed(LintError),
}

/// Whether `candidate` is linted under `settings`: named on the command line, or found by a
/// walk that its `include` and `exclude` let through.
fn walked(candidate: &Candidate, settings: &RuleSettings) -> bool {
    candidate
        .walk_root
        .as_deref()
        .is_none_or(|root| settings.walks(&candidate.path, root))
}

/// Finds each file's settings, reading each directory's `syncdef.toml` once, with the scope
/// of `--scope` in place of theirs when given.
fn attach_settings(candidates: Vec<Candidate>, config: &Config) -> (Vec<Job>, Vec<LintError>) {
    let scoped = |settings: RuleSettings| match config.scope {
        Some(scope) => settings.with_scope(scope),
        None => settings,
    };
    let mut errors = Vec::new();
    if let Some(settings) = &config.settings {
        let settings = match config.scope {
            Some(_) => Arc::new(scoped(RuleSettings::clone(settings))),
            None => Arc::clone(settings),
        };
        let jobs = candidates
            .into_iter()
            .filter(|candidate| walked(candidate, &settings))
            .map(|candidate| Job {
                candidate,
                settings: Arc::clone(&settings),
            })
            .collect();
        return (jobs, errors);
    }
    let default = Arc::new(scoped(RuleSettings::default()));
    let mut by_file: HashMap<PathBuf, Option<Arc<RuleSettings>>> = HashMap::new();
    let mut jobs = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        let settings = match crate::config::find_config_file(&candidate.path) {
            None => Some(Arc::clone(&default)),
            Some(file) => by_file
                .entry(file.clone())
                .or_insert_with(|| match RuleSettings::load(&file) {
                    Ok(s) => Some(Arc::new(scoped(s))),
                    Err(e) => {
                        errors.push(LintError {
                            path: e.path.clone(),
                            message: e.message,
                        });
                        None
                    }
                })
                .clone(),
        };
        // A file whose configuration is broken is not linted: its severities are unknown. A
        // file a walk found is linted when its configuration's `include` and `exclude` let it.
        if let Some(settings) = settings
            && walked(&candidate, &settings)
        {
            jobs.push(Job {
                candidate,
                settings,
            });
        }
    }
    (jobs, errors)
}

fn run_parallel(
    jobs: &[Job],
    config: &Config,
    progress: &(dyn Fn(LintProgress<'_>) + Sync),
) -> Vec<Outcome> {
    let lint = |job: &Job| {
        let outcome = lint_job(job, config);
        progress(LintProgress::Linted {
            path: &job.candidate.path,
        });
        outcome
    };
    let threads = config
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get)
        .min(jobs.len().max(1));
    if threads <= 1 {
        return jobs.iter().map(lint).collect();
    }
    // Workers take the next file from a shared counter: big and small files balance out
    // without a work-stealing runtime.
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, Outcome)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        done.push((i, lint(job)));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, o)| o).collect()
}

fn lint_job(job: &Job, config: &Config) -> Outcome {
    let path = &job.candidate.path;
    // A file of 1 GiB or more is refused before it is read (SD111), not read whole first.
    let bytes = match syncdef_definitions::load::read_file(path) {
        Ok(bytes) => bytes,
        Err(ReadError::Io(error)) => {
            return Outcome::Failed(LintError {
                path: path.clone(),
                message: format!("cannot read the file: {error}"),
            });
        }
        Err(error) => return refused(job, &error.into_load_error(&path.display().to_string())),
    };
    if !job.candidate.explicit && !discover::may_hold_sync_section(&bytes) {
        return Outcome::Skipped;
    }
    let name = path.display().to_string();
    match load_bytes(name, bytes, &config.load) {
        Ok(doc) => {
            if !job.candidate.explicit && !checker::has_sync_section(&doc) {
                return Outcome::Skipped;
            }
            let source = Arc::clone(&doc.source);
            let def = Definition::from_document(doc);
            let linted =
                lint_definition_with(&def, &job.settings, job.candidate.explicit, &config.samples);
            let entries = def
                .sync
                .iter()
                .flat_map(|s| s.entries.iter().map(|e| e.key.value.clone()))
                .collect();
            if crate::large::is_large(&def) {
                crate::large::free_aside(def);
            }
            Outcome::Linted(linted.into_report(source), entries)
        }
        Err(error) if error.kind == LoadErrorKind::Io => Outcome::Failed(LintError {
            path: path.clone(),
            message: error.message,
        }),
        Err(error) => refused(job, &error),
    }
}

/// The report of a file the loader refused: the refusal as its one finding.
fn refused(job: &Job, error: &LoadError) -> Outcome {
    let diagnostics = load_problem::diagnostics(error, &job.settings, &job.candidate.path);
    Outcome::Linted(
        FileReport {
            source: Arc::clone(&error.source),
            diagnostics,
            suppressed: Vec::new(),
            outside_scope: Vec::new(),
        },
        Vec::new(),
    )
}
