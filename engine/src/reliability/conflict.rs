//! Recognising a stale concurrency token in an answer, declaratively.
//!
//! Business Central says so with 412 Precondition Failed; QuickBooks with a 400 whose body holds
//! `Fault.Error[].code == "5010"` (Stale Object Error). Both mean "someone changed the record
//! since you read its token": the engine re-runs the pre-actions (which read the token again)
//! and sends the update once more.

use serde_json::Value as Json;
use syncdef_definitions::extension::{CodeStep, code_steps};

use crate::extract::ResponseBody;
use crate::transport::HttpResponse;

/// One way an external system reports a conflict: a status and, optionally, a body value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictRule {
    /// The HTTP status (412, 409, 400, ...).
    pub status: u16,
    /// Where in the JSON body the code is: `$`, then `.member`, `[n]` or `[*]` steps
    /// (`$.Fault.Error[*].code`). Without it the status alone decides.
    pub path: Option<String>,
    /// The values at `path` that mean a conflict (compared as text: `"5010"` matches the
    /// number 5010 too). Without it any value found at `path` does.
    pub equals: Vec<String>,
}

impl ConflictRule {
    /// The rule used when a definition declares none: 412 Precondition Failed, the HTTP way.
    #[must_use]
    pub fn precondition_failed() -> Self {
        ConflictRule {
            status: 412,
            path: None,
            equals: Vec::new(),
        }
    }

    /// Whether `response` (its body parsed as `json`) is a conflict by this rule.
    #[must_use]
    pub fn matches(&self, response: &HttpResponse, json: Option<&Json>) -> bool {
        if response.status != self.status {
            return false;
        }
        let Some(path) = &self.path else {
            return true;
        };
        let (Some(json), Ok(steps)) = (json, code_steps(path)) else {
            return false;
        };
        let mut found = Vec::new();
        select(json, &steps, &mut found);
        found.iter().any(|v| {
            let text = match v {
                Json::String(s) => s.clone(),
                Json::Number(n) => n.to_string(),
                Json::Bool(b) => b.to_string(),
                _ => return false,
            };
            self.equals.is_empty() || self.equals.contains(&text)
        })
    }
}

/// The first rule of `rules` that `response` (its body `body`) matches. The body is parsed
/// only when a rule with a body path has the response's status.
pub(crate) fn find<'r>(
    rules: &'r [ConflictRule],
    response: &HttpResponse,
    body: &ResponseBody,
) -> Option<&'r ConflictRule> {
    rules
        .iter()
        .filter(|r| r.status == response.status)
        .find(|r| r.path.is_none() || r.matches(response, body.json().ok()))
}

fn select<'j>(json: &'j Json, steps: &[CodeStep], out: &mut Vec<&'j Json>) {
    let Some((first, rest)) = steps.split_first() else {
        out.push(json);
        return;
    };
    match (first, json) {
        (CodeStep::Member(name), Json::Object(map)) => {
            if let Some(v) = map.get(name) {
                select(v, rest, out);
            }
        }
        (CodeStep::Index(i), Json::Array(items)) => {
            if let Some(v) = items.get(*i) {
                select(v, rest, out);
            }
        }
        (CodeStep::All, Json::Array(items)) => items.iter().for_each(|v| select(v, rest, out)),
        (CodeStep::All, Json::Object(map)) => map.values().for_each(|v| select(v, rest, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn response(status: u16) -> HttpResponse {
        HttpResponse {
            status,
            ..HttpResponse::default()
        }
    }

    fn quickbooks() -> ConflictRule {
        ConflictRule {
            status: 400,
            path: Some("$.Fault.Error[*].code".into()),
            equals: vec!["5010".into()],
        }
    }

    #[test]
    fn quickbooks_stale_object_is_a_conflict_other_faults_are_not() {
        let stale =
            json!({"Fault": {"Error": [{"Message": "Stale Object Error", "code": "5010"}]}});
        let other = json!({"Fault": {"Error": [{"Message": "Duplicate Name", "code": "6240"}]}});
        assert!(quickbooks().matches(&response(400), Some(&stale)));
        assert!(!quickbooks().matches(&response(400), Some(&other)));
        assert!(!quickbooks().matches(&response(500), Some(&stale)));
        assert!(!quickbooks().matches(&response(400), None));
        let numeric = json!({"Fault": {"Error": [{"code": 5010}]}});
        assert!(quickbooks().matches(&response(400), Some(&numeric)));
    }

    #[test]
    fn status_alone() {
        let rule = ConflictRule::precondition_failed();
        assert!(rule.matches(&response(412), None));
        assert!(!rule.matches(&response(409), None));
    }
}
