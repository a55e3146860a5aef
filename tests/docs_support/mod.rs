//! The runnable blocks of the docs: finding them, reading their commands, and running each
//! `syncdef` command with the built binary.
//!
//! A block is runnable when its fence's info string holds the word `runnable`
//! (```` ```sh runnable ````); with the word `mock` as well, it talks to the local systems of
//! `syncdef-mock`, which the runner starts. CONTRIBUTING.md ("Docs that run") states the
//! rules; the functions here enforce them, so a block breaking one fails the test instead of
//! being skipped.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One marked block of a Markdown file.
#[derive(Debug, Clone)]
pub struct Block {
    /// The file, relative to the repository root.
    pub doc: String,
    /// The 1-based line of the block's first content line.
    pub first_line: usize,
    /// Whether it talks to the local systems (`mock` in the info string).
    pub needs_mock: bool,
    /// The lines between the fences.
    pub lines: Vec<String>,
}

/// The runnable blocks of `text` (the Markdown file `doc`), in order.
pub fn runnable_blocks(doc: &str, text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    let mut in_other_fence = false;
    for (index, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (fence, open.take()) {
            (Some(_), Some(block)) => blocks.push(block),
            (Some(_), None) if in_other_fence => in_other_fence = false,
            (Some(info), None) => {
                let words: Vec<&str> = info.split_whitespace().collect();
                if words.contains(&"runnable") {
                    open = Some(Block {
                        doc: doc.to_owned(),
                        first_line: index + 2,
                        needs_mock: words.contains(&"mock"),
                        lines: Vec::new(),
                    });
                } else {
                    in_other_fence = true;
                }
            }
            (None, Some(mut block)) => {
                block.lines.push(line.to_owned());
                open = Some(block);
            }
            (None, None) => {}
        }
    }
    blocks
}

/// What one command line of a block asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `export NAME=VALUE ...`: set for every later command of the same document.
    Export(Vec<(String, String)>),
    /// A `syncdef` command.
    Run(Invocation),
}

/// One `syncdef` command of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// Where it is: `docs/getting-started.md:42`.
    pub place: String,
    /// The arguments after `syncdef`.
    pub args: Vec<String>,
    /// `> FILE`: standard output goes to this file (relative to the working directory).
    pub stdout_to: Option<String>,
    /// The exit status the docs promise: 0, or N from a trailing `# exits N`.
    pub exit: i32,
}

/// The steps of `block`, or why a line is not something the runner can run as written.
pub fn steps(block: &Block) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    let mut pending = String::new();
    let mut start = block.first_line;
    for (offset, line) in block.lines.iter().enumerate() {
        if pending.is_empty() {
            start = block.first_line + offset;
        }
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(line);
        let place = format!("{}:{start}", block.doc);
        let command = std::mem::take(&mut pending);
        if let Some(step) = step(&place, &command)? {
            steps.push(step);
        }
    }
    if !pending.trim().is_empty() {
        return Err(format!(
            "{}:{start}: the block ends inside a continued line",
            block.doc
        ));
    }
    Ok(steps)
}

/// The step of one logical command line; `None` for a blank or comment line.
fn step(place: &str, command: &str) -> Result<Option<Step>, String> {
    let (words, comment) = split_words(command).map_err(|e| format!("{place}: {e}"))?;
    let Some(program) = words.first() else {
        return Ok(None);
    };
    if program == "export" {
        let mut assignments = Vec::new();
        for word in &words[1..] {
            let Some((name, value)) = word.split_once('=') else {
                return Err(format!("{place}: `export {word}` sets no value"));
            };
            assignments.push((name.to_owned(), value.to_owned()));
        }
        return Ok(Some(Step::Export(assignments)));
    }
    if program != "syncdef" {
        return Err(format!(
            "{place}: `{program}` is not a syncdef command; a runnable block holds only `syncdef ...` and `export` lines (leave the block unmarked)"
        ));
    }
    let mut args: Vec<String> = words[1..].to_vec();
    let mut stdout_to = None;
    if let Some(at) = args.iter().position(|w| w == ">") {
        let rest = args.split_off(at);
        match rest.as_slice() {
            [_, file] => stdout_to = Some(file.clone()),
            _ => {
                return Err(format!(
                    "{place}: `>` must be followed by one file name, last"
                ));
            }
        }
    }
    let exit = match comment
        .as_deref()
        .and_then(|c| c.trim().strip_prefix("exits "))
    {
        Some(code) => code
            .trim()
            .parse()
            .map_err(|_| format!("{place}: `# exits {code}` is not an exit status"))?,
        None => 0,
    };
    Ok(Some(Step::Run(Invocation {
        place: place.to_owned(),
        args,
        stdout_to,
        exit,
    })))
}

