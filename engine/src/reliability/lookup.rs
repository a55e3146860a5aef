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

use serde_json::Value as Json;
use syncdef_definitions::extension::{LookupSpec, query_parts};

pub use syncdef_definitions::extension::{QueryPart, Quote};

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

impl From<LookupSpec> for Lookup {
    /// A checked lookup declaration (`Extension::read` has refused malformed placeholders, so
    /// a query text that still does not parse is kept as plain text).
    fn from(spec: LookupSpec) -> Lookup {
        let query = spec
            .query
            .into_iter()
            .map(|(name, text)| {
                let parts = query_parts(&text).unwrap_or_else(|_| vec![QueryPart::Text(text)]);
                (name, parts)
            })
            .collect();
        Lookup {
            path: spec.path,
            query,
            quote: spec.quote,
            ids: spec.ids,
        }
    }
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
    use std::collections::BTreeMap;

    use super::*;
    use serde_json::json;

    fn spec(query: &str, quote: Quote) -> Lookup {
        Lookup::from(LookupSpec {
            path: "/query/get".into(),
            query: BTreeMap::from([("query".into(), query.into())]),
            quote,
            ids: "$.QueryResponse.Customer[*].Id".into(),
        })
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
}
