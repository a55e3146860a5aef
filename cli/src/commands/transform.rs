//! `syncdef transform`: apply a template to one record, or to every line of a JSON Lines file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::num::NonZeroUsize;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use miette::NamedSource;
use syncdef_definitions::platform::modules;
use syncdef_transform::ValueReader;
use syncdef_transform::{CompileErrors, EvaluationMode, PathContext, Settings, Template, Value};

use super::{display_name, read_input};
use crate::failure::{Exit, Failure, output_error};
use crate::snippet::Snippet;

/// Exit codes: 0 success; 1 template or evaluation error (with `--input-lines`: any bad line);
/// 2 usage or I/O error, including an `--input` file that is not JSON.
#[derive(Debug, Args)]
pub struct TransformArgs {
    /// The template: a JSON file (read leniently, as JUST.net does); `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    template: PathBuf,

    /// One input record (JSON); `-` reads standard input.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "input_lines",
        required_unless_present = "input_lines"
    )]
    input: Option<PathBuf>,

    /// JSON Lines: one record per line in, one compact output per line out; `-` reads standard
    /// input. A bad line is reported on stderr with its line number and the others go on.
    #[arg(long, value_name = "FILE")]
    input_lines: Option<PathBuf>,

    /// Evaluation modes, comma separated: default, strict, add-or-replace-properties,
    /// look-in-transformed.
    #[arg(long, value_name = "MODES", default_value = "default")]
    mode: String,

    /// The escape character of template arguments.
    #[arg(long, value_name = "C", default_value = "/")]
    escape_char: char,

    /// Print the output on exactly one line (keys in output order). Always on with
    /// --input-lines.
    #[arg(long)]
    compact: bool,

    /// With --input-lines: stop at the first bad line.
    #[arg(long, requires = "input_lines")]
    fail_fast: bool,

    /// Records transformed at once with --input-lines (default: one per core).
    #[arg(long, value_name = "N", requires = "input_lines")]
    jobs: Option<NonZeroUsize>,
}

pub fn run(args: &TransformArgs) -> Result<ExitCode, Failure> {
    let stdin_uses = [
        Some(&args.template),
        args.input.as_ref(),
        args.input_lines.as_ref(),
    ]
    .into_iter()
    .flatten()
    .filter(|p| p.as_os_str() == "-")
    .count();
    if stdin_uses > 1 {
        return Err(Failure::usage(
            "only one of --template and --input/--input-lines can read standard input (`-`)",
        ));
    }
    let mode = EvaluationMode::parse_list(&args.mode)
        .map_err(|e| Failure::usage(format!("--mode: {e}")))?;
    let settings = Settings {
        mode,
        escape_char: args.escape_char,
        ..Settings::default()
    };
    let template = compile(
        &args.template,
        &settings,
        crate::conventions::color().for_stderr(),
    )?;
    let roots = module_roots(&template);

    if let Some(path) = &args.input_lines {
        let jobs = args
            .jobs
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, NonZeroUsize::get);
        return lines::run(&template, &roots, path, jobs, args.fail_fast);
    }
    // clap guarantees one of --input and --input-lines.
    let Some(path) = &args.input else {
        return Err(Failure::usage("give --input FILE or --input-lines FILE"));
    };
    let bytes = read_input(path, "input")?;
    let record = Value::from_json_slice(&bytes).map_err(|e| {
        Failure::usage(format!(
            "the input {} is not valid JSON: {e}",
            display_name(path)
        ))
    })?;
    if let Some(problem) = missing_root(&roots, &record) {
        return Err(Failure::usage(format!("{}: {problem}", display_name(path))));
    }
    let output = template
        .apply(&record)
        .map_err(|e| Failure::findings(format!("evaluation failed {e}")))?;
    let mut text = if args.compact {
        output.to_json_compact()
    } else {
        output.to_json_pretty()
    };
    text.push('\n');
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| output_error(&e))?;
    Ok(Exit::Success.into())
}

/// The module record roots (`account` for `$.account`) the template reads from the top of
/// its input, in the order first read.
fn module_roots(template: &Template) -> Vec<&'static str> {
    let mut roots = Vec::new();
    for path_use in template.paths() {
        if path_use.context != PathContext::Root {
            continue;
        }
        let first = path_use.path.member_chain().next().map(|(name, _)| name);
        if let Some(module) = first.and_then(modules::module_by_root)
            && !roots.contains(&module.root)
        {
            roots.push(module.root);
        }
    }
    roots
}

