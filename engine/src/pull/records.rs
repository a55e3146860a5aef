//! What a pull's response template makes of an answer: the platform records it stands for,
//! each under its module's root (`{"account": {...}}`) and carrying the external id it is known
//! by (`integrationId`); and, apart, the elements that are not such records.

use syncdef_transform::Value;

/// The member of a platform record that holds the external system's id (the vendor's
/// `IntegrationId`, exposed as `integrationId`).
pub const INTEGRATION_ID: &str = "integrationId";

/// A platform record read from the external system.
#[derive(Clone, Debug, PartialEq)]
pub struct PulledRecord {
    /// Its id in the external system (`integrationId`), as text.
    pub external_id: String,
    /// The record under its module's root, as the template made it: `{"account": {...}}`.
    pub record: Value,
}

/// An element of the template's output that is not a record the platform can take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RejectedRecord {
    /// Its position in the template's output (0 for a `read`).
    pub index: usize,
    /// What is wrong and what to do.
    pub reason: String,
}

/// The records of `output` (an array of records; one record for a `read`; null for none), for the module
/// whose records are under `root`, made by the template `template`.
pub(crate) fn records_of(
    output: &Value,
    root: &str,
    template: &str,
) -> Result<(Vec<PulledRecord>, Vec<RejectedRecord>), String> {
    let elements: &[Value] = match output {
        // A loop over a page without records (QuickBooks leaves the list out) makes null.
        Value::Null => &[],
        Value::Array(items) => items,
        Value::Object(_) => std::slice::from_ref(output),
        other => {
            return Err(format!(
                "`{template}` made {}, not the records read (an array of `{{\"{root}\": {{…}}}}`): fix the template",
                kind(other)
            ));
        }
    };
    let mut records = Vec::with_capacity(elements.len());
    let mut rejected = Vec::new();
    for (index, element) in elements.iter().enumerate() {
        match record(element, root, template) {
            Ok(r) => records.push(r),
            Err(reason) => rejected.push(RejectedRecord { index, reason }),
        }
    }
    Ok((records, rejected))
}

fn record(element: &Value, root: &str, template: &str) -> Result<PulledRecord, String> {
    let Some(fields) = element.get(root).filter(|v| v.as_object().is_some()) else {
        return Err(format!(
            "`{template}` made {} where a record `{{\"{root}\": {{…}}}}` belongs",
            kind(element)
        ));
    };
    if let Some(extra) = element
        .as_object()
        .and_then(|members| members.keys().find(|k| &***k != root))
    {
        return Err(format!(
            "`{template}` made a record with `{extra}` beside `{root}`: a pulled record is its module's root alone"
        ));
    }
    let external_id = match fields.get(INTEGRATION_ID) {
        Some(Value::String(s)) if !s.trim().is_empty() => s.to_string(),
        Some(Value::Int(i)) => i.to_string(),
        Some(other) => return Err(no_id(template, root, kind(other))),
        None => return Err(no_id(template, root, "nothing")),
    };
    Ok(PulledRecord {
        external_id,
        record: element.clone(),
    })
}

fn no_id(template: &str, root: &str, found: &str) -> String {
    format!(
        "`{template}` gives `{root}.{INTEGRATION_ID}` {found}: map the external record's id into it (`\"{INTEGRATION_ID}\": \"#valueof($.Id)\"`), which is how the platform knows which record it is"
    )
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Int(_) | Value::Double(_) | Value::Decimal(_) => "a number",
        Value::String(s) if s.is_empty() => "an empty string",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(json: &str) -> Value {
        Value::from_json_str(json).unwrap()
    }

    #[test]
    fn an_array_of_rooted_records_with_ids() {
        let out = value(
            r#"[{"account": {"name": "Acme", "integrationId": "58"}}, {"account": {"name": "B", "integrationId": 59}}]"#,
        );
        let (records, rejected) = records_of(&out, "account", "batchReadResponse").unwrap();
        assert!(rejected.is_empty(), "{rejected:?}");
        assert_eq!(
            records
                .iter()
                .map(|r| r.external_id.as_str())
                .collect::<Vec<_>>(),
            ["58", "59"]
        );
        assert_eq!(
            records[0].record,
            value(r#"{"account": {"name": "Acme", "integrationId": "58"}}"#)
        );
    }

    #[test]
    fn a_read_gives_one_record() {
        let out = value(r#"{"account": {"integrationId": "7"}}"#);
        let (records, _) = records_of(&out, "account", "readResponse").unwrap();
        assert_eq!(records[0].external_id, "7");
    }

    #[test]
    fn what_is_not_a_record_is_set_apart_with_its_reason() {
        let out = value(
            r#"[{"name": "bare"}, {"account": {"name": "no id"}}, {"account": {"integrationId": ""}}, {"account": {"integrationId": "1"}, "extra": 1}, null, {"account": {"integrationId": "2"}}]"#,
        );
        let (records, rejected) = records_of(&out, "account", "batchReadResponse").unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].external_id, "2");
        assert_eq!(
            rejected.iter().map(|r| r.index).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert!(
            rejected[0].reason.contains("an object where a record"),
            "{}",
            rejected[0].reason
        );
        assert!(
            rejected[1]
                .reason
                .contains("gives `account.integrationId` nothing"),
            "{}",
            rejected[1].reason
        );
        assert!(
            rejected[2].reason.contains("an empty string"),
            "{}",
            rejected[2].reason
        );
        assert!(
            rejected[3].reason.contains("`extra` beside `account`"),
            "{}",
            rejected[3].reason
        );
        assert!(
            rejected[4].reason.contains("made null"),
            "{}",
            rejected[4].reason
        );
    }

    #[test]
    fn null_is_no_record() {
        let (records, rejected) = records_of(&Value::Null, "account", "batchReadResponse").unwrap();
        assert!(records.is_empty() && rejected.is_empty());
    }

    #[test]
    fn an_output_that_is_no_list_of_records_fails_the_page() {
        let e = records_of(&value("\"x\""), "account", "batchReadResponse").unwrap_err();
        assert!(e.contains("made a string"), "{e}");
    }
}