/// Splits a command line as a POSIX shell splits words, with single and double quotes and
/// backslash escapes; returns the words and the trailing comment. Refuses what the runner
/// would have to interpret otherwise (pipes, variables, command lists, substitutions).
fn split_words(line: &str) -> Result<(Vec<String>, Option<String>), String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '#' if word.is_none() => return Ok((words, Some(chars.collect()))),
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("unterminated single quote".to_owned()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => w.extend(chars.next()),
                        Some('$' | '`') => {
                            return Err("`$` or a backquote inside double quotes: the runner does not expand it".to_owned());
                        }
                        Some(c) => w.push(c),
                        None => return Err("unterminated double quote".to_owned()),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            '|' | '&' | ';' | '<' | '$' | '`' | '(' | ')' => {
                return Err(format!(
                    "`{c}` needs a shell; a runnable block holds plain commands (leave the block unmarked)"
                ));
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok((words, None))
}

/// Runs the steps of the blocks of one document in a working directory, with the
/// environment the document's `export` lines build.
pub struct Runner {
    binary: PathBuf,
    dir: PathBuf,
    env: BTreeMap<String, String>,
    /// (text in the docs, text to run): the local systems' documented addresses and where
    /// the test started them.
    substitutions: Vec<(String, String)>,
}

impl Runner {
    /// A runner of `binary` in `dir`.
    pub fn new(binary: impl Into<PathBuf>, dir: impl Into<PathBuf>) -> Runner {
        Runner {
            binary: binary.into(),
            dir: dir.into(),
            env: BTreeMap::new(),
            substitutions: Vec::new(),
        }
    }

    /// Replaces `documented` by `actual` in every argument before running it.
    pub fn substitute(&mut self, documented: impl Into<String>, actual: impl Into<String>) {
        self.substitutions.push((documented.into(), actual.into()));
    }

    /// Runs every step of `block`; the first command that does not exit as documented (or a
    /// line that cannot run) ends the block with a message naming its place.
    pub fn run_block(&mut self, block: &Block) -> Result<Vec<Ran>, String> {
        let mut ran = Vec::new();
        for step in steps(block)? {
            match step {
                Step::Export(assignments) => self.env.extend(assignments),
                Step::Run(invocation) => ran.push(self.run(&invocation)?),
            }
        }
        Ok(ran)
    }

    fn run(&self, invocation: &Invocation) -> Result<Ran, String> {
        let args: Vec<String> = invocation
            .args
            .iter()
            .map(|a| {
                self.substitutions
                    .iter()
                    .fold(a.clone(), |a, (from, to)| a.replace(from, to))
            })
            .collect();
        let output = Command::new(&self.binary)
            .args(&args)
            .current_dir(&self.dir)
            .envs(&self.env)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| {
                format!(
                    "{}: cannot run {}: {e}",
                    invocation.place,
                    self.binary.display()
                )
            })?;
        let ran = Ran {
            place: invocation.place.clone(),
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        if ran.code != invocation.exit {
            return Err(format!(
                "{}: `syncdef {}` exited {}, the docs say {}\n--- stdout\n{}--- stderr\n{}",
                ran.place,
                args.join(" "),
                ran.code,
                invocation.exit,
                ran.stdout,
                ran.stderr
            ));
        }
        // A documented command teaches its spelling: a former one would teach the note away.
        if let Some(note) = ran.stderr.lines().find(|l| l.contains(" is deprecated; ")) {
            return Err(format!(
                "{}: `syncdef {}` uses a former spelling: {note}",
                ran.place,
                args.join(" ")
            ));
        }
        if let Some(file) = &invocation.stdout_to {
            fs::write(self.dir.join(file), &ran.stdout)
                .map_err(|e| format!("{}: cannot write {file}: {e}", ran.place))?;
        }
        Ok(ran)
    }
}

/// What one command printed.
#[derive(Debug)]
pub struct Ran {
    /// Where it is in the docs.
    pub place: String,
    /// Its exit status.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Copies the directory `from` into `to`, recursively (the shipped files the docs name).
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
