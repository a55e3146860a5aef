//! `syncdef new`: a starting definition for a vendor's OpenAPI description, written as an
//! OpenAPI Overlay that extends the description unedited (the writing is
//! `syncdef_definitions::scaffold`'s; this command reads the files and writes the result).

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use syncdef_definitions::Definition;
use syncdef_definitions::lexical_path::absolute;
use syncdef_definitions::scaffold::{Left, Request, Scaffold, scaffold};

use crate::failure::{Exit, Failure, output_error};

/// What to write a starting definition for.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The vendor's OpenAPI 3.0 or 3.1 description (JSON or YAML); the definition extends it,
    /// so it is never edited.
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,

    /// The entry's key (`Account`); its module is that of the record it is named after
    /// (`Accounts`), unless --module names one.
    #[arg(long, value_name = "NAME")]
    pub entry: String,

    /// The platform module the entry pushes (`Accounts`, `Contacts`, `Invoices`, ...).
    #[arg(long, value_name = "MODULE")]
    pub module: Option<String>,

    /// The operation that creates a record: its path as the description's `paths` writes it,
    /// a slash and the lower-case method (`/Contacts/put`).
    #[arg(long, value_name = "OPERATION")]
    pub create: String,

    /// The operation that updates a record (`/Contacts/{ContactID}/post`); its last path
    /// parameter becomes the record's external id, `{IntegrationId}`.
    #[arg(long, value_name = "OPERATION")]
    pub update: Option<String>,

    /// Write the definition (JSON, which YAML readers take as it is) to FILE, which must not
    /// exist (nothing is overwritten); standard output without it.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `syncdef new`.
pub fn run(args: &NewArgs) -> Result<ExitCode, Failure> {
    if let Some(output) = &args.output
        && output.exists()
    {
        return Err(exists(output));
    }
    let vendor = Definition::load_path(&args.from).map_err(|e| {
        let help = e
            .help
            .as_deref()
            .map_or(String::new(), |h| format!("\n  help: {h}"));
        Failure::usage(format!(
            "{}: {} (--from takes an OpenAPI description in JSON or YAML){help}",
            e.location(),
            e.message
        ))
    })?;
    let extends = extends(&args.from, args.output.as_deref());
    let request = Request {
        entry: &args.entry,
        module: args.module.as_deref(),
        create: &args.create,
        update: args.update.as_deref(),
        extends: &extends,
    };
    let made = scaffold(&vendor, &request).map_err(|e| {
        let place = e.location.map_or(String::new(), |at| format!("{at}: "));
        Failure::usage(format!("{place}{}\n  help: {}", e.message, e.help))
    })?;
    let mut text = serde_json::to_string_pretty(&made.overlay)
        .map_err(|e| Failure::usage(format!("cannot write the definition: {e}")))?;
    text.push('\n');
    match &args.output {
        Some(path) => write_new(path, &text)?,
        None => io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| output_error(&e))?,
    }
    report(args, &made);
    Ok(Exit::Success.into())
}

/// Writes `text` to a new file at `path`; a file already there is an error, never replaced.
fn write_new(path: &Path, text: &str) -> Result<(), Failure> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| {
            if e.kind() == io::ErrorKind::AlreadyExists {
                exists(path)
            } else {
                Failure::usage(format!("cannot create {}: {e}", path.display()))
            }
        })?;
    file.write_all(text.as_bytes())
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))
}

fn exists(path: &Path) -> Failure {
    Failure::usage(format!(
        "{} already exists and is not overwritten: give another --output, or remove it first",
        path.display()
    ))
}

/// Tells on standard error what was written, what was left to check and what to do next.
fn report(args: &NewArgs, made: &Scaffold) {
    let mut err = io::stderr().lock();
    let target = args
        .output
        .as_ref()
        .map_or_else(|| "FILE".to_owned(), |p| p.display().to_string());
    if !made.left.is_empty() {
        let _ = writeln!(
            err,
            "Left as written, to check (JSON pointers into the definition, as `syncdef lint` reports them):"
        );
        for Left {
            pointer,
            value,
            note,
        } in &made.left
        {
            // Something to add has no value yet; a value written is shown as it is.
            let _ = if value.is_null() {
                writeln!(err, "  {pointer}: {note}")
            } else {
                writeln!(err, "  {pointer} = {value}: {note}")
            };
        }
    }
    // What to do next is a comment on the output, which `-q` leaves out; what was left to
    // check is not.
    if crate::logging::quiet() {
        return;
    }
    let _ = writeln!(
        err,
        "Next: `syncdef lint {target}`, then `syncdef push --dry-run {target} --entry {} --record RECORD.json` shows the requests it would send.",
        args.entry
    );
}

/// The overlay's `extends`: the description's path from the directory of `output` (the
/// current directory without one), with `/` separators.
fn extends(from: &Path, output: Option<&Path>) -> String {
    let vendor = absolute(from);
    let base = match output.and_then(Path::parent) {
        Some(dir) if !dir.as_os_str().is_empty() => absolute(dir),
        _ => absolute(Path::new(".")),
    };
    let Some(relative) = relative_to(&base, &vendor) else {
        return vendor.display().to_string();
    };
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let joined = parts.join("/");
    if joined.starts_with("..") {
        joined
    } else {
        format!("./{joined}")
    }
}

/// `to` from directory `from`, both absolute and normal; `None` when they share no directory
/// but the root (a path up to the root and down again says no more than the absolute one).
fn relative_to(from: &Path, to: &Path) -> Option<PathBuf> {
    let mut from_parts = from.components().peekable();
    let mut to_parts = to.components().peekable();
    let mut shared = 0;
    while let (Some(a), Some(b)) = (from_parts.peek(), to_parts.peek()) {
        if a != b {
            break;
        }
        shared += usize::from(matches!(a, Component::Normal(_)));
        from_parts.next();
        to_parts.next();
    }
    if shared == 0 {
        return None;
    }
    let mut out: PathBuf = from_parts.map(|_| Component::ParentDir).collect();
    out.extend(to_parts);
    Some(out)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::relative_to;

    #[test]
    fn a_path_relative_to_a_directory() {
        let rel = |from: &str, to: &str| relative_to(Path::new(from), Path::new(to));
        assert_eq!(rel("/a/b", "/a/b/v.json"), Some("v.json".into()));
        assert_eq!(rel("/a/b/out", "/a/b/v.json"), Some("../v.json".into()));
        assert_eq!(rel("/a/x/y", "/a/b/v.json"), Some("../../b/v.json".into()));
        assert_eq!(rel("/tmp/x", "/work/v.json"), None);
    }
}
