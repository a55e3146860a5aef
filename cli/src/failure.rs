//! Errors that end a command, and the exit codes they map to.

use std::fmt;
use std::io;
use std::process::ExitCode;

/// What the process exits with; the numbers are part of the CLI's contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: the command did what was asked and found nothing wrong.
    Success,
    /// 1: findings (lint errors), a template or evaluation error, a failed push.
    Findings,
    /// 2: the command could not run: bad arguments, unreadable files, invalid configuration.
    Usage,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(match exit {
            Exit::Success => 0,
            Exit::Findings => 1,
            Exit::Usage => 2,
        })
    }
}

/// A command failure: a message for stderr and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub exit: Exit,
    pub message: String,
}

impl Failure {
    /// A usage or I/O error (exit 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Usage,
            message: message.into(),
        }
    }

    /// A finding about the user's input (exit 1).
    pub fn findings(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Findings,
            message: message.into(),
        }
    }

    /// Prints the message with the `syncdef: ` prefix and returns the exit code.
    pub fn report(self) -> ExitCode {
        if !self.message.is_empty() {
            eprintln!(
                "syncdef: {}",
                crate::redacted::text(self.message.trim_end())
            );
        }
        self.exit.into()
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A write to stdout failed. A closed pipe (`syncdef ... | head`) is not an error: the reader
/// has what it wanted, so the command ends quietly with success.
pub fn output_error(error: &io::Error) -> Failure {
    if error.kind() == io::ErrorKind::BrokenPipe {
        Failure {
            exit: Exit::Success,
            message: String::new(),
        }
    } else {
        Failure::usage(format!("cannot write the output: {error}"))
    }
}
