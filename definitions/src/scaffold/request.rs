//! The request template of a starting definition: every property the body schema requires,
//! recursively, read from the platform record field it stands for or left as a constant of its
//! type; and the optional properties that stand for a record field, each under an `#ifgroup`
//! that leaves it out when the record has no value, as the catalog's definitions write them.
//! Address fields are read from the record's billing address; an update's body says which
//! record it changes and sends the concurrency token a pre-action read.

use serde_json::{Map, Value as Json, json};

use super::Left;
use super::address::BillingAddress;
use super::constant::constant;
use super::merged::Merged;
use super::record_field::RecordFields;
use crate::node::NodeIdentity;
use crate::openapi::Schema;
use crate::pointer;

/// Objects nested deeper than this are written empty: a schema that contains itself ends.
const MAX_DEPTH: usize = 12;

/// The depth of the body's own properties, the only optional objects looked into.
const WRAPPER_DEPTH: usize = 1;

/// The most items a required array gets (its `minItems`, up to this).
const MAX_ITEMS: u64 = 3;

/// What the template feeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Feeds {
    /// A create.
    Create,
    /// An update; `names_record` when its reference carries `{IntegrationId}`, otherwise the
    /// body's `id` says which record to change.
    Update { names_record: bool },
}

/// Writes one request template.
pub(super) struct RequestWriter<'a> {
    fields: &'a RecordFields,
    feeds: Feeds,
    /// Platform fields read so far: an optional part is kept only when it reads one.
    reads: usize,
    /// The body's concurrency token, which an update sends as a pre-action read it.
    token: Option<String>,
    /// Whether what is written is under the billing address's `#ifgroup` already.
    in_billing_group: bool,
    /// The schemas of the objects being written, outermost first: one met again contains
    /// itself, and is not written again.
    writing: Vec<NodeIdentity>,
    /// What was written without knowing it is right (constants, mostly), for the user.
    pub left: Vec<Left>,
}

impl<'a> RequestWriter<'a> {
    pub fn new(fields: &'a RecordFields, feeds: Feeds) -> Self {
        RequestWriter {
            fields,
            feeds,
            reads: 0,
            token: None,
            in_billing_group: false,
            writing: Vec::new(),
            left: Vec::new(),
        }
    }

    /// This writer, sending the value a pre-action reads (`$.syncToken`) in property `token`
    /// of an update's body.
    pub fn with_token(mut self, token: Option<String>) -> Self {
        self.token = token;
        self
    }

    /// The template of a body of schema `schema` (none: an empty object), written at JSON
    /// pointer `at` of the definition.
    pub fn body(&mut self, schema: Option<&Schema<'_>>, at: &str) -> Json {
        let Some(schema) = schema else {
            return json!({});
        };
        if Merged::of(schema).kind.is_none() {
            // A body of any value: an object is where most start.
            self.left.push(Left {
                pointer: at.to_owned(),
                value: json!({}),
                note: "the body's schema allows any value: an empty object to fill".to_owned(),
            });
            return json!({});
        }
        match self.required(schema, None, at, 0) {
            object @ (Json::Object(_) | Json::Array(_)) => object,
            // A template written as a string is JSON text (spec 2.6): a body that is one value
            // is written as its JSON text.
            value => Json::String(value.to_string()),
        }
    }

    /// The value of a schema that must be written: a read of the record field it stands
    /// for, its required properties, or a constant.
    fn required(
        &mut self,
        schema: &Schema<'_>,
        name: Option<&str>,
        at: &str,
        depth: usize,
    ) -> Json {
        let merged = Merged::of(schema);
        if let Some(read) = name.and_then(|n| self.read(n, &merged)) {
            return read;
        }
        match merged.kind {
            Some("object")
                if depth < MAX_DEPTH && !self.writing.contains(&schema.node.identity()) =>
            {
                self.writing.push(schema.node.identity());
                let object = self.object(&merged, at, depth);
                self.writing.pop();
                // A required object left empty is one the vendor may refuse: the user fills it.
                if name.is_some() && object.as_object().is_some_and(Map::is_empty) {
                    self.left.push(Left {
                        pointer: at.to_owned(),
                        value: object.clone(),
                        note: "an empty object to fill".to_owned(),
                    });
                }
                object
            }
            Some("array") if depth < MAX_DEPTH => self.array(schema, &merged, name, at, depth),
            _ => {
                let chosen = constant(schema, &merged, name.unwrap_or("body"));
                self.left.push(Left {
                    pointer: at.to_owned(),
                    value: chosen.value.clone(),
                    note: chosen.origin.to_owned(),
                });
                chosen.value
            }
        }
    }

