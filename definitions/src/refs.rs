//! Local `$ref` resolution: broken and circular references, located.
//!
//! Only references inside the document (`#/components/...`) are followed. A schema may refer
//! to itself through its properties (a tree of categories): that is legitimate recursion and
//! is not reported. What cannot work is a chain of bare references that returns to its start
//! (`A: {$ref: B}`, `B: {$ref: A}`): nothing ever supplies the content, and a tool that inlines
//! references loops forever.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::model::{LoadProblem, ProblemKind};
use crate::node::{Node, NodeIdentity, NodeKind};
use crate::pointer;
use crate::source::Span;

/// A `$ref` found in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefSite {
    /// The reference as written (`#/components/schemas/Customer`).
    pub target: String,
    /// The `$ref` value's span.
    pub span: Span,
    /// JSON pointer of the object holding the `$ref`.
    pub pointer: String,
}

/// Every `$ref` of the document, in document order.
#[must_use]
pub fn ref_sites(root: &Node) -> Vec<RefSite> {
    let mut sites = Vec::new();
    collect_sites(*root, &mut sites);
    let pointers = pointers_of(root, sites.iter().map(|site| site.holder));
    sites.iter().map(|site| site.located(&pointers)).collect()
}

/// The node a local reference (`#/...`) points at, following chains of bare references.
/// `None` when the reference is not local, broken or circular.
#[must_use]
pub fn resolve<'a>(root: Node<'a>, reference: &str) -> Option<Node<'a>> {
    let mut node = target(root, reference)?;
    // Chains are short in real documents: a list beats hashing, and nothing is copied.
    let mut seen: Vec<&'a str> = Vec::new();
    while let Some(next) = bare_ref(&node) {
        if seen.contains(&next) {
            return None;
        }
        seen.push(next);
        node = target(root, next)?;
    }
    Some(node)
}

/// A `$ref` found by [`check`]: where it is, without its pointer, which is written out only
/// for the references found wrong (building one for every node was a tenth of linting a large
/// description).
struct Site<'a> {
    target: &'a str,
    span: Span,
    /// The object holding the `$ref`.
    holder: Node<'a>,
}

impl Site<'_> {
    /// The site with its pointer, taken from `pointers` (by the holder's identity).
    fn located(&self, pointers: &HashMap<NodeIdentity, String>) -> RefSite {
        RefSite {
            target: self.target.to_owned(),
            span: self.span,
            pointer: pointers
                .get(&self.holder.identity())
                .cloned()
                .unwrap_or_default(),
        }
    }
}

/// What is wrong with one reference.
enum Finding<'a> {
    External,
    Broken,
    Circular(Vec<&'a str>),
}

/// Checks every reference; returns the broken, circular and external ones.
#[must_use]
pub fn check(root: &Node) -> Vec<LoadProblem> {
    let mut sites = Vec::new();
    collect_sites(*root, &mut sites);
    // Large documents repeat the same few targets thousands of times; look each up once.
    let mut targets: HashMap<&str, Option<Node<'_>>> = HashMap::new();
    let mut findings: Vec<(&Site<'_>, Finding<'_>)> = Vec::new();
    let mut chains = Chains::default();
    for site in &sites {
        if !site.target.starts_with('#') {
            findings.push((site, Finding::External));
            continue;
        }
        let node = *targets
            .entry(site.target)
            .or_insert_with(|| target(*root, site.target));
        let Some(node) = node else {
            findings.push((site, Finding::Broken));
            continue;
        };
        // Only a target that is itself a bare reference can start a cycle; each reference is
        // followed once over the whole document (a chain of thousands stays linear).
        if bare_ref(&node).is_none() {
            continue;
        }
        if let Some(cycle) = chains.cycle_from(*root, &mut targets, site.target) {
            findings.push((site, Finding::Circular(cycle)));
        }
    }
    if findings.is_empty() {
        return Vec::new();
    }
    let pointers = pointers_of(root, findings.iter().map(|(site, _)| site.holder));
    findings
        .into_iter()
        .map(|(site, finding)| {
            let site = site.located(&pointers);
            match finding {
                Finding::External => external(&site),
                Finding::Broken => broken(root, &site),
                Finding::Circular(cycle) => circular(root, &site, &cycle),
            }
        })
        .collect()
}

fn collect_sites<'a>(node: Node<'a>, out: &mut Vec<Site<'a>>) {
    match &node.kind {
        NodeKind::Object(members) => {
            // One pass over the members finds the reference and walks on (a lookup first
            // would scan them twice).
            for member in members {
                if member.key.name == "$ref"
                    && let Some(target) = member.value.as_str()
                {
                    out.push(Site {
                        target,
                        span: member.value.span,
                        holder: node,
                    });
                }
                collect_sites(member.value, out);
            }
        }
        NodeKind::Array(items) => items.iter().for_each(|item| collect_sites(item, out)),
        _ => {}
    }
}

/// The JSON pointers of `holders`, found in one walk of the tree.
fn pointers_of<'a>(
    root: &Node,
    holders: impl Iterator<Item = Node<'a>>,
) -> HashMap<NodeIdentity, String> {
    let wanted: HashSet<NodeIdentity> = holders.map(Node::identity).collect();
    let mut found = HashMap::new();
    root.walk(&mut |ptr, node| {
        let at = node.identity();
        if wanted.contains(&at) {
            found.insert(at, ptr.to_owned());
        }
    });
    found
}

