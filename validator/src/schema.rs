//! A JSON Schema of the `synchronization` extension, for editors (`syncdef schema`).
//!
//! Draft-07: the YAML language server (VS Code's YAML extension, and JetBrains IDEs) supports it
//! fully, including `if`/`then`, and it is the draft editors' schema stores default to. The
//! schema describes a whole definition file but constrains only `synchronization` and
//! `x-synchronization`; the OpenAPI part is left to an OpenAPI schema (see
//! `docs/editor-setup.md`). Module names and template names come from the same tables the rules
//! use, so the schema and the linter cannot disagree.

use serde_json::{Map, Value, json};
use syncdef_definitions::operation::Operation;

use crate::platform::MODULES;
use crate::templates::{Need, OPERATIONS, request_name, response_name};

/// The `$id` of the schema.
pub const SCHEMA_ID: &str =
    "https://github.com/syncdef/syncdef/blob/main/docs/synchronization.schema.json";

/// The lower-case HTTP methods an operation reference may end with.
const METHODS: &str = "get|put|post|delete|options|head|patch|trace";

/// `x-syncdef`: how the external system behaves under load and conflicts, read by the push
/// engine (docs/reliability.md).
#[expect(
    clippy::too_many_lines,
    reason = "the JSON Schema of `x-syncdef` as one literal, shaped like the documents it describes"
)]
fn reliability_extension() -> Value {
    let ms = |what: &str| json!({ "type": "integer", "minimum": 0, "description": what });
    let push_keys: Vec<&str> = Operation::PUSH.iter().map(|o| o.key()).collect();
    json!({
        "type": "object",
        "description": "How the push engine treats the external system: retries, rate limits, stale concurrency tokens, idempotency keys, request body validation (docs/reliability.md).",
        "additionalProperties": false,
        "properties": {
            "retry": {
                "type": "object",
                "additionalProperties": false,
                "description": "Retries of transient failures (429, 502, 503, 504, connection errors) with exponential backoff and full jitter; `Retry-After` is honoured.",
                "properties": {
                    "maxAttempts": { "type": "integer", "minimum": 1, "description": "Attempts at most, the first included (1: no retry). Default 4." },
                    "initialBackoffMs": ms("Upper bound of the first backoff, in milliseconds. Default 500."),
                    "maxBackoffMs": ms("Largest backoff (and largest `Retry-After` honoured), in milliseconds. Default 30000."),
                    "deadlineMs": ms("Time allowed for a request and its retries, in milliseconds. Default 120000."),
                    "statuses": {
                        "type": "array",
                        "items": { "type": "integer", "minimum": 400, "maximum": 599 },
                        "description": "Statuses retried. Default [429, 502, 503, 504]; 429 and 503 are retried for any request, the others only for requests safe to repeat."
                    }
                }
            },
            "rateLimit": {
                "type": "object",
                "additionalProperties": false,
                "description": "Per-account throttling, shared by every push of the process (and by every worker of a PostgreSQL state).",
                "properties": {
                    "key": {
                        "type": "array",
                        "items": { "type": "string" },
                        "description": "Server variables whose values, with the server's origin, identify the external account (`[realmId]`)."
                    },
                    "requestsPerMinute": { "type": "integer", "minimum": 1, "description": "Requests per window at most (a sliding window: every window, the first included)." },
                    "windowSeconds": { "type": "integer", "minimum": 1, "description": "The window `requestsPerMinute` counts over, in seconds. Default 60; shorter windows scale a vendor's limit down for tests and benchmarks." },
                    "concurrency": { "type": "integer", "minimum": 1, "description": "Requests in flight at most." }
                }
            },
            "conflicts": {
                "type": "array",
                "description": "How a stale concurrency token is reported; the engine then runs the pre-actions again and re-sends the update once. Default: [{status: 412}].",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["status"],
                    "properties": {
                        "status": { "type": "integer", "minimum": 100, "maximum": 599, "description": "The HTTP status of the conflict answer (412, 409, 400, ...)." },
                        "path": { "type": "string", "pattern": "^\\$", "description": "Where the code is in the JSON body: `$` then `.member`, `[n]`, `[*]` steps (`$.Fault.Error[*].code`)." },
                        "equals": { "type": "array", "items": { "type": "string" }, "description": "Values at `path` that mean a conflict (`[\"5010\"]`)." }
                    }
                }
            },
            "idempotency": {
                "type": "object",
                "additionalProperties": false,
                "required": ["in", "name"],
                "description": "An idempotency key the external system accepts (QuickBooks `requestid`): derived from the record, it makes a re-sent create safe.",
                "properties": {
                    "in": { "enum": ["query", "header"], "description": "Where the key is sent: a query parameter or a request header." },
                    "name": { "type": "string", "minLength": 1, "description": "The parameter or header name (`requestid` for QuickBooks)." },
                    "operations": {
                        "type": "array",
                        "items": { "enum": push_keys },
                        "description": "Operations that carry the key. Default [create]."
                    }
                }
            },
            "lookup": {
                "type": "object",
                "description": "Per entry, how to search the external system for a record that a create of unknown outcome (its answer lost) may have made, before the record is created again: one found is updated, none is created, several wait for a person.",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["path", "quote", "ids"],
                    "properties": {
                        "path": { "type": "string", "pattern": "/get$", "description": "The GET operation that searches (`/query/get`, `/customers/get`)." },
                        "query": {
                            "type": "object",
                            "additionalProperties": { "type": "string" },
                            "description": "Query parameters; `{body.Member}` is the member of the create's body as sent, written as a literal of the query language."
                        },
                        "quote": { "enum": ["odata", "quickbooks"], "description": "How body values are quoted: OData (`'O''Brien'`) or QuickBooks' query language (`'O\\'Brien'`)." },
                        "ids": { "type": "string", "pattern": "^\\$", "description": "JSONPath to the ids of the records found (`$.value[*].id`)." }
                    }
                }
            },
            "pull": {
                "type": "object",
                "description": "Per entry, how `pull.batchRead` pages through the external system (docs/pull.md).",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "query": {
                            "type": "object",
                            "additionalProperties": { "type": "string" },
                            "description": "Query parameters of every batchRead request; placeholders {offset} (0-based), {position} (1-based), {page}, {size}, {cursor} and {since} (the change time the pull starts from) are filled per page."
                        },
                        "headers": {
                            "type": "object",
                            "additionalProperties": { "type": "string" },
                            "description": "Request headers of every batchRead request, a next link's included (`If-Modified-Since: \"{since}\"`), with the query's placeholders."
                        },
                        "conflict": { "enum": ["platformWins", "externalWins", "newestWins"], "description": "Which side wins a record changed on the platform and in the external system since they last agreed. Default platformWins." },
                        "paging": {
                            "type": "object",
                            "additionalProperties": false,
                            "description": "How the pages of the answer follow one another.",
                            "properties": {
                                "style": { "enum": ["none", "offset", "page", "cursor", "nextLink"], "description": "How the next page is asked for. Default none (one request)." },
                                "size": { "type": "integer", "minimum": 1, "description": "Records a page holds at most; a shorter page is the last. Needed by offset and page." },
                                "next": { "type": "string", "minLength": 1, "description": "The field of the answer naming the next page: its cursor (style cursor) or its absolute URL (style nextLink), e.g. `@odata.nextLink`." }
                            }
                        }
                    }
                }
            },
            "requestValidation": {
                "type": "object",
                "additionalProperties": false,
                "description": "Every rendered request body is checked against its operation's request body schema before it is sent; a body that does not fit fails the record (class configuration) and is not sent. On by default.",
                "properties": {
                    "skip": {
                        "type": "array",
                        "items": { "type": "string", "minLength": 1 },
                        "uniqueItems": true,
                        "description": "Entries (keys of `synchronization`) whose request bodies are sent unchecked, for a schema stricter than the external system."
                    }
                }
            },
            "requestMediaType": {
                "type": "object",
                "description": "The media type each entry's request bodies are written in, by entry (a key of `synchronization`), where its operations declare several; JSON is chosen otherwise. Every operation of the entry that takes a body must declare it.",
                "additionalProperties": {
                    "type": "string",
                    "minLength": 1,
                    "examples": ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]
                }
            },
            "parameters": {
                "type": "object",
                "additionalProperties": false,
                "description": "Values of header and query parameters the operations declare (a tenant header every request carries), sent on every request to an operation that declares the parameter. `{name}` placeholders name server variables, so each company's requests carry its own value.",
                "properties": {
                    "header": {
                        "type": "object",
                        "description": "Request headers by name (any case). Not `Accept`, `Content-Type` or `Authorization`, which the engine writes.",
                        "additionalProperties": { "type": "string", "examples": ["{tenantId}"] }
                    },
                    "query": {
                        "type": "object",
                        "description": "Query parameters by name.",
                        "additionalProperties": { "type": "string" }
                    }
                }
            }
        }
    })
}