    /// A required array: its `minItems` items, or none.
    fn array(
        &mut self,
        schema: &Schema<'_>,
        merged: &Merged<'_>,
        name: Option<&str>,
        at: &str,
        depth: usize,
    ) -> Json {
        let count = schema
            .node
            .get("minItems")
            .and_then(|n| n.to_json().as_u64())
            .unwrap_or(0)
            .min(MAX_ITEMS);
        let Some(items) = merged.items.filter(|_| count > 0) else {
            return self
                .optional_array(merged, at, depth)
                .unwrap_or_else(|| json!([]));
        };
        let written = (0..count).map(|index| {
            let mut item_at = at.to_owned();
            pointer::push_index(&mut item_at, usize::try_from(index).unwrap_or(0));
            self.required(&items, name, &item_at, depth + 1)
        });
        Json::Array(written.collect())
    }

    /// An object: its required properties, and the optional ones that read the record.
    fn object(&mut self, merged: &Merged<'_>, at: &str, depth: usize) -> Json {
        let address = self.address_fields(merged);
        let mut out = Map::new();
        for (name, property) in &merged.properties {
            if Merged::is_read_only(property) {
                continue;
            }
            let mut property_at = at.to_owned();
            pointer::push(&mut property_at, name);
            let address_field = address.iter().find(|(n, _)| n == name).map(|(_, f)| *f);
            if let Some(fixed) = self.fixed(name, property, depth) {
                out.insert((*name).to_owned(), fixed);
            } else if let Some(field) = address_field {
                self.address_read(&mut out, name, field, merged.required.contains(name));
            } else if merged.required.contains(name) {
                let value = self.required(property, Some(name), &property_at, depth + 1);
                out.insert((*name).to_owned(), value);
            } else {
                self.optional(&mut out, name, property, &property_at, depth + 1);
            }
        }
        // A name required without a schema (the vendor's slip, SD124) is still expected.
        for name in &merged.required {
            if !merged.properties.iter().any(|(known, _)| known == name) {
                let mut property_at = at.to_owned();
                pointer::push(&mut property_at, name);
                let value = json!(format!("TODO {name}"));
                self.left.push(Left {
                    pointer: property_at,
                    value: value.clone(),
                    note: "required, though the schema declares no such property: a placeholder to replace".into(),
                });
                out.insert((*name).to_owned(), value);
            }
        }
        Json::Object(out)
    }

