//! The header and query parameters the chosen operations require beyond what the engine sends
//! itself (the tenant header every Xero request carries, say): each gets a server variable
//! named after it, set per company, and `x-syncdef.parameters` gives it that variable's value,
//! as SD304 advises; one whose values the vendor lists is sent as its value. A path parameter
//! above the record (an organisation's id) gets a server variable of its name. A variable's
//! default is a constant the user replaces.

use serde_json::{Map, Value as Json, json};

use super::Left;
use super::constant::constant;
use super::merged::Merged;
use super::operation::Chosen;
use crate::Definition;
use crate::extension::ParameterPlace;
use crate::node::Node;
use crate::openapi::{OpenApi, Schema, SentParameter};
use crate::pointer;

/// What the overlay adds for the required parameters.
#[derive(Debug, Default)]
pub(super) struct Parameters {
    /// `x-syncdef.parameters`: by place, then by parameter name, the value text.
    pub values: Map<String, Json>,
    /// The server variables added, by name.
    pub variables: Map<String, Json>,
    /// The defaults to replace.
    pub left: Vec<Left>,
}

/// The parameters `operations` require that nothing sends.
pub(super) fn required_parameters(vendor: &Definition, operations: &[Chosen<'_>]) -> Parameters {
    let api = vendor.openapi();
    let mut out = Parameters::default();
    let variables = vendor.server_variables();
    let has_servers = api.servers().next().is_some();
    for chosen in operations {
        // The credentials the operation's own requirements send (as `syncdef lint` reads them:
        // an operation's `security` overrides the document's).
        let senders = Senders {
            api_keys: api.operation_api_keys(chosen.operation.node),
            variables: &variables,
            has_servers,
        };
        for parameter in chosen.operation.sent_parameters(Some(chosen.path_item)) {
            if parameter.required && !senders.send(&parameter) && !out.gives(&parameter) {
                out.give(&api, &senders, &parameter);
            }
        }
        for name in &chosen.unfilled {
            out.give_path(&api, &senders, chosen, name);
        }
    }
    out
}

/// What sends a parameter without `x-syncdef.parameters`, and what a value may name.
struct Senders<'v, 'd> {
    /// `(in, name)` of the `apiKey` schemes the operation's security requirements name.
    api_keys: Vec<(ParameterPlace, &'d str)>,
    /// The server variables declared.
    variables: &'v [&'d str],
    /// Whether the description has a server to add variables to.
    has_servers: bool,
}

impl Senders<'_, '_> {
    /// Whether `parameter` is sent by an `apiKey` scheme, or is the update's concurrency
    /// token (which `concurrency` reads).
    fn send(&self, parameter: &SentParameter<'_>) -> bool {
        let same = |name: &str| parameter.place.same_name(name, parameter.name);
        self.api_keys
            .iter()
            .any(|(at, n)| *at == parameter.place && same(n))
            || (parameter.place == ParameterPlace::Header && same(super::concurrency::HEADER))
    }
}

impl Parameters {
    /// Whether `parameter` has its value already (another operation requires it too).
    fn gives(&self, parameter: &SentParameter<'_>) -> bool {
        self.values
            .get(parameter.place.key())
            .and_then(Json::as_object)
            .is_some_and(|m| {
                m.keys()
                    .any(|k| parameter.place.same_name(k, parameter.name))
            })
    }

    /// Gives path parameter `name` of `chosen`'s reference a value: a server variable of that
    /// name, set per company (a create under a parent, such as an organisation or a ledger, is
    /// under the company's), its default listed to set; without a server to add it to, the
    /// reference is listed.
    fn give_path(
        &mut self,
        api: &OpenApi<'_>,
        senders: &Senders<'_, '_>,
        chosen: &Chosen<'_>,
        name: &str,
    ) {
        if self.variables.contains_key(name) {
            return;
        }
        if !senders.has_servers {
            self.left.push(Left {
                pointer: chosen.at.clone(),
                value: json!(chosen.reference),
                note: format!(
                    "the path parameter `{name}` has no value: name a server variable, or `{{<Entry>.IntegrationId}}` for a related record's id"
                ),
            });
            return;
        }
        let schema = chosen
            .operation
            .parameters(Some(chosen.path_item))
            .into_iter()
            .find(|p| {
                p.get("in").and_then(Node::as_str) == Some("path")
                    && p.get("name").and_then(Node::as_str) == Some(name)
            })
            .and_then(|p| p.get("schema"))
            .map(|s| api.schema(s));
        let default = default_text(schema.as_ref(), name);
        self.left.push(Left {
            pointer: format!("/servers/0/variables/{}/default", pointer::escape(name)),
            value: json!(default),
            note: format!(
                "the `{name}` path parameter of `{}`: each company's value (`--var {name}=...`)",
                chosen.reference
            ),
        });
        let description = format!("The `{name}` path parameter of this company's requests");
        self.variables.insert(
            name.to_owned(),
            json!({"default": default, "description": description}),
        );
    }

    /// Gives `parameter` a value: a server variable's, added when the description has none of
    /// its name, its default listed to set; a constant when there is no server to add it to.
    fn give(
        &mut self,
        api: &OpenApi<'_>,
        senders: &Senders<'_, '_>,
        parameter: &SentParameter<'_>,
    ) {
        let (name, place) = (parameter.name, parameter.place.key());
        let variable = variable_name(name);
        let schema = parameter.node.get("schema").map(|s| api.schema(s));
        let default = default_text(schema.as_ref(), name);
        let listed = schema.as_ref().map_or(0, listed_values);
        let value = if listed > 0 {
            // The vendor lists the values: one the same for every company, sent as it is.
            if listed > 1 {
                self.left.push(Left {
                    pointer: format!("/x-syncdef/parameters/{place}/{}", pointer::escape(name)),
                    value: json!(default),
                    note: format!(
                        "the first value its enum allows, for the `{name}` {place} parameter every request sends"
                    ),
                });
            }
            default
        } else if senders.variables.contains(&variable.as_str()) {
            format!("{{{variable}}}")
        } else if senders.has_servers {
            self.left.push(Left {
                pointer: format!("/servers/0/variables/{variable}/default"),
                value: json!(default),
                note: format!(
                    "the `{name}` {place} parameter every request sends: each company's value (`--var {variable}=...`)"
                ),
            });
            let description = format!("The `{name}` {place} parameter of this company's requests");
            self.variables.insert(
                variable.clone(),
                json!({"default": default, "description": description}),
            );
            format!("{{{variable}}}")
        } else {
            self.left.push(Left {
                pointer: format!("/x-syncdef/parameters/{place}/{}", pointer::escape(name)),
                value: json!(default),
                note: format!("the `{name}` {place} parameter every request sends"),
            });
            default
        };
        if let Json::Object(values) = self.values.entry(place).or_insert_with(|| json!({})) {
            values.insert(name.to_owned(), json!(value));
        }
    }
}

/// How many values `schema` lists (`const` is one, `enum` its items); 0 when it lists none.
fn listed_values(schema: &Schema<'_>) -> usize {
    if schema.node.get("const").is_some() {
        return 1;
    }
    schema
        .node
        .get("enum")
        .and_then(Node::as_array)
        .map_or(0, |values| values.len())
}

/// The value a parameter `name` of `schema` starts with: a constant the schema allows, as text,
/// or a visible `TODO name` where it gives none to make.
fn default_text(schema: Option<&Schema<'_>>, name: &str) -> String {
    text(schema.map_or_else(
        || json!(format!("TODO {name}")),
        |s| constant(s, &Merged::of(s), name).value,
    ))
}

/// A constant as a server variable's value, which is text.
fn text(value: Json) -> String {
    match value {
        Json::String(text) => text,
        other => other.to_string(),
    }
}

/// A server variable's name for parameter `name`: lower camel case (`xero-tenant-id`:
/// `xeroTenantId`).
fn variable_name(name: &str) -> String {
    let mut out = String::new();
    for (index, word) in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            if index == 0 {
                out.push(first.to_ascii_lowercase());
            } else {
                out.push(first.to_ascii_uppercase());
            }
            out.push_str(chars.as_str());
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "parameter");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::variable_name;

    #[test]
    fn variables_are_named_after_their_parameter() {
        assert_eq!(variable_name("xero-tenant-id"), "xeroTenantId");
        assert_eq!(variable_name("X-Company"), "xCompany");
        assert_eq!(variable_name("api_version"), "apiVersion");
        assert_eq!(variable_name("1st"), "parameter1st");
    }
}
