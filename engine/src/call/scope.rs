//! What templates and placeholders can read during one push or pull; a push's grows as its
//! pre-actions run.

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

use syncdef_transform::Value;
use syncdef_transform::value::{Map, Shape};

use crate::request::Fill;
use crate::servers::Server;

/// What templates and placeholders can read, growing as pre-actions run.
pub(crate) struct Scope<'a> {
    pub external_id: Option<String>,
    pub related: BTreeMap<String, String>,
    pub server: &'a Arc<Server>,
    /// Values read by `in: Body` actions, in the order read, by schema name.
    pub body_values: Vec<(String, String)>,
    /// Headers set by `in: Header` actions, sent on the push request.
    pub headers: Vec<(String, String)>,
}

impl<'a> Scope<'a> {
    /// The scope of a request to `server` for the record known there as `external_id`, whose
    /// related records are known there by the ids `related` gives, by entry.
    pub fn new(
        server: &'a Arc<Server>,
        external_id: Option<String>,
        related: BTreeMap<String, String>,
    ) -> Scope<'a> {
        Scope {
            external_id,
            related,
            server,
            body_values: Vec::new(),
            headers: Vec::new(),
        }
    }

    pub fn fill(&self) -> Fill<'_> {
        Fill {
            external_id: self.external_id.as_deref(),
            related: &self.related,
            variables: &self.server.variables,
        }
    }

    /// The template input, of the entry's [`shape`](crate::plan::input_shape):
    /// `$.<root>` (the record), `$.serverVariables`, `$.externalId`,
    /// `$.syncToken` (the first value a Body pre-action read), `$.syncTokens` (all of them
    /// by schema name) and `$.related.<Entry>.IntegrationId` (the external id of each related
    /// record, as `{<Entry>.IntegrationId}` fills paths: from the record state, or from an
    /// `ApiSynchronization` pre-action that pushed it).
    /// An entry of lines has the line's parent record after the line (`$.invoice` after
    /// `$.invoiceItem`), as its shape says.
    pub fn input(&self, shape: &Shape, record: &Value, parent: Option<&Value>) -> Value {
        let keys = &*INPUT_KEYS;
        let text = |s: Option<&str>| s.map_or(Value::Null, Value::from);
        let tokens = if self.body_values.is_empty() {
            keys.no_members.clone()
        } else {
            let mut tokens = Map::with_capacity(self.body_values.len());
            for (k, v) in &self.body_values {
                tokens.insert(Arc::from(k.as_str()), Value::from(v.as_str()));
            }
            Value::object(tokens)
        };
        let related = if self.related.is_empty() {
            keys.no_members.clone()
        } else {
            let mut related = Map::with_capacity(self.related.len());
            for (entry, id) in &self.related {
                let mut ids = Map::with_capacity(1);
                ids.insert(keys.integration_id.clone(), Value::from(id.as_str()));
                related.insert(Arc::from(entry.as_str()), Value::object(ids));
            }
            Value::object(related)
        };
        let mut values = Vec::with_capacity(shape.keys().len());
        values.push(record.clone());
        values.extend(parent.cloned());
        values.extend([
            self.server.template_variables.clone(),
            text(self.external_id.as_deref()),
            text(self.body_values.first().map(|(_, v)| v.as_str())),
            tokens,
            related,
        ]);
        // The shape is the entry's, of as many keys.
        Value::object(Map::with_shape(shape, values).unwrap_or_default())
    }
}

/// The member names inside every template input, allocated once for all pushes.
struct InputKeys {
    integration_id: Arc<str>,
    /// `{}`, shared by the inputs that have no sync tokens or related records.
    no_members: Value,
}

static INPUT_KEYS: LazyLock<InputKeys> = LazyLock::new(|| InputKeys {
    integration_id: Arc::from("IntegrationId"),
    no_members: Value::object(Map::new()),
});
