//! `x-syncdef.parameters`: values for the header and query parameters a vendor's operations
//! declare, such as the tenant header every Xero request carries (`xero-tenant-id`). A value is
//! a text with `{name}` placeholders naming server variables, so that it follows the company a
//! request goes to, as the server URL does.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::placeholders::{Piece, pieces};

/// `x-syncdef.parameters`: by place, then by parameter name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParametersSpec {
    /// Request headers, by name (compared without regard to case, as HTTP does).
    #[serde(default)]
    pub header: BTreeMap<String, String>,
    /// Query parameters, by name.
    #[serde(default)]
    pub query: BTreeMap<String, String>,
}

/// Where a parameter goes: the two places `x-syncdef.parameters` fills and an idempotency key
/// is sent in (`in: query` or `in: header`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParameterPlace {
    /// A request header (`in: header`).
    Header,
    /// A query parameter (`in: query`).
    Query,
}

impl ParameterPlace {
    /// The place named by an OpenAPI parameter's `in`; `None` for `path` and `cookie`.
    #[must_use]
    pub fn of_openapi(name: &str) -> Option<Self> {
        match name {
            "header" => Some(ParameterPlace::Header),
            "query" => Some(ParameterPlace::Query),
            _ => None,
        }
    }

    /// The key under `x-syncdef.parameters` (and the parameter's `in`).
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            ParameterPlace::Header => "header",
            ParameterPlace::Query => "query",
        }
    }

    /// Whether two parameter names at this place are the same parameter: header names are
    /// compared without regard to case, query names as written.
    #[must_use]
    pub fn same_name(self, a: &str, b: &str) -> bool {
        match self {
            ParameterPlace::Header => a.eq_ignore_ascii_case(b),
            ParameterPlace::Query => a == b,
        }
    }
}

/// Headers the engine writes itself: an operation's parameter of that name is ignored (as
/// OpenAPI says of `Accept`, `Content-Type` and `Authorization`), and a value given for one
/// would be sent twice.
pub const ENGINE_HEADERS: &[&str] = &["accept", "content-type", "authorization"];

/// Whether `name` is one of the [`ENGINE_HEADERS`], in any case.
#[must_use]
pub fn is_engine_header(name: &str) -> bool {
    ENGINE_HEADERS.iter().any(|h| h.eq_ignore_ascii_case(name))
}

impl ParametersSpec {
    /// Every parameter given, with its place, name and value text.
    pub fn iter(&self) -> impl Iterator<Item = (ParameterPlace, &str, &str)> {
        let headers = self
            .header
            .iter()
            .map(|(k, v)| (ParameterPlace::Header, k, v));
        let queries = self
            .query
            .iter()
            .map(|(k, v)| (ParameterPlace::Query, k, v));
        headers
            .chain(queries)
            .map(|(place, k, v)| (place, k.as_str(), v.as_str()))
    }

    /// The value text given for the parameter `name` at `place`.
    #[must_use]
    pub fn value(&self, place: ParameterPlace, name: &str) -> Option<&str> {
        self.iter()
            .find(|(p, n, _)| *p == place && place.same_name(n, name))
            .map(|(_, _, v)| v)
    }

    /// What is wrong with the values, by the member at fault: a placeholder not closed, one
    /// that names no server variable (`server_variables`), or a header the engine writes.
    #[must_use]
    pub fn problems(&self, server_variables: &[&str]) -> Vec<(Vec<String>, String)> {
        let mut out = Vec::new();
        for (place, name, value) in self.iter() {
            let at = vec![place.key().to_owned(), name.to_owned()];
            if name.trim().is_empty() {
                out.push((at, format!("a {} parameter needs a name", place.key())));
                continue;
            }
            if place == ParameterPlace::Header && is_engine_header(name) {
                out.push((
                    at,
                    format!(
                        "`{name}` is written by the engine (credentials and media types come from the operation): leave it out"
                    ),
                ));
                continue;
            }
            match placeholder_names(value) {
                Err(e) => out.push((at, format!("`{value}`: {e}"))),
                Ok(names) => {
                    for unknown in names.iter().filter(|n| !server_variables.contains(n)) {
                        out.push((at.clone(), unknown_variable(unknown, server_variables)));
                    }
                }
            }
        }
        out
    }
}

