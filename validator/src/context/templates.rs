//! Templates as the rules see them: their tree (inline, or parsed from a JSON string), where
//! each of their characters is in the file, and every JSONPath they read.

use std::ops::Range;
use std::sync::Arc;

use syncdef_definitions::load::load_as;
use syncdef_definitions::model::{TemplateBody, TemplateSource, Text};
use syncdef_definitions::{Format, LoadOptions, Node, NodeKind, SourceFile, Span};

/// A template's tree and how to locate its characters in the file.
pub(crate) enum Tree<'a> {
    /// Written as YAML/JSON inside the document: spans are file spans already.
    Inline(&'a Node),
    /// A string holding JSON text: spans are offsets into the string's value.
    Parsed {
        root: Node,
        inner: Arc<SourceFile>,
        outer: &'a Text,
    },
}

/// A template that could not be read as JSON, located in the file.
#[derive(Clone, Debug)]
pub(crate) struct TemplateError {
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
}

/// One `$.root.member...` read by a template.
#[derive(Clone, Debug)]
pub(crate) struct PathRead {
    /// The root member (`account` in `$.account.name`).
    pub root: String,
    /// The member under the root (`name`), if written with dot notation.
    pub member: Option<String>,
    /// The whole path in the file.
    pub span: Span,
    /// The root name in the file (after `$.`).
    pub root_span: Span,
    /// The member name in the file.
    pub member_span: Option<Span>,
}

/// A template of an entry, analysed once for every rule.
pub(crate) struct Template<'a> {
    pub source: &'a TemplateSource,
    pub tree: Option<Tree<'a>>,
    pub error: Option<TemplateError>,
    pub reads: Vec<PathRead>,
}

impl<'a> Template<'a> {
    pub fn analyse(source: &'a TemplateSource, file_text: &str) -> Template<'a> {
        let mut template = Template {
            source,
            tree: None,
            error: None,
            reads: Vec::new(),
        };
        match &source.body {
            TemplateBody::Node(node) => template.tree = Some(Tree::Inline(node)),
            TemplateBody::JsonText(text) => {
                let inner = Arc::new(SourceFile::new(source.name.value.clone(), text.value.clone()));
                match load_as(Arc::clone(&inner), Format::Json, &LoadOptions::default()) {
                    Ok(doc) => {
                        template.tree = Some(Tree::Parsed {
                            root: doc.root,
                            inner,
                            outer: text,
                        });
                    }
                    Err(e) => {
                        let range = e.span.map_or(0..text.value.len(), Span::range);
                        template.error = Some(TemplateError {
                            span: text.span_of(file_text, range),
                            message: format!("the template is not valid JSON: {}", e.message),
                            help: Some(e.help.unwrap_or_else(|| {
                                "a template written as a string must hold JSON text; or write it as an object".into()
                            })),
                        });
                    }
                }
            }
        }
        if let Some(tree) = &template.tree {
            let mut reads = Vec::new();
            visit_strings(tree.root(), &mut |node, value| {
                for (range, root, member) in scan_paths(value) {
                    let span = tree.span_in(file_text, node, range.clone());
                    let root_span = tree.span_in(file_text, node, root.1.clone());
                    let member_span = member.as_ref().map(|m| tree.span_in(file_text, node, m.1.clone()));
                    reads.push(PathRead {
                        root: root.0,
                        member: member.map(|m| m.0),
                        span,
                        root_span,
                        member_span,
                    });
                }
            });
            template.reads = reads;
        }
        template
    }

    /// The name (`createRequest`).
    pub fn name(&self) -> &'a str {
        &self.source.name.value
    }

    /// Whether the template reads `$.<root>`.
    pub fn reads_root(&self, root: &str) -> bool {
        self.reads.iter().any(|r| r.root == root)
    }
}

