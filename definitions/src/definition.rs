//! A loaded synchronization definition: the document, its `synchronization` model, and every
//! structural problem found on the way. The OpenAPI part is read through the lean view of
//! [`crate::openapi`], which points into the tree.

use std::path::Path;
use std::sync::Arc;

use crate::ignore::{self, InlineIgnore};
use crate::load::{self, Document, LoadError, LoadOptions};
use crate::model::{self, LoadProblem, ProblemKind, Synchronization};
use crate::node::Node;
use crate::openapi::OpenApi;
use crate::operation_ref::OperationRef;
use crate::path_match::{PathIndex, Resolution};
use crate::source::SourceFile;
use crate::tree::Tree;
use crate::{refs, structure};

/// A synchronization definition, loaded and modelled.
///
/// Loading succeeds whenever the file is one valid YAML or JSON document; what is wrong inside
/// it is in [`Definition::problems`], so a linter reports every mistake at once.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The file.
    pub source: Arc<SourceFile>,
    /// The spanned tree of the whole document (read it from [`Definition::root`]).
    pub tree: Tree,
    /// The `synchronization` section, partial where it has problems.
    pub sync: Option<Synchronization>,
    /// Structural problems, in document order within each kind.
    pub problems: Vec<LoadProblem>,
    /// The `x-syncdef-ignore` members, taken out of the tree by the loader (see
    /// [`crate::ignore`]), in document order.
    pub ignores: Vec<InlineIgnore>,
}

impl Definition {
    /// Loads and models the file at `path`.
    ///
    /// # Errors
    /// A [`LoadError`] when the file cannot be read or is not one valid document.
    pub fn load_path(path: &Path) -> Result<Definition, LoadError> {
        let doc = load::load_path(path, &LoadOptions::default())?;
        Ok(Definition::from_document(doc))
    }

    /// Loads and models `source`.
    ///
    /// # Errors
    /// A [`LoadError`] when the text is not one valid document.
    pub fn load(source: SourceFile) -> Result<Definition, LoadError> {
        Ok(Definition::from_document(load::load(source)?))
    }

    /// Models an already loaded document.
    #[must_use]
    pub fn from_document(doc: Document) -> Definition {
        let ignores = ignore::taken(&doc);
        let Document {
            source,
            tree,
            problems: overlay_problems,
            ..
        } = doc;
        let root = tree.root();
        // The `$ref` walk is independent of the models: on a large document it runs beside
        // them.
        let (sync, mut problems, ref_problems) = std::thread::scope(|scope| {
            let refs = (root.span.len() >= 512 * 1024).then(|| scope.spawn(|| refs::check(&root)));
            let (sync, mut problems) = model::build_sync(&tree, root);
            if sync.is_none() && !problems.iter().any(|p| p.kind == ProblemKind::WrongType) {
                problems.push(
                    LoadProblem::new(ProblemKind::MissingSync, root.span, "", "the document has no `synchronization` section")
                        .help("add a top-level `synchronization:` mapping entity keys (Account, Invoice) to their push operations"),
                );
            }
            problems.extend(structure::check(&root, &model::SYNC_KEYS));
            let ref_problems = match refs {
                Some(handle) => handle.join().unwrap_or_default(),
                None => refs::check(&root),
            };
            (sync, problems, ref_problems)
        });
        problems.extend(ref_problems);
        problems.extend(overlay_problems);
        // Document order reads best, and is stable for snapshots.
        problems.sort_by_key(|p| (p.span.start, p.span.end));
        Definition {
            source,
            tree,
            sync,
            problems,
            ignores,
        }
    }

    /// The whole document.
    #[must_use]
    pub fn root(&self) -> Node<'_> {
        self.tree.root()
    }

    /// The OpenAPI part, read through its lean typed view.
    #[must_use]
    pub fn openapi(&self) -> OpenApi<'_> {
        OpenApi::new(self.root())
    }

    /// The document's `paths`, indexed for resolving operation references. Build it once to
    /// resolve many.
    #[must_use]
    pub fn paths(&self) -> PathIndex<'_> {
        PathIndex::new(self.root())
    }

    /// Resolves one operation reference against the document's `paths` (indexing them first:
    /// use [`Definition::paths`] to resolve many). Works on the spanned tree, so it answers
    /// even when the OpenAPI part could not be modelled.
    #[must_use]
    pub fn resolve(&self, reference: &OperationRef) -> Resolution<'_> {
        self.paths().resolve(reference)
    }

    /// Names declared in `servers[].variables` (available to templates as
    /// `$.serverVariables.<name>` and to references as `{name}`), in document order, without
    /// repeats.
    #[must_use]
    pub fn server_variables(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for server in self.openapi().servers() {
            for variable in server.variables {
                if !names.contains(&variable.name) {
                    names.push(variable.name);
                }
            }
        }
        names
    }

    /// `file:line:column` of a problem.
    #[must_use]
    pub fn describe(&self, problem: &LoadProblem) -> String {
        self.source.describe(problem.span)
    }
}
