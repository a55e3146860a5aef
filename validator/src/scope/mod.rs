//! The lint scope: strict on the parts of the description the synchronization uses, quiet
//! about the rest.
//!
//! A definition is often a vendor's own OpenAPI description (thousands of operations, which
//! its user cannot edit) with a `synchronization` section that calls a handful of them. A
//! mistake in an operation or a schema no entry reaches cannot change what a push sends or
//! reads, so by default ([`Scope::Used`]) its findings are set apart: counted, printed by no
//! format, failing no run, and not seen by the engine's lint gate.
//!
//! The *used part* of a definition is:
//!
//! - every operation an entry references (`create`, `update`, `delete`, `read`, `batchRead`,
//!   and the `path` of `ApiPath` actions), resolved as the engine resolves it, with the members
//!   of its path item that are not operations (`parameters`, `servers`, ...);
//! - everything those reach through local `$ref`s (and `discriminator` mappings),
//!   transitively: schemas, parameters, responses, request bodies, headers, examples;
//! - the security schemes that their `security` and the document's `security` name;
//! - the whole top level outside `paths` and `components` (`info`, `servers`, `security`,
//!   `synchronization`, `x-syncdef*`, ...), and what it reaches through `$ref`s.
//!
//! A finding is *outside the scope* when its JSON pointer lies under `/paths/<path>` or
//! `/components/<kind>/<name>` in a part not used. A finding without a pointer, at the top
//! level, or at a container (`/paths`, `/components/schemas`, a path item one of whose
//! operations is used) stays in scope. A document without a `synchronization` section has
//! nothing to be used by: it is linted in full, as with [`Scope::All`].
//!
//! Only the used part is walked: on a 20 MB description the cost is that of the few
//! operations the entries call and what they reach, not of the document.

mod used;

use serde::Deserialize;

use crate::diagnostic::Diagnostic;

pub(crate) use used::UsedParts;

/// Which findings a lint reports (`scope` in `syncdef.toml`, `--scope` on `syncdef lint`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Findings in the parts of the description the synchronization uses, and everywhere
    /// outside `paths` and `components`; the others are counted apart.
    #[default]
    Used,
    /// Every finding, wherever it is.
    All,
}

impl Scope {
    /// The name `syncdef.toml` and `--scope` use.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Scope::Used => "used",
            Scope::All => "all",
        }
    }
}

/// Splits `diagnostics` into those in scope and those in parts of the description `used`
/// does not hold (see the module documentation).
pub(crate) fn split(
    used: &UsedParts,
    diagnostics: Vec<Diagnostic>,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    diagnostics
        .into_iter()
        .partition(|d| d.pointer.as_deref().is_none_or(|p| used.holds(p)))
}
