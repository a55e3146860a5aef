//! `x-syncdef.lookup`: how to search the external system for a record a create of unknown
//! outcome may have made, per entry. The search is a GET whose query parameters hold values of
//! the create's body (what was sent), quoted for the external system's query language; the ids
//! it finds are read with a JSONPath.
//!
//! ```yaml
//! x-syncdef:
//!   lookup:
//!     Account:
//!       path: /query/get
//!       query: {query: "select Id from Customer where DisplayName = {body.DisplayName}"}
//!       quote: quickbooks
//!       ids: $.QueryResponse.Customer[*].Id
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value as Json;

/// How a body value is written inside a query: the quoting rules of the query language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Quote {
    /// OData (`$filter`, Business Central): `'O''Brien'`.
    Odata,
    /// QuickBooks' query language: `'O\'Brien'`.
    Quickbooks,
}

impl Quote {
    /// `text` as a string literal of the language.
    #[must_use]
    pub fn literal(self, text: &str) -> String {
        let escaped = match self {
            Quote::Odata => text.replace('\'', "''"),
            Quote::Quickbooks => text.replace('\\', "\\\\").replace('\'', "\\'"),
        };
        ["'", &escaped, "'"].concat()
    }
}

/// One part of a query parameter's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryPart {
    /// Written as it is.
    Text(String),
    /// `{body.A.B}`: the create body's member `A.B`, as a literal of the language.
    Body(Vec<String>),
}

/// One entry's lookup, as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookup {
    /// The operation reference searched (a GET): `/query/get`.
    pub path: String,
    /// Query parameters by name, each a text with `{body.…}` placeholders.
    pub query: Vec<(String, Vec<QueryPart>)>,
    /// How body values are quoted.
    pub quote: Quote,
    /// JSONPath to the ids found in the answer (`$.value[*].id`).
    pub ids: String,
}

/// `x-syncdef.lookup.<Entry>` as written.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct LookupSpec {
    path: String,
    #[serde(default)]
    query: BTreeMap<String, String>,
    quote: Quote,
    ids: String,
}

impl LookupSpec {
    /// The lookup of `entry`, its placeholders parsed.
    pub fn lookup(self, entry: &str) -> Result<Lookup, String> {
        let at = |e: String| format!("`lookup.{entry}`: {e}");
        if !self.path.ends_with("/get") {
            return Err(at(format!(
                "`path: {}` must name a GET operation (`…/get`): a lookup only reads",
                self.path
            )));
        }
        if !self.ids.starts_with('$') {
            return Err(at(format!(
                "`ids: {}` must be a JSONPath starting at `$`",
                self.ids
            )));
        }
        let mut query = Vec::new();
        for (name, text) in self.query {
            let parts = parse_parts(&text).map_err(|e| at(format!("`query.{name}`: {e}")))?;
            query.push((name, parts));
        }
        Ok(Lookup {
            path: self.path,
            query,
            quote: self.quote,
            ids: self.ids,
        })
    }
}

fn parse_parts(text: &str) -> Result<Vec<QueryPart>, String> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(QueryPart::Text(rest[..open].to_owned()));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("`{{` at {} is not closed", text.len() - rest.len() + open))?;
        let name = &after[..close];
        let path = name
            .strip_prefix("body.")
            .filter(|p| !p.is_empty() && p.split('.').all(|m| !m.is_empty()))
            .ok_or_else(|| {
                format!("`{{{name}}}` is not a placeholder: write `{{body.Member}}` for a member of the create's body")
            })?;
        parts.push(QueryPart::Body(
            path.split('.').map(str::to_owned).collect(),
        ));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(QueryPart::Text(rest.to_owned()));
    }
    Ok(parts)
}

impl Lookup {
    /// The query parameters for a create that sent `body`, or why they cannot be made.
    pub fn parameters(&self, body: &Json) -> Result<Vec<(String, String)>, String> {
        let mut out = Vec::with_capacity(self.query.len());
        for (name, parts) in &self.query {
            let mut value = String::new();
            for part in parts {
                match part {
                    QueryPart::Text(t) => value.push_str(t),
                    QueryPart::Body(path) => value.push_str(&self.literal(body, path)?),
                }
            }
            out.push((name.clone(), value));
        }
        Ok(out)
    }

    fn literal(&self, body: &Json, path: &[String]) -> Result<String, String> {
        let found = path.iter().try_fold(body, |v, m| v.get(m));
        match found {
            Some(Json::String(s)) => Ok(self.quote.literal(s)),
            Some(Json::Number(n)) => Ok(n.to_string()),
            Some(Json::Bool(b)) => Ok(b.to_string()),
            _ => Err(format!(
                "the create's body has no text, number or boolean at `{}` to search by",
                path.join(".")
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(query: &str, quote: Quote) -> Lookup {
        LookupSpec {
            path: "/query/get".into(),
            query: BTreeMap::from([("query".into(), query.into())]),
            quote,
            ids: "$.QueryResponse.Customer[*].Id".into(),
        }
        .lookup("Account")
        .expect("valid")
    }

    #[test]
    fn body_values_are_quoted_for_the_query_language() {
        let body =
            json!({"DisplayName": "O'Brien \\ Sons", "BillAddr": {"City": "Athens"}, "n": 7});
        let qb = spec(
            "select Id from Customer where DisplayName = {body.DisplayName} and x = {body.n}",
            Quote::Quickbooks,
        );
        assert_eq!(
            qb.parameters(&body).expect("made"),
            vec![(
                "query".to_owned(),
                r"select Id from Customer where DisplayName = 'O\'Brien \\ Sons' and x = 7"
                    .to_owned()
            )]
        );
        let odata = spec(
            "city eq {body.BillAddr.City} or name eq {body.DisplayName}",
            Quote::Odata,
        );
        assert_eq!(
            odata.parameters(&body).expect("made")[0].1,
            r"city eq 'Athens' or name eq 'O''Brien \ Sons'"
        );
        assert!(
            odata
                .parameters(&json!({}))
                .expect_err("nothing to search by")
                .contains("`BillAddr.City`")
        );
    }

    #[test]
    fn malformed_declarations_are_refused_by_name() {
        let bad = |query: &str, path: &str, ids: &str| {
            LookupSpec {
                path: path.into(),
                query: BTreeMap::from([("q".into(), query.into())]),
                quote: Quote::Odata,
                ids: ids.into(),
            }
            .lookup("Account")
            .expect_err("refused")
        };
        assert!(bad("a = {body.X", "/q/get", "$.x").contains("not closed"));
        assert!(bad("a = {X}", "/q/get", "$.x").contains("{body.Member}"));
        assert!(bad("a", "/q/post", "$.x").contains("GET"));
        assert!(bad("a", "/q/get", "x").contains("JSONPath"));
    }
}
