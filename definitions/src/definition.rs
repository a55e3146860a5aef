//! A loaded synchronization definition: the document, its OpenAPI model, its
//! `synchronization` model, and every structural problem found on the way.

use std::path::Path;
use std::sync::Arc;

use crate::ignore::{self, InlineIgnore};
use crate::load::{self, Document, LoadError, LoadOptions};
use crate::model::{self, LoadProblem, ProblemKind, Synchronization};
use crate::node::Node;
use crate::operation_ref::OperationRef;
use crate::path_match::{PathIndex, Resolution};
use crate::source::SourceFile;
use crate::{openapi, openapi_error, refs, structure};

/// A synchronization definition, loaded and modelled.
///
/// Loading succeeds whenever the file is one valid YAML or JSON document; what is wrong inside
/// it is in [`Definition::problems`], so a linter reports every mistake at once.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The file.
    pub source: Arc<SourceFile>,
    /// The spanned tree of the whole document.
    pub root: Node,
    /// The OpenAPI part, when it deserializes (otherwise a [`ProblemKind::OpenApi`] problem
    /// says where it does not).
    pub openapi: Option<openapiv3::OpenAPI>,
    /// The `synchronization` section, partial where it has problems.
    pub sync: Option<Synchronization>,
    /// Structural problems, in document order within each kind.
    pub problems: Vec<LoadProblem>,
    /// The `x-syncdef-ignore` members, taken out of [`Definition::root`] (see
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
        let Document {
            source, mut root, ..
        } = doc;
        // Before anything reads the tree: the key is the linter's, no model's.
        let ignores = ignore::take(&mut root);
        // The `$ref` walk is independent of the models: on a large document it runs beside
        // them.
        let (openapi, sync, mut problems, ref_problems) = std::thread::scope(|scope| {
            let refs = (root.span.len() >= 512 * 1024).then(|| scope.spawn(|| refs::check(&root)));
            let (sync, mut problems) = model::build_sync(&root);
            if sync.is_none() && !problems.iter().any(|p| p.kind == ProblemKind::WrongType) {
                problems.push(
                    LoadProblem::new(ProblemKind::MissingSync, root.span, "", "the document has no `synchronization` section")
                        .help("add a top-level `synchronization:` mapping entity keys (Account, Invoice) to their push operations"),
                );
            }
            // Every structural problem at its node; the typed model's first error only when the
            // structure check found nothing (a document the model cannot read otherwise).
            let structure = structure::check(&root, &model::SYNC_KEYS);
            let openapi = match openapi::from_root(&root, &model::SYNC_KEYS) {
                Ok(api) => Some(api),
                Err(err) => {
                    if structure.is_empty() {
                        problems.push(model_problem(&root, &err));
                    }
                    None
                }
            };
            problems.extend(structure);
            let ref_problems = match refs {
                Some(handle) => handle.join().unwrap_or_default(),
                None => refs::check(&root),
            };
            (openapi, sync, problems, ref_problems)
        });
        problems.extend(ref_problems);
        // Document order reads best, and is stable for snapshots.
        problems.sort_by_key(|p| (p.span.start, p.span.end));
        Definition {
            source,
            root,
            openapi,
            sync,
            problems,
            ignores,
        }
    }

    /// The document's `paths`, indexed for resolving operation references. Build it once to
    /// resolve many.
    #[must_use]
    pub fn paths(&self) -> PathIndex<'_> {
        PathIndex::new(&self.root)
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
        for server in self.openapi.iter().flat_map(|api| &api.servers) {
            for name in server.variables.iter().flat_map(|v| v.keys()) {
                if !names.contains(&name.as_str()) {
                    names.push(name);
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

/// The typed model's error, for a document whose structure is sound: a 3.1 document that uses
/// what 3.0 lacks is valid OpenAPI, which the push engine's 3.0 model cannot read.
fn model_problem(root: &Node, err: &crate::de::DeError) -> LoadProblem {
    let mut problem = openapi_error::problem(root, err);
    if root
        .get("openapi")
        .and_then(Node::as_str)
        .is_some_and(|v| v.starts_with("3.1"))
    {
        problem.message = format!(
            "the push engine reads the OpenAPI 3.0 subset of this 3.1 document, and this is outside it: {}",
            err.message
        );
        problem.help = Some(
            "write it the 3.0 way (one `type` with `nullable: true`, boolean `exclusiveMinimum`) where the push reads it".into(),
        );
    }
    problem
}
