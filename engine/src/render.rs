//! The two renderings of an outcome that `syncdef push` and `syncdef push --dry-run` print: a JSON
//! document for tools and a text for people. Both show masked data only.

use std::fmt::Write;

use serde_json::{Value as Json, json};
use syncdef_definitions::template_names;

use crate::outcome::{Exchange, PushOutcome, PushStatus, RepeatedCreate};
use crate::plan::OperationKind;

/// `{"entry", "operation", "requests": [{"step", "method", "url", "headers", "body",
/// "response"}], "outcome"}`: requests in the order sent (retries included), bodies as JSON,
/// each with the response it got (`synthesized: true` when a dry-run made it up); `outcome`
/// is the [`PushOutcome`] without its exchanges (they are the requests).
#[must_use]
pub fn json_report(outcome: &PushOutcome) -> Json {
    let requests: Vec<Json> = outcome.exchanges.iter().map(request_json).collect();
    let mut result = serde_json::to_value(outcome).unwrap_or(Json::Null);
    if let Some(obj) = result.as_object_mut() {
        obj.remove("exchanges");
    }
    json!({
        "entry": outcome.entry,
        "operation": outcome.operation.map(OperationKind::as_str),
        "requests": requests,
        "outcome": result,
    })
}

fn request_json(e: &Exchange) -> Json {
    let headers: serde_json::Map<String, Json> = e
        .request
        .headers
        .iter()
        .map(|(k, v)| (k.clone(), Json::String(v.clone())))
        .collect();
    let response = e.response.as_ref().map_or(Json::Null, |r| {
        json!({
            "status": r.status,
            "headers": r.headers.iter().map(|(k, v)| (k.clone(), Json::String(v.clone()))).collect::<serde_json::Map<_, _>>(),
            "body": r.body,
            "synthesized": r.synthesized,
        })
    });
    let mut out = json!({
        "step": e.step,
        "method": e.request.method,
        "url": e.request.url,
        "headers": headers,
        "body": e.request.body,
        "response": response,
    });
    if let (Some(error), Some(obj)) = (&e.error, out.as_object_mut()) {
        obj.insert("error".into(), Json::String(error.clone()));
    }
    out
}

/// A readable account of the push: each request with its headers, body and response, each
/// template's output, the result and the notes.
#[must_use]
pub fn human_report(outcome: &PushOutcome) -> String {
    let mut out = String::new();
    let operation = outcome.operation.map_or("no operation", |o| o.as_str());
    let _ = writeln!(out, "{} ({operation})", outcome.entry);
    for (i, e) in outcome.exchanges.iter().enumerate() {
        let retry = if e.attempt > 1 {
            format!(" (attempt {})", e.attempt)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "\n{}. {}{retry}: {} {}",
            i + 1,
            e.step,
            e.request.method,
            e.request.url
        );
        for (k, v) in &e.request.headers {
            let _ = writeln!(out, "   {k}: {v}");
        }
        if !e.request.body.is_null() {
            let template = template_names::request_name(&e.step);
            if outcome.templates.iter().any(|t| *t.name == template) {
                let _ = writeln!(out, "   body ({template}):");
            } else {
                let _ = writeln!(out, "   body:");
            }
            indent(&mut out, &e.request.body, 5);
        }
        match (&e.response, &e.error) {
            (Some(r), _) => {
                let made_up = if r.synthesized { " (synthesised)" } else { "" };
                let _ = writeln!(out, "   -> {}{made_up}", r.status);
                if !r.body.is_null() {
                    indent(&mut out, &r.body, 5);
                }
            }
            (None, Some(error)) => {
                let _ = writeln!(out, "   -> no response: {error}");
            }
            (None, None) => {}
        }
    }
    let responses: Vec<_> = outcome
        .templates
        .iter()
        .filter(|t| template_names::is_response_template(&t.name))
        .collect();
    for t in responses {
        let _ = writeln!(out, "\n{} gives:", t.name);
        indent(&mut out, &t.output, 3);
    }
    let _ = writeln!(out);
    match outcome.status {
        PushStatus::Failed => {
            let _ = writeln!(out, "failed");
        }
        status => {
            let status = serde_json::to_value(status)
                .ok()
                .and_then(|s| s.as_str().map(str::to_owned))
                .unwrap_or_default();
            let id = outcome.external_id().unwrap_or("(none)");
            let _ = writeln!(out, "{status}: external id {id}");
        }
    }
    if let Some(repeat) = outcome.repeated_create {
        let _ = writeln!(out, "{}", repeated_create_line(repeat));
    }
    if let Some(e) = &outcome.error {
        let _ = writeln!(out, "{}", error_line("error", e));
    }
    for m in &outcome.errors {
        let _ = writeln!(out, "  external error: {m}");
    }
    if let Some(e) = &outcome.post_action_error {
        let _ = writeln!(out, "{}", error_line("post-action error", e));
    }
    for n in &outcome.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

/// What a create sent again under an earlier create's idempotency key came to, for people.
fn repeated_create_line(repeat: RepeatedCreate) -> &'static str {
    match repeat {
        RepeatedCreate::SameRecord => {
            "repeated create: sent again under the earlier create's idempotency key with the same body; the record there holds this version whichever create made it"
        }
        RepeatedCreate::Updated => {
            "repeated create: sent again under the earlier create's idempotency key, so the external system may have answered with that create; updated it with the record as it is now"
        }
        RepeatedCreate::NotUpdated => {
            "repeated create: sent again under the earlier create's idempotency key, so the external system may have answered with that create; the entry has no `push.update`, so the record there may hold the earlier version"
        }
    }
}

fn error_line(what: &str, e: &crate::error::EngineError) -> String {
    match &e.step {
        Some(step) => format!("{what} [{}] in step `{step}`: {}", e.class, e.message),
        None => format!("{what} [{}]: {}", e.class, e.message),
    }
}

fn indent(out: &mut String, value: &Json, by: usize) {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    for line in text.lines() {
        let _ = writeln!(out, "{:by$}{line}", "");
    }
}
