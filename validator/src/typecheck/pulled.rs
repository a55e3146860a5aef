//! What a pull's response template (`batchReadResponse`, `readResponse`) writes, read off its
//! tree: the record element (the body of a root `#loop`, or the root itself) and, under the
//! module's root, the fields written with the node that writes each. The contents of
//! `#ifgroup` keys are written when their condition holds; other function keys (`#eval`) make
//! a level unknown: nothing there is judged.

use syncdef_definitions::Members;
use syncdef_definitions::Node;
use syncdef_definitions::node::Member;
use syncdef_definitions::operation::Operation;

/// The template name prefix of the pull operations whose output is platform records.
pub(crate) const PULL_OPERATIONS: [&str; 2] = [Operation::BatchRead.key(), Operation::Read.key()];

/// A template's record element: the object each output element is made from.
pub(crate) fn record_element<'t>(root: &Node<'t>) -> Option<Node<'t>> {
    let members = root.as_object()?;
    match members.only() {
        Some(only) if is_loop(&only) => only.value.as_object().map(|_| only.value),
        _ => Some(*root),
    }
}

/// Whether the member's key is a `#loop(...)`.
pub(crate) fn is_loop(member: &Member) -> bool {
    member.key.name.starts_with("#loop(")
}

/// The members an object writes, the contents of `#ifgroup` keys included (they are written
/// when their condition holds); `None` when another key is a function (`#eval`): then what
/// the level writes is not known.
pub(crate) fn written_members<'t>(node: &Node<'t>) -> Option<Vec<Member<'t>>> {
    let mut out = Vec::new();
    collect(node.as_object()?, &mut out).then_some(out)
}

fn collect<'n>(members: Members<'n>, out: &mut Vec<Member<'n>>) -> bool {
    for member in members {
        let key = member.key.name;
        if key.starts_with("#ifgroup(") {
            match member.value.as_object() {
                Some(inner) if collect(inner, out) => {}
                _ => return false,
            }
        } else if key.starts_with('#') {
            return false;
        } else {
            out.push(member);
        }
    }
    true
}
