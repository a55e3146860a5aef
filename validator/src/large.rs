//! What the linter does differently for a large document: its rules run on two threads, and
//! what it built is freed beside the report instead of before it.
//!
//! On Microsoft Graph's 20 MB description the rules take a fifth of a lint, shared by two
//! cores; freeing its tree takes a tenth (20 ms), and the compiled schemas of a
//! 40,000-property request body a tenth of that lint. A command that exits first leaves the
//! freeing to the system.

use syncdef_definitions::Definition;

/// Documents from this size on are large.
const LARGE_BYTES: usize = 1 << 20;

/// Whether `def` is large enough for the two threads and the freeing aside.
pub(crate) fn is_large(def: &Definition) -> bool {
    def.source.text().len() >= LARGE_BYTES
}

/// Frees `value` on a thread of its own.
pub(crate) fn free_aside<T: Send + 'static>(value: T) {
    // Without a thread to be had, the failed spawn frees the value on this one.
    let _ = std::thread::Builder::new()
        .name("syncdef-free".into())
        .spawn(move || drop(value));
}
