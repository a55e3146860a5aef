//! Whether to use ANSI colors: `--color`, then `NO_COLOR`, then whether stderr/stdout is a
//! terminal.

use std::io::IsTerminal;

use clap::ValueEnum;

/// The `--color` choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Color when writing to a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always color, even into a pipe or file.
    Always,
    /// Never color.
    Never,
}

impl ColorChoice {
    /// Resolves the choice for output written to stdout.
    pub fn for_stdout(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            // https://no-color.org: any non-empty value disables color.
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
            }
        }
    }

    /// Resolves the choice for output written to stderr.
    pub fn for_stderr(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stderr().is_terminal()
            }
        }
    }
}