    /// The properties of `merged` that are the fields of an address, with the billing address
    /// field each stands for; none when they do not make an address.
    fn address_fields<'m>(&self, merged: &Merged<'m>) -> Vec<(&'m str, &'static str)> {
        let Some(billing) = &self.fields.billing else {
            return Vec::new();
        };
        let mut found: Vec<(&'m str, &'static str)> = Vec::new();
        for (name, schema) in &merged.properties {
            let property = Merged::of(schema);
            if property.kind != Some("string") || property.allowed.is_some() {
                continue;
            }
            // The first property of a field is it (`state` before `province`): two would send
            // one value twice.
            match billing.field(name) {
                Some(field) if !found.iter().any(|(_, f)| *f == field) => {
                    found.push((name, field));
                }
                _ => {}
            }
        }
        let fields: Vec<&str> = found.iter().map(|(_, field)| *field).collect();
        if BillingAddress::is_address(&fields) {
            found
        } else {
            Vec::new()
        }
    }

    /// Writes property `name` as a read of billing address field `field`: as it is when the
    /// property is required or the object is written for a billing address only, otherwise
    /// under the `#ifgroup` that writes it when the record has a billing address.
    fn address_read(
        &mut self,
        out: &mut Map<String, Json>,
        name: &str,
        field: &str,
        required: bool,
    ) {
        let Some(billing) = &self.fields.billing else {
            return;
        };
        let read = json!(billing.read(field));
        self.reads += 1;
        if required || self.in_billing_group {
            out.insert(name.to_owned(), read);
        } else if let Json::Object(group) = out.entry(billing.group()).or_insert_with(|| json!({}))
        {
            group.insert(name.to_owned(), read);
        }
    }

    /// An optional object that is an address and requires nothing else: written whole under
    /// the billing address's `#ifgroup`, so a record without one sends none.
    fn billing_object(
        &mut self,
        out: &mut Map<String, Json>,
        name: &str,
        merged: &Merged<'_>,
        at: &str,
        depth: usize,
    ) -> bool {
        let address = self.address_fields(merged);
        let only_address = merged
            .required
            .iter()
            .all(|r| address.iter().any(|(n, _)| n == r));
        let Some(group) = self.fields.billing.as_ref().map(BillingAddress::group) else {
            return false;
        };
        if address.is_empty() || !only_address {
            return false;
        }
        self.in_billing_group = true;
        let object = self.object(merged, at, depth);
        self.in_billing_group = false;
        if let Json::Object(members) = out.entry(group).or_insert_with(|| json!({})) {
            members.insert(name.to_owned(), object);
        }
        true
    }

    /// What an update's body must say whatever the schema requires: the record's external id
    /// in its `id` when the reference does not name the record, `sparse: true` when the
    /// vendor offers sparse updates (the fields not sent keep their values), the concurrency
    /// token a pre-action read.
    fn fixed(&self, name: &str, property: &Schema<'_>, depth: usize) -> Option<Json> {
        let Feeds::Update { names_record } = self.feeds else {
            return None;
        };
        if depth > 0 {
            return None;
        }
        let boolean = Merged::of(property).kind == Some("boolean");
        if name.eq_ignore_ascii_case("id") && !names_record {
            Some(json!("#valueof($.externalId)"))
        } else if name == "sparse" && boolean {
            Some(json!(true))
        } else if self.token.as_deref() == Some(name) {
            Some(json!("#valueof($.syncToken)"))
        } else {
            None
        }
    }

    /// Writes optional property `name` into `out` when it reads the record: a field it stands
    /// for under an `#ifgroup`, or an object or list of objects with such fields inside.
    fn optional(
        &mut self,
        out: &mut Map<String, Json>,
        name: &str,
        property: &Schema<'_>,
        at: &str,
        depth: usize,
    ) {
        let merged = Merged::of(property);
        if let Some(field) = merged.kind.and_then(|k| self.field(name, &merged, k)) {
            let test = if merged.kind == Some("string") {
                "existsandnotempty"
            } else {
                "exists"
            };
            let path = format!("$.{}.{field}", self.fields.root);
            let group = out
                .entry(format!("#ifgroup(#{test}({path}))"))
                .or_insert_with(|| json!({}));
            if let Json::Object(group) = group {
                group.insert(name.to_owned(), json!(format!("#valueof({path})")));
            }
            self.reads += 1;
            return;
        }
        // Only the body's own optional objects and lists (a wrapper such as `{"Contacts":
        // [...]}`) are looked into: deeper, an object is mostly another record's reference or
        // detail (a contact's branding theme, its groups), whose name is not this record's.
        if depth > WRAPPER_DEPTH || is_shipping(name) {
            return;
        }
        if merged.kind == Some("object") && self.billing_object(out, name, &merged, at, depth) {
            return;
        }
        let written = match merged.kind {
            Some("object") => self.kept_if_reading(|w| w.object(&merged, at, depth)),
            Some("array") => self.optional_array(&merged, at, depth),
            _ => None,
        };
        if let Some(value) = written {
            out.insert(name.to_owned(), value);
        }
    }

    /// An optional array of objects: one item, when it reads the record.
    fn optional_array(&mut self, merged: &Merged<'_>, at: &str, depth: usize) -> Option<Json> {
        let items = Merged::of(&merged.items?);
        if items.kind != Some("object") {
            return None;
        }
        let mut item_at = at.to_owned();
        pointer::push_index(&mut item_at, 0);
        let item = self.kept_if_reading(|w| w.object(&items, &item_at, depth + 1))?;
        Some(json!([item]))
    }

    /// What `write` makes, when it reads a record field and needs no constant (an optional
    /// reference whose required id would be made up is better left out); otherwise nothing,
    /// and what it read and wrote is forgotten.
    fn kept_if_reading(&mut self, write: impl FnOnce(&mut Self) -> Json) -> Option<Json> {
        let (reads, left) = (self.reads, self.left.len());
        let value = write(self);
        if self.reads > reads && self.left.len() == left {
            Some(value)
        } else {
            self.reads = reads;
            self.left.truncate(left);
            None
        }
    }

    /// A read of the record field a required scalar `name` stands for.
    fn read(&mut self, name: &str, merged: &Merged<'_>) -> Option<Json> {
        let field = self.field(name, merged, merged.kind?)?;
        self.reads += 1;
        Some(json!(format!("#valueof($.{}.{field})", self.fields.root)))
    }

    /// The record field a property stands for; none for a property whose values are listed
    /// (an `enum`), which a record's free text would not fit.
    fn field(&self, name: &str, merged: &Merged<'_>, kind: &str) -> Option<&'static str> {
        if merged.allowed.is_some() {
            return None;
        }
        self.fields.matching(name, kind)
    }
}

/// Whether an object named `name` is where goods go (`shipping`, `deliveryAddress`): not the
/// billing address, nor anything else the record says.
fn is_shipping(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("ship") || lower.contains("deliver")
}
