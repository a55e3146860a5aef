//! What a pull's response template (`batchReadResponse`, `readResponse`) writes, read off its
//! tree: the record element (the body of a root `#loop`, or the root itself) and, under the
//! module's root, the fields written with the node that writes each. Keys that are functions
//! (`#eval`, `#ifgroup`) make a level unknown: nothing there is judged.

use syncdef_definitions::Node;
use syncdef_definitions::node::Member;

/// The template name prefix of the pull operations whose output is platform records.
pub(crate) const PULL_OPERATIONS: [&str; 2] = ["batchRead", "read"];

/// A template's record element: the object each output element is made from.
pub(crate) fn record_element(root: &Node) -> Option<&Node> {
    let members = root.as_object()?;
    match members {
        [only] if is_loop(only) => only.value.as_object().map(|_| &only.value),
        _ => Some(root),
    }
}

/// Whether the member's key is a `#loop(...)`.
pub(crate) fn is_loop(member: &Member) -> bool {
    member.key.name.starts_with("#loop(")
}

/// Whether any key of `members` is a function (its output keys are not known).
pub(crate) fn has_function_keys(members: &[Member]) -> bool {
    members.iter().any(|m| m.key.name.starts_with('#'))
}
