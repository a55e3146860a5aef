//! Whether to use ANSI colours. Precedence, first match wins:
//!
//! 1. `--color always` or `--color never` (a global flag, `conventions::ColorArg`);
//! 2. `NO_COLOR` set to anything but the empty string disables colour (<https://no-color.org>);
//! 3. `FORCE_COLOR` or `CLICOLOR_FORCE` set to anything but the empty string or `0` enables it,
//!    even into a pipe or a file (CI logs render ANSI);
//! 4. `TERM=dumb` disables it;
//! 5. otherwise colour exactly when the output is a terminal.

use std::ffi::OsString;
use std::io::IsTerminal;

use clap::ValueEnum;

/// The `--color` choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal, as `NO_COLOR`, `FORCE_COLOR`, `CLICOLOR_FORCE` and
    /// `TERM` allow.
    #[default]
    Auto,
    /// Always colour, even into a pipe or file, whatever the environment says.
    Always,
    /// Never colour, whatever the environment says.
    Never,
}

impl ColorChoice {
    /// Resolves the choice for output written to stdout.
    pub fn for_stdout(self) -> bool {
        decide(self, &ColorEnv::current(), std::io::stdout().is_terminal())
    }

    /// Resolves the choice for output written to stderr.
    pub fn for_stderr(self) -> bool {
        decide(self, &ColorEnv::current(), std::io::stderr().is_terminal())
    }
}

/// The environment variables the decision reads.
#[derive(Clone, Debug, Default)]
pub struct ColorEnv {
    pub no_color: Option<OsString>,
    pub force_color: Option<OsString>,
    pub clicolor_force: Option<OsString>,
    pub term: Option<OsString>,
}

impl ColorEnv {
    /// The variables of this process.
    pub fn current() -> Self {
        ColorEnv {
            no_color: std::env::var_os("NO_COLOR"),
            force_color: std::env::var_os("FORCE_COLOR"),
            clicolor_force: std::env::var_os("CLICOLOR_FORCE"),
            term: std::env::var_os("TERM"),
        }
    }
}

/// Whether to colour output, from the flag, the environment and whether the output is a
/// terminal (the precedence is in the module documentation).
pub fn decide(choice: ColorChoice, env: &ColorEnv, is_tty: bool) -> bool {
    match choice {
        ColorChoice::Always => return true,
        ColorChoice::Never => return false,
        ColorChoice::Auto => {}
    }
    if env.no_color.as_ref().is_some_and(|v| !v.is_empty()) {
        return false;
    }
    let forced = |v: &Option<OsString>| v.as_ref().is_some_and(|v| !v.is_empty() && v != "0");
    if forced(&env.force_color) || forced(&env.clicolor_force) {
        return true;
    }
    if env.term.as_ref().is_some_and(|t| t == "dumb") {
        return false;
    }
    is_tty
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> ColorEnv {
        let get = |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        };
        ColorEnv {
            no_color: get("NO_COLOR"),
            force_color: get("FORCE_COLOR"),
            clicolor_force: get("CLICOLOR_FORCE"),
            term: get("TERM"),
        }
    }

    #[test]
    fn auto_follows_the_terminal_without_variables() {
        assert!(decide(ColorChoice::Auto, &env(&[]), true));
        assert!(!decide(ColorChoice::Auto, &env(&[]), false));
    }

    #[test]
    fn the_flag_wins_over_every_variable() {
        let all = env(&[("NO_COLOR", "1"), ("FORCE_COLOR", "1"), ("TERM", "dumb")]);
        assert!(decide(ColorChoice::Always, &all, false));
        assert!(!decide(ColorChoice::Never, &all, true));
        assert!(decide(
            ColorChoice::Always,
            &env(&[("NO_COLOR", "1")]),
            false
        ));
        assert!(!decide(
            ColorChoice::Never,
            &env(&[("FORCE_COLOR", "1")]),
            true
        ));
    }

    #[test]
    fn no_color_with_any_non_empty_value_disables() {
        for value in ["1", "0", "false", "yes"] {
            assert!(!decide(
                ColorChoice::Auto,
                &env(&[("NO_COLOR", value)]),
                true
            ));
        }
        assert!(decide(ColorChoice::Auto, &env(&[("NO_COLOR", "")]), true));
    }

    #[test]
    fn force_color_enables_off_a_terminal_unless_empty_or_zero() {
        for name in ["FORCE_COLOR", "CLICOLOR_FORCE"] {
            assert!(
                decide(ColorChoice::Auto, &env(&[(name, "1")]), false),
                "{name}"
            );
            assert!(
                decide(ColorChoice::Auto, &env(&[(name, "true")]), false),
                "{name}"
            );
            assert!(
                !decide(ColorChoice::Auto, &env(&[(name, "0")]), false),
                "{name}"
            );
            assert!(
                !decide(ColorChoice::Auto, &env(&[(name, "")]), false),
                "{name}"
            );
        }
    }

    #[test]
    fn no_color_beats_force_color() {
        let both = env(&[
            ("NO_COLOR", "1"),
            ("FORCE_COLOR", "1"),
            ("CLICOLOR_FORCE", "1"),
        ]);
        assert!(!decide(ColorChoice::Auto, &both, true));
    }

    #[test]
    fn a_dumb_terminal_has_no_colour_unless_forced() {
        assert!(!decide(ColorChoice::Auto, &env(&[("TERM", "dumb")]), true));
        assert!(decide(
            ColorChoice::Auto,
            &env(&[("TERM", "xterm-256color")]),
            true
        ));
        let forced = env(&[("TERM", "dumb"), ("FORCE_COLOR", "1")]);
        assert!(decide(ColorChoice::Auto, &forced, false));
    }
}