/// Why the template would read nulls from `record`: it reads module roots and the record has
/// none of them at its top, which is what a bare platform record (as the platform API returns
/// it, as `catalog/records/*.json` ship it) looks like. Dry-run, push and sync place the record
/// under its root themselves; `transform` applies the template to its input as it is, so the
/// record must come wrapped.
fn missing_root(roots: &[&str], record: &Value) -> Option<String> {
    let first = roots.first()?;
    let object = record.as_object();
    if roots
        .iter()
        .any(|root| object.is_some_and(|o| o.get(root).is_some()))
    {
        return None;
    }
    let read: Vec<String> = roots.iter().map(|r| format!("`$.{r}`")).collect();
    Some(format!(
        "the template reads {} but the input has no `{first}` at its top, so every value would be null; a platform record goes under its module's root here: wrap it as {{\"{first}\": <the record>}} (dry-run, push and sync wrap it themselves)",
        read.join(", ")
    ))
}

/// Reads and compiles the template, rendering every compile error with its source snippet.
fn compile(path: &Path, settings: &Settings, color: bool) -> Result<Template, Failure> {
    let bytes = read_input(path, "template")?;
    let name = display_name(path);
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::usage(format!(
            "the template {name} is not UTF-8 (first bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Template::compile_str(&text, settings)
        .map_err(|errors| Failure::findings(render_compile_errors(&name, &text, &errors, color)))
}

fn render_compile_errors(name: &str, text: &str, errors: &CompileErrors, color: bool) -> String {
    let n = errors.errors().len();
    let mut out = format!(
        "the template {name} has {n} error{}:\n\n",
        if n == 1 { "" } else { "s" }
    );
    for error in errors.errors() {
        let location = &error.location;
        let range: Range<usize> = location.offset.clone().unwrap_or(0..0);
        if location.offset.is_none() {
            // The error sits after a JSON escape in its string, where byte offsets into the
            // decoded text no longer match the file: name the node instead of a wrong column.
            out.push_str(&format!("error: {error}\n  in {name}\n"));
            continue;
        }
        let snippet = Snippet {
            code: format!(
                "transform::{}",
                syncdef_validator::rule::kebab_case(&format!("{:?}", error.kind))
            ),
            message: error.message.clone(),
            help: error.help.clone(),
            label: if location.pointer.is_empty() {
                "here".to_owned()
            } else {
                format!("here, in {}", location.pointer)
            },
            source: NamedSource::new(name, text.to_owned()),
            range,
        };
        out.push_str(&snippet.render(color));
    }
    out
}

/// JSON Lines mode: records are read in batches and transformed in parallel; outputs are
/// written in input order, so the result is the same whatever the number of jobs.
mod lines {
    use super::{
        BufRead, BufReader, BufWriter, Exit, ExitCode, Failure, File, Path, Range, Read, Template,
        ValueReader, Write, display_name, io, missing_root, output_error,
    };

    /// Lines per batch: large enough to amortise starting the workers, small enough to keep
    /// memory flat on inputs of any size.
    const BATCH_LINES: usize = 8192;

    struct Batch {
        text: Vec<u8>,
        /// Byte range of each line in `text` (without its newline), with its 1-based number.
        lines: Vec<(usize, Range<usize>)>,
    }

    struct Done {
        output: String,
        /// (line number, message) of the lines that failed.
        failures: Vec<(usize, String)>,
        /// Length of `output` when the first failure happened.
        output_before_failure: Option<usize>,
    }

    pub fn run(
        template: &Template,
        roots: &[&str],
        path: &Path,
        jobs: usize,
        fail_fast: bool,
    ) -> Result<ExitCode, Failure> {
        let reader: Box<dyn Read> = if path.as_os_str() == "-" {
            Box::new(io::stdin().lock())
        } else {
            Box::new(File::open(path).map_err(|e| {
                Failure::usage(format!("cannot read the input {}: {e}", path.display()))
            })?)
        };
        let mut reader = BufReader::with_capacity(1 << 20, reader);
        let stdout = io::stdout();
        let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
        let name = display_name(path);
        let mut line_no = 0usize;
        let mut failed = 0usize;
        loop {
            let batch = read_batch(&mut reader, &mut line_no)
                .map_err(|e| Failure::usage(format!("cannot read the input {name}: {e}")))?;
            if batch.lines.is_empty() {
                break;
            }
            let results = transform_batch(template, roots, &batch, jobs);
            for done in results {
                // With --fail-fast, nothing after the first bad line is printed: a consumer must
                // be able to trust that every line it got precedes the failure.
                if let (true, Some((n, message)), Some(cut)) =
                    (fail_fast, done.failures.first(), done.output_before_failure)
                {
                    out.write_all(&done.output.as_bytes()[..cut])
                        .map_err(|e| output_error(&e))?;
                    out.flush().map_err(|e| output_error(&e))?;
                    eprintln!("syncdef: {name}:{n}: {message}");
                    return Err(Failure {
                        exit: Exit::Findings,
                        message: String::new(),
                    });
                }
                out.write_all(done.output.as_bytes())
                    .map_err(|e| output_error(&e))?;
                for (n, message) in &done.failures {
                    eprintln!("syncdef: {name}:{n}: {message}");
                }
                failed += done.failures.len();
            }
        }
        out.flush().map_err(|e| output_error(&e))?;
        if failed > 0 {
            eprintln!(
                "syncdef: {failed} of {line_no} line{} of {name} failed",
                if line_no == 1 { "" } else { "s" }
            );
            return Ok(Exit::Findings.into());
        }
        Ok(Exit::Success.into())
    }

    impl Done {
        fn fail(&mut self, line: usize, message: String) {
            self.output_before_failure.get_or_insert(self.output.len());
            self.failures.push((line, message));
        }
    }

    fn read_batch(reader: &mut impl BufRead, line_no: &mut usize) -> io::Result<Batch> {
        let mut batch = Batch {
            text: Vec::with_capacity(BATCH_LINES * 256),
            lines: Vec::with_capacity(BATCH_LINES),
        };
        while batch.lines.len() < BATCH_LINES {
            let start = batch.text.len();
            let n = reader.read_until(b'\n', &mut batch.text)?;
            if n == 0 {
                break;
            }
            *line_no += 1;
            let mut end = batch.text.len();
            while end > start && matches!(batch.text[end - 1], b'\n' | b'\r') {
                end -= 1;
            }
            // Blank lines carry no record; JSON Lines readers conventionally skip them.
            if batch.text[start..end].iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            batch.lines.push((*line_no, start..end));
        }
        Ok(batch)
    }

    fn transform_batch(
        template: &Template,
        roots: &[&str],
        batch: &Batch,
        jobs: usize,
    ) -> Vec<Done> {
        let per_job = batch.lines.len().div_ceil(jobs.max(1)).max(1);
        let chunks: Vec<&[(usize, Range<usize>)]> = batch.lines.chunks(per_job).collect();
        if chunks.len() == 1 {
            return vec![transform_lines(template, roots, &batch.text, chunks[0])];
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = chunks
                .iter()
                .map(|chunk| scope.spawn(|| transform_lines(template, roots, &batch.text, chunk)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| Done {
                        output: String::new(),
                        failures: vec![(0, "internal error: a worker thread panicked".into())],
                        output_before_failure: Some(0),
                    })
                })
                .collect()
        })
    }

    fn transform_lines(
        template: &Template,
        roots: &[&str],
        text: &[u8],
        lines: &[(usize, Range<usize>)],
    ) -> Done {
        let mut done = Done {
            output: String::with_capacity(lines.len() * 256),
            failures: Vec::new(),
            output_before_failure: None,
        };
        // Records of one file share their keys: one reader per thread allocates each once.
        let mut reader = ValueReader::new();
        for (n, range) in lines {
            let record = match std::str::from_utf8(&text[range.clone()]) {
                Ok(line) => reader.read(line).map_err(|e| e.to_string()),
                Err(e) => Err(format!("{e}")),
            };
            let record = match record {
                Ok(record) => record,
                Err(e) => {
                    done.fail(*n, format!("not valid JSON: {e}"));
                    continue;
                }
            };
            if let Some(problem) = missing_root(roots, &record) {
                done.fail(*n, problem);
                continue;
            }
            match template.apply_to_json(&record, &mut done.output) {
                Ok(()) => done.output.push('\n'),
                Err(e) => done.fail(*n, format!("evaluation failed {e}")),
            }
        }
        done
    }
}
