//! What completion offers from a definition, taken out of it once per loaded version.
//!
//! Completion goes on while a line is half typed, when the text may not load: it offers what
//! the last text that loaded had. Keeping these few lists instead of that whole definition
//! lets the server let go of a large definition before it lints the next version, so that two
//! trees of a 13 MB description (and two copies of its text) are never held at once.

use syncdef_definitions::Definition;
use syncdef_definitions::operation_ref::HttpMethod;
use syncdef_definitions::platform::{self, RecordSchemas};

use crate::analysis;

/// One operation of `paths`: what an operation reference names.
#[derive(Debug)]
pub struct OperationName {
    /// The path template, as written under `paths`.
    pub path: String,
    /// The method.
    pub method: HttpMethod,
    /// Its `summary`, else its `operationId`.
    pub summary: Option<String>,
}

/// The names completion offers from one definition.
#[derive(Debug)]
pub struct Vocabulary {
    /// Every operation under `paths`, in document order.
    pub operations: Vec<OperationName>,
    /// The synchronization entries, in document order.
    pub entries: Vec<String>,
    /// The server variables.
    pub server_variables: Vec<String>,
    /// The platform record schemas templates read, with the definition's `x-syncdef-records`.
    pub record_schemas: RecordSchemas,
}

impl Vocabulary {
    /// What `def` offers.
    #[must_use]
    pub fn of(def: &Definition) -> Vocabulary {
        Vocabulary {
            operations: operations(def),
            entries: analysis::entry_names(def)
                .into_iter()
                .map(str::to_owned)
                .collect(),
            server_variables: def
                .server_variables()
                .into_iter()
                .map(str::to_owned)
                .collect(),
            record_schemas: analysis::record_schemas(Some(def)),
        }
    }

    /// What a document offers before any text of it loaded: the platform's record schemas.
    #[must_use]
    pub fn empty() -> Vocabulary {
        Vocabulary {
            operations: Vec::new(),
            entries: Vec::new(),
            server_variables: Vec::new(),
            record_schemas: platform::builtin().clone(),
        }
    }
}

fn operations(def: &Definition) -> Vec<OperationName> {
    let Some(paths) = def
        .root()
        .get("paths")
        .and_then(syncdef_definitions::Node::as_object)
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for path in paths {
        for method in HttpMethod::ALL {
            let Some(operation) = path.value.get(method.as_str()) else {
                continue;
            };
            let summary = operation
                .get("summary")
                .or_else(|| operation.get("operationId"))
                .and_then(syncdef_definitions::Node::as_str);
            found.push(OperationName {
                path: path.key.name.to_string(),
                method,
                summary: summary.map(str::to_owned),
            });
        }
    }
    found
}