/// `x-syncdef-records`: fields of platform records the spec does not list, by record definition
/// (docs/platform-records.md).
fn records_extension() -> Value {
    let names: Vec<&str> = syncdef_definitions::platform::builtin()
        .definition_names()
        .collect();
    json!({
        "type": "object",
        "description": "Extends the platform record schema (`syncdef schema --records`) with fields the spec does not list, such as custom fields. Keys are record definitions.",
        "propertyNames": { "enum": names },
        "additionalProperties": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "description": { "type": "string", "description": "Why the fields are there (for readers; not used)." },
                "properties": {
                    "type": "object",
                    "description": "Fields to add (or whose shipped schema to replace), each a JSON Schema such as `{type: string}`.",
                    "additionalProperties": { "type": ["object", "boolean"] }
                },
                "additionalProperties": {
                    "type": "boolean",
                    "description": "`true` accepts any field of this record (its reads are no longer checked)."
                }
            }
        }
    })
}

/// The JSON Schema (draft-07) of a definition's `synchronization` section.
#[must_use]
pub fn synchronization_schema() -> Value {
    let mut schema = sections_schema();
    accept_ignore_everywhere(&mut schema);
    schema["definitions"]["ignore"] = json!({
        "description": "Rule codes `syncdef lint` does not report at this object or beneath it, one or a list (docs/configuration.md, \"Suppressing findings\"). Taken out of the document before anything else reads it.",
        "oneOf": [
            { "type": "string", "pattern": CODE_PATTERN },
            { "type": "array", "items": { "type": "string", "pattern": CODE_PATTERN } }
        ]
    });
    schema
}

