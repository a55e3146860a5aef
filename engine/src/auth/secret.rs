//! A string that never shows itself in `Debug` or `Display`.

use std::fmt;
use std::sync::Arc;

/// A token or client secret. `Debug` prints `Secret(***)`; the value is reached only through
/// [`Secret::expose`], which makes every place that sends it easy to find.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Arc<str>);

impl Secret {
    /// Wraps `value`.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(Arc::from(value.into()))
    }

    /// The value, to send it.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}
