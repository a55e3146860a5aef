//! Evaluation settings: JUST's `JUSTContext` plus resource limits.

use std::fmt;
use std::ops::BitOr;

/// JUST's `EvaluationMode` flags. Combine with `|`.
///
/// The reference tests these two ways, and we keep both: error propagation is a *flag* test
/// ([`EvaluationMode::propagates_errors`]), while case-sensitive comparison and throwing
/// conversions need the mode to be `Strict` *exactly* ([`EvaluationMode::is_exactly_strict`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct EvaluationMode(u8);

impl EvaluationMode {
    /// Errors and failed conversions give the default value (the default mode).
    pub const FALLBACK_TO_DEFAULT: Self = Self(1);
    /// `#copy` merges into existing properties instead of failing on duplicates.
    pub const ADD_OR_REPLACE_PROPERTIES: Self = Self(2);
    /// Errors propagate; comparisons are case-sensitive; conversions fail loudly.
    pub const STRICT: Self = Self(4);
    /// A `null` result is evaluated again against the output built so far.
    pub const LOOK_IN_TRANSFORMED: Self = Self(16);

    /// Whether every flag of `other` is set.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// The raw bits, as in .NET.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// `IsStrictMode()`: the Strict flag is set (errors propagate).
    pub fn propagates_errors(self) -> bool {
        self.contains(Self::STRICT)
    }

    /// `EvaluationMode == Strict`: only then do comparisons respect case and conversions throw.
    pub fn is_exactly_strict(self) -> bool {
        self == Self::STRICT
    }

    /// Parses one mode name as the CLI spells it: `default` (or `fallback-to-default`),
    /// `strict`, `add-or-replace-properties`, `look-in-transformed`.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(
            match name.trim().to_ascii_lowercase().replace('_', "-").as_str() {
                "default" | "fallback-to-default" | "fallbacktodefault" => {
                    Self::FALLBACK_TO_DEFAULT
                }
                "strict" => Self::STRICT,
                "add-or-replace-properties" | "addorreplaceproperties" => {
                    Self::ADD_OR_REPLACE_PROPERTIES
                }
                "look-in-transformed" | "lookintransformed" => Self::LOOK_IN_TRANSFORMED,
                _ => return None,
            },
        )
    }

    /// Parses a comma-separated list of mode names and combines them.
    pub fn parse_list(list: &str) -> Result<Self, String> {
        let mut mode = Self(0);
        for name in list.split(',').filter(|s| !s.trim().is_empty()) {
            mode = mode
                | Self::from_name(name).ok_or_else(|| {
                    format!(
                        "unknown evaluation mode '{}': use default, strict, \
                         add-or-replace-properties or look-in-transformed",
                        name.trim()
                    )
                })?;
        }
        if mode.0 == 0 {
            return Err("no evaluation mode given".into());
        }
        Ok(mode)
    }
}

impl Default for EvaluationMode {
    fn default() -> Self {
        Self::FALLBACK_TO_DEFAULT
    }
}

impl BitOr for EvaluationMode {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl fmt::Debug for EvaluationMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for EvaluationMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (Self::FALLBACK_TO_DEFAULT, "default"),
            (Self::ADD_OR_REPLACE_PROPERTIES, "add-or-replace-properties"),
            (Self::STRICT, "strict"),
            (Self::LOOK_IN_TRANSFORMED, "look-in-transformed"),
        ];
        let set: Vec<&str> = names
            .iter()
            .filter(|(m, _)| self.contains(*m))
            .map(|(_, n)| *n)
            .collect();
        f.write_str(&set.join(","))
    }
}

/// Bounds on one `apply`, so that a hostile or mistaken template (a `#loop` bomb, a
/// concatenation doubling a string) ends with [`crate::EvalErrorKind::LimitExceeded`] instead of
/// exhausting memory or the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Nesting of the template and of evaluation (loops, scopes, nested calls, `#applyover`).
    /// Default 128.
    pub max_depth: usize,
    /// Output values created (objects, array items, function results) per apply.
    /// Default 10,000,000.
    pub max_output_nodes: usize,
    /// Function calls and loop iterations per apply. Default 10,000,000.
    pub max_steps: usize,
    /// Longest string a function may build, in bytes. Default 16 MiB.
    pub max_string_len: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_output_nodes: 10_000_000,
            max_steps: 10_000_000,
            max_string_len: 16 << 20,
        }
    }
}

/// Everything that shapes compilation and evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Evaluation mode flags.
    pub mode: EvaluationMode,
    /// Escapes `(`, `)`, `,`, `#` and itself in arguments. Default `/`.
    pub escape_char: char,
    /// Separates the keys of `#grouparrayby`. Default `:`.
    pub split_group_char: char,
    /// Places `#todecimal` rounds to. Default 28.
    pub default_decimal_places: u32,
    /// Resource limits.
    pub limits: Limits,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mode: EvaluationMode::default(),
            escape_char: '/',
            split_group_char: ':',
            default_decimal_places: 28,
            limits: Limits::default(),
        }
    }
}

impl Settings {
    /// Default settings with `mode`.
    pub fn with_mode(mode: EvaluationMode) -> Self {
        Settings {
            mode,
            ..Settings::default()
        }
    }
}
