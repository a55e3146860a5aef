//! Templates as the rules see them: their tree (inline, or parsed from a JSON string), where
//! each of their characters is in the file, and every JSONPath they read.

use std::ops::Range;
use std::sync::Arc;

use syncdef_definitions::load::load_as;
use syncdef_definitions::model::{TemplateBody, TemplateSource, Text};
use syncdef_definitions::{Format, LoadOptions, Node, SourceFile, Span};
use syncdef_transform::{Location, NodePart};
use syncdef_transform::{PathContext, Settings, Template as TransformTemplate};

/// A template's tree and how to locate its characters in the file.
pub(crate) enum Tree<'a> {
    /// Written as YAML/JSON inside the document: spans are file spans already.
    Inline(&'a syncdef_definitions::Tree),
    /// A string holding JSON text: spans are offsets into the string's value.
    Parsed {
        root: syncdef_definitions::Tree,
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
    /// The member under `member` (`IntegrationId` in `$.related.Account.IntegrationId`), with
    /// its place in the file.
    pub field: Option<(String, Span)>,
    /// The path as written (`$.account.addresses[0].city`).
    pub path: String,
}

/// A template of an entry, analysed once for every rule.
pub(crate) struct Template<'a> {
    pub source: &'a TemplateSource,
    pub tree: Option<Tree<'a>>,
    /// Why the template does not compile (every error, in template order).
    pub errors: Vec<TemplateError>,
    pub reads: Vec<PathRead>,
    /// The compiled template, when it compiles (the type-checking rules walk its reads with
    /// their contexts and render it over sample records).
    pub compiled: Option<TransformTemplate>,
}

impl<'a> Template<'a> {
    pub fn analyse(source: &'a TemplateSource, file_text: &str) -> Template<'a> {
        let mut template = Template {
            source,
            tree: None,
            errors: Vec::new(),
            reads: Vec::new(),
            compiled: None,
        };
        match &source.body {
            TemplateBody::Node(node) => template.tree = Some(Tree::Inline(node)),
            TemplateBody::JsonText(text) => {
                let inner = Arc::new(SourceFile::new(
                    source.name.value.clone(),
                    text.value.clone(),
                ));
                // A key of the text is part of the body, `x-syncdef-ignore` included.
                let data = LoadOptions {
                    take_ignores: false,
                    ..LoadOptions::default()
                };
                match load_as(Arc::clone(&inner), Format::Json, &data) {
                    Ok(doc) => {
                        template.tree = Some(Tree::Parsed {
                            root: doc.tree,
                            inner,
                            outer: text,
                        });
                    }
                    Err(e) => {
                        let range = e.span.map_or(0..text.value.len(), Span::range);
                        template.errors.push(TemplateError {
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
            let (errors, reads, compiled) = analyse_tree(tree, file_text);
            template.errors.extend(errors);
            template.reads = reads;
            template.compiled = compiled;
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
    pub fn root(&self) -> Node<'_> {
        match self {
            Tree::Inline(tree) => tree.root(),
            Tree::Parsed { root, .. } => root.root(),
        }
    }

    /// The file span of a node of this tree.
    pub fn node_span(&self, file_text: &str, span: Span) -> Span {
        match self {
            Tree::Inline(_) => span,
            Tree::Parsed { outer, .. } => outer.span_of(file_text, span.range()),
        }
    }

    /// The file span of `range` inside the key or string value a template-language location
    /// names (its pointer is relative to the template root).
    #[expect(
        clippy::cast_possible_truncation,
        reason = "offsets into the definition's text, which the loader refuses past 4 GiB, so they fit the `u32` of spans"
    )]
    pub fn locate(&self, file_text: &str, location: &Location, range: Range<usize>) -> Span {
        let root = self.root();
        match location.part {
            NodePart::Value => match root.pointer(&location.pointer) {
                Some(node) => self.span_in(file_text, &node, range),
                None => self.node_span(file_text, root.span),
            },
            NodePart::Key => match root.pointer_key_span(&location.pointer) {
                Some(key) => {
                    let text = match self {
                        Tree::Inline(_) => file_text,
                        Tree::Parsed { inner, .. } => inner.text(),
                    };
                    // Keys of templates are names without escapes; skip an opening quote.
                    let quote =
                        matches!(text.as_bytes().get(key.start as usize), Some(b'"' | b'\''));
                    let start = key.start as usize + usize::from(quote);
                    let inner = Span::new(
                        (start + range.start) as u32,
                        (start + range.end).min(key.end as usize) as u32,
                    );
                    self.node_span(file_text, inner)
                }
                None => self.node_span(file_text, root.span),
            },
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

/// Compiles the template with the template language and collects its errors and the
/// JSONPaths it reads from the record, all located in the file.
fn analyse_tree(
    tree: &Tree<'_>,
    file_text: &str,
) -> (Vec<TemplateError>, Vec<PathRead>, Option<TransformTemplate>) {
    let compiled = match TransformTemplate::compile(tree.root().to_json(), &Settings::default()) {
        Ok(compiled) => compiled,
        Err(errors) => {
            let errors = errors
                .errors()
                .iter()
                .map(|e| TemplateError {
                    span: tree.locate(file_text, &e.location, e.location.range.clone()),
                    message: e.message.clone(),
                    help: e.help.clone(),
                })
                .collect();
            return (errors, Vec::new(), None);
        }
    };
    let mut reads = Vec::new();
    for use_ in compiled.paths() {
        // Paths relative to a loop item, a scope or the output are not record reads.
        if use_.context != PathContext::Root {
            continue;
        }
        let base = use_.location.range.start;
        let mut chain = use_.path.member_chain();
        let Some((root, root_range)) = chain.next() else {
            continue;
        };
        let member = chain.next();
        let field = chain.next();
        // A step's range covers its syntax (`.name`, `['name']`); point at the name itself.
        let path_text = use_.path.text();
        let at = |name: &str, r: &Range<usize>| {
            let offset = path_text
                .get(r.clone())
                .and_then(|t| t.find(name))
                .unwrap_or(0);
            let start = base + r.start + offset;
            tree.locate(file_text, &use_.location, start..start + name.len())
        };
        reads.push(PathRead {
            root: root.to_owned(),
            member: member.map(|(m, _)| m.to_owned()),
            span: tree.locate(file_text, &use_.location, use_.location.range.clone()),
            root_span: at(root, root_range),
            member_span: member.map(|(m, r)| at(m, r)),
            field: field.map(|(f, r)| (f.to_owned(), at(f, r))),
            path: path_text.to_owned(),
        });
    }
    (Vec::new(), reads, Some(compiled))
}
