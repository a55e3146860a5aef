//! Enforcement of [`crate::Limits`].

use super::Cx;
use crate::error::{EvalError, EvalErrorKind, Res};

impl Cx<'_> {
    /// Counts one function call or loop iteration.
    pub(crate) fn step(&mut self) -> Res<()> {
        self.steps += 1;
        if self.steps > self.settings.limits.max_steps {
            return Err(limit(format!(
                "evaluation took more than {} steps (limits.max_steps)",
                self.settings.limits.max_steps
            )));
        }
        Ok(())
    }

    /// Counts `n` output values.
    pub(crate) fn produced(&mut self, n: usize) -> Res<()> {
        self.nodes += n;
        if self.nodes > self.settings.limits.max_output_nodes {
            return Err(limit(format!(
                "the output has more than {} values (limits.max_output_nodes)",
                self.settings.limits.max_output_nodes
            )));
        }
        Ok(())
    }

    /// Enters one level of nesting.
    pub(crate) fn enter(&mut self) -> Res<()> {
        self.depth += 1;
        if self.depth > self.settings.limits.max_depth {
            return Err(limit(format!(
                "evaluation nests deeper than {} levels (limits.max_depth)",
                self.settings.limits.max_depth
            )));
        }
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Checks a string about to be built.
    pub(crate) fn check_len(&self, len: usize) -> Res<()> {
        if len > self.settings.limits.max_string_len {
            return Err(limit(format!(
                "a string would be {len} bytes long, more than limits.max_string_len ({})",
                self.settings.limits.max_string_len
            )));
        }
        Ok(())
    }
}

fn limit(message: String) -> Box<EvalError> {
    EvalError::new(EvalErrorKind::LimitExceeded, message)
}
