//! Shared reading of `components.securitySchemes` and `security` requirements for the `SD7xx`
//! rules.

use syncdef_definitions::{Member, Members, Node, pointer};

/// One `scheme: [scopes]` member of a security requirement, with its JSON pointer.
pub(crate) struct Requirement<'a> {
    pub member: Member<'a>,
    pub pointer: String,
}

/// The schemes of `components.securitySchemes`.
pub(crate) fn schemes<'t>(root: &Node<'t>) -> Members<'t> {
    root.get("components")
        .and_then(|c| c.get("securitySchemes"))
        .and_then(Node::as_object)
        .unwrap_or_default()
}

/// Every requirement of the top-level `security` and of each operation's `security`.
pub(crate) fn requirements<'t>(root: &Node<'t>) -> Vec<Requirement<'t>> {
    let mut out = Vec::new();
    collect(root.get("security"), "/security", &mut out);
    for path in root
        .get("paths")
        .and_then(Node::as_object)
        .unwrap_or_default()
    {
        for op in path.value.as_object().unwrap_or_default() {
            let mut p = String::from("/paths");
            pointer::push(&mut p, path.key.name);
            pointer::push(&mut p, op.key.name);
            p.push_str("/security");
            collect(op.value.get("security"), &p, &mut out);
        }
    }
    out
}

fn collect<'a>(security: Option<Node<'a>>, base: &str, out: &mut Vec<Requirement<'a>>) {
    for (i, requirement) in security
        .and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        for member in requirement.as_object().unwrap_or_default() {
            let mut p = format!("{base}/{i}");
            pointer::push(&mut p, member.key.name);
            out.push(Requirement { member, pointer: p });
        }
    }
}
