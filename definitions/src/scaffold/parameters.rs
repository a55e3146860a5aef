//! The header and query parameters the chosen operations require beyond what the engine sends
//! itself (the tenant header every Xero request carries, say): each gets a server variable
//! named after it, set per company, and `x-syncdef.parameters` gives it that variable's value,
//! as SD304 advises. The variable's default is a constant the user replaces.

use serde_json::{Map, Value as Json, json};

use super::Left;
use super::constant::constant;
use super::merged::Merged;
use super::operation::Chosen;
use crate::Definition;
use crate::extension::ParameterPlace;

/// The header an update's concurrency token goes in, which `concurrency` reads.
const IF_MATCH: &str = "If-Match";

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
    let api_keys: Vec<(&str, &str)> = api
        .security_schemes()
        .filter_map(|scheme| scheme.api_key())
        .collect();
    let declared = vendor.server_variables();
    let has_servers = api.servers().next().is_some();
    let mut out = Parameters::default();
    for chosen in operations {
        for parameter in chosen.operation.sent_parameters(Some(chosen.path_item)) {
            let place = parameter.place.key();
            let same = |name: &str| parameter.place.same_name(name, parameter.name);
            let sent_otherwise = api_keys.iter().any(|(n, at)| *at == place && same(n))
                || (parameter.place == ParameterPlace::Header && same(IF_MATCH));
            let given = out
                .values
                .get(place)
                .and_then(Json::as_object)
                .is_some_and(|m| m.keys().any(|k| same(k)));
            if !parameter.required || sent_otherwise || given {
                continue;
            }
            let variable = variable_name(parameter.name);
            let schema = parameter.node.get("schema").map(|s| api.schema(s));
            let default = schema.map_or_else(
                || json!(format!("TODO {}", parameter.name)),
                |s| constant(&s, &Merged::of(&s), parameter.name).value,
            );
            let default = match default {
                Json::String(text) => text,
                other => other.to_string(),
            };
            let value = if declared.contains(&variable.as_str()) {
                format!("{{{variable}}}")
            } else if has_servers {
                out.left.push(Left {
                    pointer: format!("/servers/0/variables/{variable}/default"),
                    value: json!(default),
                    note: format!(
                        "the `{}` {place} parameter every request sends: each company's value (`--var {variable}=...`)",
                        parameter.name
                    ),
                });
                out.variables.insert(
                    variable.clone(),
                    json!({
                        "default": default,
                        "description": format!("The `{}` {place} parameter of this company's requests", parameter.name),
                    }),
                );
                format!("{{{variable}}}")
            } else {
                out.left.push(Left {
                    pointer: format!(
                        "/x-syncdef/parameters/{place}/{}",
                        crate::pointer::escape(parameter.name)
                    ),
                    value: json!(default),
                    note: format!(
                        "the `{}` {place} parameter every request sends",
                        parameter.name
                    ),
                });
                default
            };
            if let Json::Object(values) = out
                .values
                .entry(place.to_owned())
                .or_insert_with(|| json!({}))
            {
                values.insert(parameter.name.to_owned(), json!(value));
            }
        }
    }
    out
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