fn external(site: &RefSite) -> LoadProblem {
    LoadProblem::new(ProblemKind::ExternalRef, site.span, &site.pointer, format!("`{}` refers to another document, which could not be read", site.target))
        .help("a relative path is read from the directory of the file holding the `$ref` (URLs are not fetched): fix the path, or move the definition into `components` of this file and refer to it as `#/components/...`")
}

fn circular(root: &Node, site: &RefSite, cycle: &[&str]) -> LoadProblem {
    let mut chain: Vec<&str> = cycle.to_vec();
    // Shown as a loop: the chain ends where it starts.
    chain.extend(cycle.first());
    let mut p = LoadProblem::new(
        ProblemKind::CircularRef,
        site.span,
        &site.pointer,
        format!(
            "circular `$ref`: {} never reaches a definition",
            chain.join(" -> ")
        ),
    )
    .help("one object of the chain must hold the definition itself instead of another `$ref`");
    for member in cycle {
        if let Some(r) = target(*root, member).and_then(|n| n.get("$ref"))
            && r.span != site.span
        {
            let next = r.as_str().unwrap_or_default();
            p.related
                .push((r.span, format!("`{member}` refers to `{next}`")));
        }
    }
    p
}

/// The JSON pointer a local reference (`#/...`) names, written as diagnostics write theirs:
/// `%XX` escapes of the URI fragment decoded, each token escaped once (`#/paths/~1a%7Bid%7D`
/// is `/paths/~1a{id}`). `None` when the reference is not local.
#[must_use]
pub fn local_pointer(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let decoded = percent_decode(fragment);
    let mut out = String::with_capacity(decoded.len());
    for token in pointer::tokens(&decoded)? {
        pointer::push(&mut out, &token);
    }
    Some(out)
}

/// The node at a `#/...` reference, decoding `%XX` escapes of the URI fragment first.
fn target<'a>(root: Node<'a>, reference: &str) -> Option<Node<'a>> {
    let fragment = reference.strip_prefix('#')?;
    root.pointer(&percent_decode(fragment))
}

/// The `$ref` of an object that is only a reference (siblings are ignored in OpenAPI 3.0).
fn bare_ref<'a>(node: &Node<'a>) -> Option<&'a str> {
    match &node.kind {
        NodeKind::Object(_) => node.get("$ref")?.as_str(),
        _ => None,
    }
}

/// Chains of bare references, each reference followed once: a reference reached again (from
/// another site, or from a longer chain) is known to end somewhere or to be part of a cycle
/// already reported.
#[derive(Default)]
struct Chains<'a> {
    followed: HashSet<&'a str>,
}

impl<'a> Chains<'a> {
    /// Follows bare references from `start`: the references of a loop it enters that no earlier
    /// walk met, `None` when it ends, breaks, or joins a walk already made.
    fn cycle_from(
        &mut self,
        root: Node<'a>,
        targets: &mut HashMap<&'a str, Option<Node<'a>>>,
        start: &'a str,
    ) -> Option<Vec<&'a str>> {
        let mut path: Vec<&'a str> = Vec::new();
        let mut on_path: HashMap<&'a str, usize> = HashMap::new();
        let mut current = start;
        loop {
            if !self.followed.insert(current) {
                // Met before: by this walk (a new cycle) or an earlier one (nothing new).
                return on_path.get(current).map(|&at| path.split_off(at));
            }
            on_path.insert(current, path.len());
            path.push(current);
            let node = (*targets
                .entry(current)
                .or_insert_with(|| target(root, current)))?;
            current = bare_ref(&node)?;
        }
    }
}

fn broken(root: &Node, site: &RefSite) -> LoadProblem {
    let fragment = site.target.trim_start_matches('#');
    let decoded = percent_decode(fragment);
    // Find the deepest existing parent to suggest its closest key.
    let mut help =
        "point the `$ref` at an existing definition, e.g. `#/components/schemas/Name`".to_owned();
    if let Some((parent, last)) = pointer::split_last(&decoded) {
        if let Some(NodeKind::Object(members)) = root.pointer(parent).map(|n| n.kind) {
            let last = pointer::unescape(last);
            let best = members
                .iter()
                .map(|m| (strsim::jaro_winkler(m.key.name, &last), m.key.name))
                .filter(|(score, _)| *score > 0.8)
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((_, name)) = best {
                help = format!("did you mean `#{parent}/{}`?", pointer::escape(name));
            }
        } else if root.pointer(parent).is_none() {
            help = format!("`#{parent}` does not exist either; {help}");
        }
    }
    LoadProblem::new(
        ProblemKind::BrokenRef,
        site.span,
        &site.pointer,
        format!("`{}` points at nothing", site.target),
    )
    .help(help)
}

fn percent_decode(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_pointer_is_written_as_diagnostics_write_theirs() {
        assert_eq!(
            local_pointer("#/components/schemas/Customer").as_deref(),
            Some("/components/schemas/Customer")
        );
        assert_eq!(
            local_pointer("#/paths/~1a%7Bid%7D/get").as_deref(),
            Some("/paths/~1a{id}/get")
        );
        assert_eq!(local_pointer("#").as_deref(), Some(""));
        assert_eq!(local_pointer("other.yaml#/components/schemas/A"), None);
        assert_eq!(local_pointer("#components"), None);
    }
}
