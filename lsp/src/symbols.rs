//! Document symbols: the synchronization entries with their operations, actions and
//! templates, and the paths of the OpenAPI part with their operations.

use lsp_types::{DocumentSymbol, SymbolKind};
use syncdef_definitions::operation_ref::HttpMethod;
use syncdef_definitions::{Definition, Span};

use crate::analysis;
use crate::document::Document;
use crate::locate;

/// The outline of `doc` (empty while its text does not load).
#[must_use]
pub fn symbols(doc: &Document) -> Vec<DocumentSymbol> {
    let Some(def) = analysis::current(doc) else {
        return Vec::new();
    };
    let to = Symbols { doc, def: &def };
    let mut out = Vec::new();
    if let Some(sync) = &def.sync {
        let entries = sync.entries.iter().map(|e| to.entry(e)).collect();
        out.push(to.symbol(
            &sync.key.value,
            None,
            SymbolKind::NAMESPACE,
            sync.key.span,
            sync.span,
            entries,
        ));
    }
    if let Some(paths) = to.paths() {
        out.push(paths);
    }
    out
}

struct Symbols<'a> {
    doc: &'a Document,
    def: &'a Definition,
}

impl Symbols<'_> {
    fn entry(&self, entry: &syncdef_definitions::model::SyncEntry) -> DocumentSymbol {
        let mut children: Vec<DocumentSymbol> = locate::operation_fields(entry)
            .map(|field| {
                let whole = field.name.span.cover(field.text.span);
                self.symbol(
                    &field.name.value,
                    Some(&field.text.value),
                    SymbolKind::METHOD,
                    field.name.span,
                    whole,
                    Vec::new(),
                )
            })
            .collect();
        for action in locate::actions(entry) {
            let detail = action.path.as_ref().map(|p| p.value.as_str());
            let whole = action.name.span.cover(action.span);
            children.push(self.symbol(
                &action.name.value,
                detail,
                SymbolKind::EVENT,
                action.name.span,
                whole,
                Vec::new(),
            ));
        }
        for template in locate::commons(entry).flat_map(|c| c.templates.iter()) {
            let body = match &template.body {
                syncdef_definitions::model::TemplateBody::Node(tree) => tree.root().span,
                syncdef_definitions::model::TemplateBody::JsonText(text) => text.span,
            };
            let whole = template.name.span.cover(body);
            children.push(self.symbol(
                &template.name.value,
                Some("template"),
                SymbolKind::FUNCTION,
                template.name.span,
                whole,
                Vec::new(),
            ));
        }
        let module = entry.module.as_ref().map(|m| m.value.as_str());
        let whole = entry.key.span.cover(entry.span);
        self.symbol(
            &entry.key.value,
            module,
            SymbolKind::CLASS,
            entry.key.span,
            whole,
            children,
        )
    }

    fn paths(&self) -> Option<DocumentSymbol> {
        let member = self.def.root().member("paths")?;
        let paths = member.value.as_object()?;
        let children = paths
            .iter()
            .map(|path| {
                let operations = HttpMethod::ALL
                    .into_iter()
                    .filter_map(|method| path.value.member(method.as_str()))
                    .map(|op| {
                        let summary = op
                            .value
                            .get("summary")
                            .and_then(syncdef_definitions::Node::as_str);
                        let whole = op.key.span.cover(op.value.span);
                        self.symbol(
                            op.key.name,
                            summary,
                            SymbolKind::METHOD,
                            op.key.span,
                            whole,
                            Vec::new(),
                        )
                    })
                    .collect();
                let whole = path.key.span.cover(path.value.span);
                self.symbol(
                    path.key.name,
                    None,
                    SymbolKind::OBJECT,
                    path.key.span,
                    whole,
                    operations,
                )
            })
            .collect();
        let whole = member.key.span.cover(member.value.span);
        Some(self.symbol(
            "paths",
            None,
            SymbolKind::NAMESPACE,
            member.key.span,
            whole,
            children,
        ))
    }

    /// A symbol whose `selection` (its name) lies inside `whole`, as LSP requires.
    fn symbol(
        &self,
        name: &str,
        detail: Option<&str>,
        kind: SymbolKind,
        selection: Span,
        whole: Span,
        children: Vec<DocumentSymbol>,
    ) -> DocumentSymbol {
        let text = self.doc.text();
        let lines = self.doc.lines();
        let whole = whole.cover(selection);
        #[expect(
            deprecated,
            reason = "`deprecated` is a required field of the type, superseded by tags"
        )]
        DocumentSymbol {
            name: if name.is_empty() {
                "\"\"".to_owned()
            } else {
                name.to_owned()
            },
            detail: detail.map(str::to_owned),
            kind,
            tags: None,
            deprecated: None,
            range: lines.range(text, whole.start as usize, whole.end as usize),
            selection_range: lines.range(text, selection.start as usize, selection.end as usize),
            children: (!children.is_empty()).then_some(children),
        }
    }
}
