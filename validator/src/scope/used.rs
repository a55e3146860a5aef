//! The parts of a description the synchronization uses, found by walking out from what the
//! entries call (see the parent module for the model).

use std::collections::HashSet;

use syncdef_definitions::operation_ref::HttpMethod;
use syncdef_definitions::{Node, NodeKind, pointer, refs};

use crate::context::{Context, Resolution};

/// The JSON pointers of the used parts of one definition.
#[derive(Debug, Default)]
pub(crate) struct UsedParts {
    /// Nodes used whole, with everything beneath them.
    used: HashSet<String>,
    /// The nodes that hold a used node without being used whole (a path item one of whose
    /// operations an entry calls, `/components/schemas`): a finding there is about what is
    /// used too.
    holding: HashSet<String>,
}

impl UsedParts {
    /// The used parts of the definition `ctx` views, from the operations its entries call.
    pub fn of(ctx: &Context<'_>) -> UsedParts {
        let mut walk = Walk {
            root: ctx.doc.root(),
            parts: UsedParts::default(),
            pending: Vec::new(),
        };
        walk.top_level();
        walk.operations(ctx);
        walk.follow_references();
        walk.parts
    }

    /// Whether a finding at `pointer` is in scope: outside `paths` and `components`, at a
    /// node that holds a used one, or at or beneath a used node.
    pub fn holds(&self, pointer: &str) -> bool {
        !in_a_part(pointer) || self.holding.contains(pointer) || self.covers(pointer)
    }

    /// Whether `pointer` is a used node or lies beneath one.
    fn covers(&self, pointer: &str) -> bool {
        ancestors(pointer)
            .chain(std::iter::once(pointer))
            .any(|p| self.used.contains(p))
    }
}

/// Whether `pointer` lies in a part that may go unused: under `/paths/<path>` or under
/// `/components/<kind>/<name>`.
fn in_a_part(pointer: &str) -> bool {
    let mut tokens = pointer.split('/').skip(1);
    match tokens.next() {
        Some("paths") => tokens.next().is_some(),
        Some("components") => tokens.nth(1).is_some(),
        _ => false,
    }
}

/// The strict ancestors of `pointer`, the root left out (`/a/b/c`: `/a`, `/a/b`).
fn ancestors(pointer: &str) -> impl Iterator<Item = &str> {
    pointer
        .match_indices('/')
        .map(|(i, _)| &pointer[..i])
        .filter(|p| !p.is_empty())
}

/// The walk: nodes marked used, and those whose references are still to be followed.
struct Walk<'a> {
    root: Node<'a>,
    parts: UsedParts,
    pending: Vec<Node<'a>>,
}

impl<'a> Walk<'a> {
    /// The top level outside `paths` and `components` is used whole: it is not a part that
    /// can go unused, but its `$ref`s (an `x-syncdef-root`) and its `security` reach into
    /// `components`. The document's `security` names the schemes of every operation without
    /// its own, and the schemes an OAuth2 login reads.
    fn top_level(&mut self) {
        let Some(members) = self.root.as_object() else {
            return;
        };
        for member in members {
            if !matches!(member.key.name, "paths" | "components") {
                self.pending.push(member.value);
            }
        }
        self.security_schemes(self.root.get("security"));
    }

    /// Each operation an entry references, as the engine resolves it, with the members of its
    /// path item that are not operations (`parameters`, `servers`) and its `security`.
    fn operations(&mut self, ctx: &Context<'a>) {
        for site in ctx.entries.iter().flat_map(|e| &e.operations) {
            let (
                Some(Resolution::Found {
                    path, operation, ..
                }),
                Ok(reference),
            ) = (ctx.resolve(site), site.parsed)
            else {
                continue;
            };
            let mut item_pointer = String::from("/paths");
            pointer::push(&mut item_pointer, path.template);
            let mut operation_pointer = item_pointer.clone();
            pointer::push(&mut operation_pointer, reference.method.as_str());
            self.use_node(operation_pointer, operation);
            self.security_schemes(operation.get("security"));
            for member in path.item.as_object().unwrap_or_default() {
                if !is_method(member.key.name) {
                    let mut at = item_pointer.clone();
                    pointer::push(&mut at, member.key.name);
                    self.use_node(at, member.value);
                }
            }
        }
    }