/// A rule code, in any case.
const CODE_PATTERN: &str = "^[Ss][Dd][0-9]{3}$";

/// `x-syncdef-ignore` may be written on every object (see [`syncdef_definitions::ignore`]),
/// also where the schema maps names (entries, actions, templates) or allows no other key.
fn accept_ignore_everywhere(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            if object.get("type").and_then(Value::as_str) == Some("object") {
                let properties = object
                    .entry("properties")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Some(properties) = properties.as_object_mut() {
                    properties.insert(
                        syncdef_definitions::ignore::IGNORE_KEY.to_owned(),
                        json!({ "$ref": "#/definitions/ignore" }),
                    );
                }
            }
            for child in object.values_mut() {
                accept_ignore_everywhere(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(accept_ignore_everywhere),
        _ => {}
    }
}

/// The schema of the sections, before `x-syncdef-ignore` is added to each object.
fn sections_schema() -> Value {
    let operation_ref = json!({
        "type": "string",
        "description": "An operation of the external system: the path as written under `paths` (path parameters filled with a literal, `{IntegrationId}`, `{<Entry>.IntegrationId}` or a server variable), then `/` and the lower-case HTTP method. Example: `/v3/company/{realmId}/customer/post`.",
        "pattern": format!("^/.*/({METHODS})$"),
    });
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": SCHEMA_ID,
        "title": "syncdef synchronization definition",
        "description": "An OpenAPI 3.0 document describing an external system, extended with a top-level `synchronization` section that says how the platform's records are pushed to (and pulled from) it.",
        "type": "object",
        "properties": {
            "synchronization": { "$ref": "#/definitions/synchronization" },
            "x-synchronization": {
                "$ref": "#/definitions/synchronization",
                "description": "The `synchronization` section under an OpenAPI extension key, for tools that reject unknown top-level keys. Use one of the two keys, not both."
            },
            "x-syncdef": reliability_extension(),
            "x-syncdef-records": records_extension()
        },
        "definitions": {
            "synchronization": {
                "type": "object",
                "description": "Entries keyed by entity name (`Customer`, `Invoice`): how each kind of platform record is synchronized. The key is how other entries refer to it (`{Customer.IntegrationId}`, `ApiSynchronization` paths).",
                "additionalProperties": { "$ref": "#/definitions/entry" }
            },
            "entry": {
                "type": "object",
                "description": "How one kind of platform record is synchronized with the external system.",
                "required": ["module"],
                "properties": {
                    "description": { "type": "string", "description": "A short description of the entry, shown in the integration's settings." },
                    "module": {
                        "description": "The platform module whose records this entry synchronizes. It decides the record root templates read (`$.account` for `Accounts`...).",
                        "enum": MODULES.iter().map(|m| m.name).collect::<Vec<_>>(),
                        "markdownEnumDescriptions": MODULES.iter().map(|m| format!("records read as `$.{}`", m.root)).collect::<Vec<_>>()
                    },
                    "push": { "$ref": "#/definitions/push" },
                    "pull": { "$ref": "#/definitions/pull" }
                },
                "patternProperties": { "^x-": { "description": "An extension, ignored by syncdef." } },
                "additionalProperties": false
            },
            "push": method_schema("push", "Sending platform records to the external system.", &operation_ref),
            "pull": method_schema("pull", "Receiving records from the external system.", &operation_ref),
            "actions": {
                "type": "object",
                "description": "Actions keyed by name, run in document order.",
                "additionalProperties": { "$ref": "#/definitions/action" }
            },
            "action": {
                "type": "object",
                "description": "A call made before or after the push, or another synchronization run with it.",
                "required": ["type", "path"],
                "properties": {
                    "type": {
                        "description": "`ApiPath` calls an operation of the external system; `ApiSynchronization` synchronizes a child collection of the module (`InvoiceItems`) or another entry.",
                        "enum": ["ApiPath", "ApiSynchronization"]
                    },
                    "path": {
                        "type": "string",
                        "description": "For `ApiPath`, an operation reference (`/customer/{IntegrationId}/get`); for `ApiSynchronization`, the child collection or entry to synchronize."
                    },
                    "schema": { "$ref": "#/definitions/actionSchema" },
                    "in": {
                        "description": "Where the value read by the action goes: `Body` (templates read it as `$.syncToken`) or `Header` (the header named by `schema.header`).",
                        "enum": ["Body", "Header"]
                    }
                },
                "allOf": [
                    {
                        "if": { "properties": { "type": { "const": "ApiPath" } } },
                        "then": { "properties": { "path": operation_ref } }
                    },
                    {
                        "if": { "properties": { "in": { "const": "Header" } }, "required": ["in"] },
                        "then": { "properties": { "schema": { "required": ["header", "headerValue"] } }, "required": ["schema"] }
                    }
                ],
                "patternProperties": { "^x-": { "description": "An extension, ignored by syncdef." } },
                "additionalProperties": false
            },
            "actionSchema": {
                "type": "object",
                "description": "What the action reads from the response. Every other key maps a name to the response field it is read from (`SyncToken: Customer.SyncToken`).",
                "properties": {
                    "type": { "description": "The type of the value read.", "enum": ["String"] },
                    "header": { "type": "string", "description": "For `in: Header`: the request header to send (`If-Match`)." },
                    "headerValue": { "type": "string", "description": "For `in: Header`: the response field that supplies the header's value (`@odata.etag`)." }
                },
                "additionalProperties": { "type": "string", "description": "The response field this value is read from." }
            },
            "templates": templates_schema(),
            "template": {
                "description": "A transformation template (JUST syntax: `#valueof($.account.name)`, `#ifcondition(...)`), written as an object, or as a string holding JSON text.",
                "type": ["object", "array", "string"]
            }
        }
    })
}