/// The server variables a value text names, each once.
///
/// # Errors
/// A `{` that is not closed.
fn placeholder_names(value: &str) -> Result<BTreeSet<&str>, String> {
    Ok(pieces(value)?
        .into_iter()
        .filter_map(|p| match p {
            Piece::Placeholder(name) => Some(name),
            Piece::Text(_) => None,
        })
        .collect())
}

fn unknown_variable(name: &str, declared: &[&str]) -> String {
    if declared.is_empty() {
        format!(
            "`{{{name}}}` names no server variable, and the document declares none: declare `{name}` under `servers[0].variables` (an overlay can add it)"
        )
    } else {
        format!(
            "`{{{name}}}` names no server variable (declared: {}): declare it under `servers[0].variables` or fix the name",
            declared.join(", ")
        )
    }
}

/// `value` with each `{name}` replaced by the variable's value in `variables`.
///
/// # Errors
/// The first placeholder not closed, or naming a variable `variables` does not hold (the
/// linter refuses both, so only a definition loaded unchecked gets here).
pub fn fill_parameter(value: &str, variables: &BTreeMap<String, String>) -> Result<String, String> {
    let mut out = String::with_capacity(value.len());
    for piece in pieces(value)? {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Placeholder(name) => match variables.get(name) {
                Some(v) => out.push_str(v),
                None => return Err(format!("`{{{name}}}` names no server variable")),
            },
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(header: &[(&str, &str)], query: &[(&str, &str)]) -> ParametersSpec {
        let map = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        ParametersSpec {
            header: map(header),
            query: map(query),
        }
    }

    #[test]
    fn header_names_are_found_whatever_their_case_and_query_names_as_written() {
        let s = spec(&[("xero-tenant-id", "{tenantId}")], &[("unitdp", "4")]);
        assert_eq!(
            s.value(ParameterPlace::Header, "Xero-Tenant-Id"),
            Some("{tenantId}")
        );
        assert_eq!(s.value(ParameterPlace::Query, "unitdp"), Some("4"));
        assert_eq!(s.value(ParameterPlace::Query, "UnitDP"), None);
        assert_eq!(s.value(ParameterPlace::Query, "xero-tenant-id"), None);
    }

    #[test]
    fn values_name_declared_server_variables_only() {
        let s = spec(&[("xero-tenant-id", "{tenant}")], &[("minor", "{open")]);
        let problems = s.problems(&["tenantId"]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert_eq!(problems[0].0, ["header", "xero-tenant-id"]);
        assert!(problems[0].1.contains("declared: tenantId"), "{problems:?}");
        assert_eq!(problems[1].0, ["query", "minor"]);
        assert!(problems[1].1.contains("not closed"), "{problems:?}");
        assert!(
            spec(&[("x", "{tenantId}")], &[])
                .problems(&["tenantId"])
                .is_empty()
        );
    }

    #[test]
    fn headers_the_engine_writes_are_refused() {
        let problems = spec(&[("Authorization", "Bearer x")], &[]).problems(&[]);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].1.contains("written by the engine"));
    }

    #[test]
    fn values_are_filled_from_the_server_variables() {
        let vars = BTreeMap::from([("tenantId".to_owned(), "t-1".to_owned())]);
        assert_eq!(fill_parameter("{tenantId}", &vars).as_deref(), Ok("t-1"));
        assert_eq!(
            fill_parameter("id:{tenantId}!", &vars).as_deref(),
            Ok("id:t-1!")
        );
        assert!(fill_parameter("{other}", &vars).is_err());
    }
}