    /// The schemes a list of security requirements names (`[{oauth: [scope]}]`).
    fn security_schemes(&mut self, requirements: Option<Node<'a>>) {
        let Some(schemes) = self.root.pointer("/components/securitySchemes") else {
            return;
        };
        let requirements = requirements.and_then(Node::as_array).unwrap_or_default();
        for requirement in requirements {
            for named in requirement.as_object().unwrap_or_default() {
                if let Some(scheme) = schemes.get(named.key.name) {
                    let at = pointer::join(["components", "securitySchemes", named.key.name]);
                    self.use_node(at, scheme);
                }
            }
        }
    }

    /// Marks the node at `at` used, unless a node above it already is, and queues it for its
    /// references.
    fn use_node(&mut self, at: String, node: Node<'a>) {
        if self.parts.covers(&at) {
            return;
        }
        for holder in ancestors(&at) {
            if !self.parts.holding.contains(holder) {
                self.parts.holding.insert(holder.to_owned());
            }
        }
        self.parts.used.insert(at);
        self.pending.push(node);
    }

    /// Follows the references of every queued node, and of what they reach, each target once.
    fn follow_references(&mut self) {
        let mut targets = Vec::new();
        while let Some(node) = self.pending.pop() {
            references(node, &mut targets);
            for target in targets.drain(..) {
                if let Some(node) = self.root.pointer(&target) {
                    self.use_node(target, node);
                }
            }
        }
    }
}

/// Whether a path item member is an operation.
fn is_method(key: &str) -> bool {
    HttpMethod::ALL.iter().any(|m| m.as_str() == key)
}

/// The pointers of the local references beneath `node`: `$ref`s, and the schemas a
/// `discriminator`'s `mapping` names (by reference, or by name under `components.schemas`).
fn references(node: Node<'_>, out: &mut Vec<String>) {
    match &node.kind {
        NodeKind::Object(members) => {
            for member in members {
                match member.key.name {
                    "$ref" => out.extend(member.value.as_str().and_then(refs::local_pointer)),
                    "discriminator" => mapped_schemas(member.value, out),
                    _ => {}
                }
                references(member.value, out);
            }
        }
        NodeKind::Array(items) => items.iter().for_each(|item| references(item, out)),
        _ => {}
    }
}

/// The schemas a `discriminator`'s `mapping` names: a value is a reference, or a schema's
/// name under `components.schemas`.
fn mapped_schemas(discriminator: Node<'_>, out: &mut Vec<String>) {
    let mapping = discriminator.get("mapping").and_then(Node::as_object);
    for value in mapping.unwrap_or_default() {
        match value.value.as_str() {
            Some(reference) if reference.starts_with('#') => {
                out.extend(refs::local_pointer(reference));
            }
            Some(name) => out.push(pointer::join(["components", "schemas", name])),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_paths_and_named_components() {
        assert!(in_a_part("/paths/~1customer"));
        assert!(in_a_part("/paths/~1customer/post/responses"));
        assert!(in_a_part("/components/schemas/Address"));
        assert!(in_a_part("/components/schemas/Address/required"));
        assert!(!in_a_part("/paths"));
        assert!(!in_a_part("/components"));
        assert!(!in_a_part("/components/schemas"));
        assert!(!in_a_part("/synchronization/Customer/push/create"));
        assert!(!in_a_part("/info/title"));
        assert!(!in_a_part(""));
    }

    #[test]
    fn ancestors_go_by_whole_tokens() {
        let found: Vec<&str> = ancestors("/components/schemas/A~1b/required").collect();
        assert_eq!(
            found,
            [
                "/components",
                "/components/schemas",
                "/components/schemas/A~1b"
            ]
        );
        assert_eq!(ancestors("/info").count(), 0);
    }
}