fn method_schema(section: &str, description: &str, operation_ref: &Value) -> Value {
    let mut properties = Map::new();
    for op in OPERATIONS.iter().filter(|o| o.section == section) {
        let mut schema = operation_ref.clone();
        schema["description"] = Value::String(format!(
            "The `{}` operation. {}",
            op.operation,
            operation_ref["description"].as_str().unwrap_or_default()
        ));
        properties.insert(op.operation.to_owned(), schema);
    }
    properties.insert(
        "preSynchronizationAction".into(),
        json!({ "$ref": "#/definitions/actions", "description": "Actions run before the operation: fetch a concurrency token, push a parent record first." }),
    );
    properties.insert(
        "postSynchronizationAction".into(),
        json!({ "$ref": "#/definitions/actions", "description": "Actions run after the operation: push child records." }),
    );
    properties.insert(
        "schemasTransformer".into(),
        json!({ "$ref": "#/definitions/templates" }),
    );
    properties.insert(
        "statements".into(),
        json!({ "description": "The vendor's statements: accepted, not executed by syncdef." }),
    );
    json!({
        "type": "object",
        "description": description,
        "properties": properties,
        "patternProperties": { "^x-": { "description": "An extension, ignored by syncdef." } },
        "additionalProperties": false
    })
}

fn templates_schema() -> Value {
    let mut properties = Map::new();
    for op in OPERATIONS {
        for (name, need, what) in [
            (
                request_name(op.operation),
                op.request,
                "builds the body sent",
            ),
            (
                response_name(op.operation),
                op.response,
                "reads the external system's answer",
            ),
        ] {
            let need = match need {
                Need::Required => "required when the entry declares it",
                Need::WhenBody => "required when its operation has a request body",
                Need::Optional => "optional",
            };
            properties.insert(
                name,
                json!({
                    "$ref": "#/definitions/template",
                    "description": format!("The template of `{}.{}` that {what} ({need}).", op.section, op.operation)
                }),
            );
        }
    }
    json!({
        "type": "object",
        "description": "Templates named `{operation}Request` and `{operation}Response`, one per use.",
        "properties": properties,
        "additionalProperties": { "$ref": "#/definitions/template" }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every property schema carries a description, so editors show help on hover.
    #[test]
    fn every_property_is_described() {
        fn visit(value: &Value, path: &str, missing: &mut Vec<String>) {
            let Some(object) = value.as_object() else {
                return;
            };
            if let Some(props) = object.get("properties").and_then(Value::as_object) {
                for (name, schema) in props {
                    let described = schema.get("description").is_some()
                        || schema.get("$ref").is_some_and(|r| {
                            r.as_str().is_some_and(|r| r.starts_with("#/definitions/"))
                        });
                    if !described {
                        missing.push(format!("{path}/{name}"));
                    }
                }
            }
            for (key, child) in object {
                // A `properties` map holds schemas by name, not a schema: a property may be
                // called `properties` itself (`x-syncdef-records`).
                match (key.as_str(), child.as_object()) {
                    ("properties", Some(props)) => {
                        for (name, schema) in props {
                            visit(schema, &format!("{path}/properties/{name}"), missing);
                        }
                    }
                    _ => visit(child, &format!("{path}/{key}"), missing),
                }
            }
        }
        let schema = synchronization_schema();
        let mut missing = Vec::new();
        visit(&schema, "", &mut missing);
        assert!(missing.is_empty(), "{missing:#?}");
        for (name, def) in schema["definitions"].as_object().unwrap() {
            assert!(
                def.get("description").is_some(),
                "definition {name} has no description"
            );
        }
    }
}