impl Tree<'_> {
    pub fn root(&self) -> &Node {
        match self {
            Tree::Inline(node) => node,
            Tree::Parsed { root, .. } => root,
        }
    }

    /// The file span of a node of this tree.
    pub fn node_span(&self, file_text: &str, span: Span) -> Span {
        match self {
            Tree::Inline(_) => span,
            Tree::Parsed { outer, .. } => outer.span_of(file_text, span.range()),
        }
    }

    /// The file span of `range` of the decoded value of string `node` of this tree.
    pub fn span_in(&self, file_text: &str, node: &Node, range: Range<usize>) -> Span {
        let Some(text) = Text::from_node(node) else {
            return self.node_span(file_text, node.span);
        };
        match self {
            Tree::Inline(_) => text.span_of(file_text, range),
            Tree::Parsed { inner, outer, .. } => {
                let in_inner = text.span_of(inner.text(), range);
                outer.span_of(file_text, in_inner.range())
            }
        }
    }
}

/// Calls `visit` on every string value of the tree (keys are names, not expressions).
fn visit_strings<'n>(node: &'n Node, visit: &mut dyn FnMut(&'n Node, &'n str)) {
    match &node.kind {
        NodeKind::String(s) => visit(node, &s.value),
        NodeKind::Array(items) => items.iter().for_each(|i| visit_strings(i, visit)),
        NodeKind::Object(members) => members.iter().for_each(|m| visit_strings(&m.value, visit)),
        _ => {}
    }
}

/// Functions whose JSONPath argument is relative to the current loop item, not the record.
const LOOP_RELATIVE: [&str; 3] = ["currentvalueatpath(", "lastvalueatpath(", "currentvalue("];

type Named = (String, Range<usize>);

/// Every `$.name...` (or `$['name']`) in a template string: its range, its root and the member
/// under the root. JSONPaths relative to a loop item are skipped.
fn scan_paths(value: &str) -> Vec<(Range<usize>, Named, Option<Named>)> {
    let bytes = value.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        let start = i;
        let before = value[..start].trim_end();
        if LOOP_RELATIVE.iter().any(|f| before.ends_with(f)) {
            i += 1;
            continue;
        }
        let Some((root, after_root)) = segment(value, start + 1) else {
            i += 1;
            continue;
        };
        let member = segment(value, after_root);
        let mut end = member.as_ref().map_or(after_root, |(_, e)| *e);
        // The rest of the path: further segments, indices and filters, up to a delimiter.
        let mut depth = 0i32;
        while end < bytes.len() {
            match bytes[end] {
                b'[' | b'(' => depth += 1,
                b']' if depth > 0 => depth -= 1,
                b')' if depth > 0 => depth -= 1,
                b',' | b')' | b' ' | b'"' if depth == 0 => break,
                _ => {}
            }
            end += 1;
        }
        out.push((start..end, root, member.map(|(n, _)| n)));
        i = end.max(start + 1);
    }
    out
}

/// A `.name` or `['name']` segment starting at `pos`: its name and range, and where it ends.
fn segment(value: &str, pos: usize) -> Option<(Named, usize)> {
    let rest = value.get(pos..)?;
    if let Some(name) = rest.strip_prefix('.') {
        let len = name
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '@' || c == '-'))
            .unwrap_or(name.len());
        (len > 0).then(|| ((name[..len].to_owned(), pos + 1..pos + 1 + len), pos + 1 + len))
    } else if let Some(quoted) = rest.strip_prefix("['") {
        let len = quoted.find("']")?;
        Some(((quoted[..len].to_owned(), pos + 2..pos + 2 + len), pos + 2 + len + 2))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_roots_and_members() {
        let found = scan_paths("#ifcondition(#valueof($.account.accountCurrency),,,#valueof($.serverVariables.realmId))");
        let roots: Vec<_> = found.iter().map(|(_, r, m)| (r.0.as_str(), m.as_ref().map(|m| m.0.as_str()))).collect();
        assert_eq!(roots, [("account", Some("accountCurrency")), ("serverVariables", Some("realmId"))]);
        let (range, _, _) = &found[0];
        assert_eq!(&"#ifcondition(#valueof($.account.accountCurrency),,,"[range.clone()], "$.account.accountCurrency");
    }

    #[test]
    fn filters_and_loop_relative_paths() {
        let found = scan_paths("#valueof($.account.addresses[?(@.isBilling==true)].city)");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, 9..55);
        assert!(scan_paths("#currentvalueatpath($.amount)").is_empty());
        assert_eq!(scan_paths("#valueof($['invoice'])")[0].1.0, "invoice");
    }
}
