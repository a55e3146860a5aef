//! Making a request from its call plan: the body from the request template, the URL with its
//! placeholders filled, the headers pre-actions set, and the idempotency key.

use std::sync::Arc;

use bytes::Bytes;
use syncdef_transform::Value;

use crate::call::scope::Scope;
use crate::call::trail::Trail;
use crate::error::EngineError;
use crate::outcome::MaskedJson;
use crate::plan::CallPlan;
use crate::reliability::{IdempotencyKey, idempotency};
use crate::request::Target;

/// A request body: the bytes sent, the JSON text the template wrote, and the JSON shown in
/// the audit trail, which reads that text. For a JSON body the bytes are the JSON text; a form
/// or a multipart body is written from it, and is shown and kept (a create's body, for a
/// lookup) as the JSON value it was written from, whose members the masking reads by name.
pub(crate) struct Body {
    pub bytes: Bytes,
    pub json: Bytes,
    pub shown: MaskedJson,
    /// Its `Content-Type`, when it is not `application/json`.
    pub content_type: Option<Arc<str>>,
}

/// The URL of `call` in `scope`: its placeholders filled, and the query parameters
/// `x-syncdef.parameters` gives its operation added.
pub(crate) fn target(call: &CallPlan, scope: &Scope<'_>) -> Result<Target, EngineError> {
    let mut target = call
        .target(scope.server, &scope.fill())
        .map_err(|e| e.at(&call.step))?;
    if !call.parameters.is_empty() {
        let mut added = Ok(());
        target.edit(|url| added = call.parameters.add_query(&scope.server.variables, url));
        added.map_err(|e| unfilled(call, &e))?;
    }
    Ok(target)
}

/// The headers `x-syncdef.parameters` gives the operation of `call`, for a request in `scope`.
pub(crate) fn parameter_headers(
    call: &CallPlan,
    scope: &Scope<'_>,
) -> Result<Vec<(String, String)>, EngineError> {
    call.parameters
        .headers(&scope.server.variables)
        .map_err(|e| unfilled(call, &e))
}

/// A parameter value `x-syncdef.parameters` gives that cannot be filled.
fn unfilled(call: &CallPlan, problem: &str) -> EngineError {
    EngineError::configuration(format!("the parameters of `{}`: {problem}", call.reference))
        .at(&call.step)
}

/// A request ready to send.
pub(crate) struct Outgoing {
    pub target: Target,
    pub body: Option<Body>,
    /// Headers beyond the standard ones: set by `in: Header` actions, the idempotency key.
    pub headers: Vec<(String, String)>,
    /// The idempotency key it carries.
    pub idempotency_key: Option<Arc<str>>,
}

/// Where a request's idempotency key comes from.
pub(crate) enum KeySource<'a> {
    /// Derived from the entry, the record and the body: the same version of a record always
    /// gets the same key.
    Derived { entry: &'a str, record: &'a Value },
    /// Kept from an earlier create whose outcome is unknown: sent again whatever the body, so
    /// that the external system answers the repeat it may be.
    Kept(&'a str),
}

/// The request `call` makes in `scope`: its body rendered, its URL built, `headers` added, and
/// `key` applied when the definition declares one for it. Headers read by `in: Header` actions
/// go on the record's own request only, not on actions' calls.
pub(crate) fn request(
    trail: &mut Trail,
    call: &CallPlan,
    scope: &Scope<'_>,
    input: &Value,
    mut headers: Vec<(String, String)>,
    key: Option<(&IdempotencyKey, KeySource<'_>)>,
) -> Result<Outgoing, EngineError> {
    let body = body(trail, call, input)?;
    let mut target = target(call, scope)?;
    headers.extend(parameter_headers(call, scope)?);
    let idempotency_key = key.map(|(declared, source)| {
        let value: Arc<str> = match source {
            KeySource::Kept(kept) => Arc::from(kept),
            KeySource::Derived { entry, record } => {
                let bytes = body.as_ref().map_or(&[][..], |b| &b.bytes[..]);
                Arc::from(idempotency::derive(entry, record, bytes))
            }
        };
        target.edit(|url| declared.apply(&value, url, &mut headers));
        value
    });
    Ok(Outgoing {
        target,
        body,
        headers,
        idempotency_key,
    })
}

/// The body of `call` from its `{step}Request` template, serialized as the template language
/// writes it (keeping .NET number forms such as `2.10`).
pub(crate) fn body(
    trail: &mut Trail,
    call: &CallPlan,
    input: &Value,
) -> Result<Option<Body>, EngineError> {
    let step = &*call.step;
    let Some(template) = &call.request else {
        return no_body(call);
    };
    let related = input.get("related");
    if let Some(entry) = call
        .related_reads
        .iter()
        .find(|entry| related.and_then(|r| r.get(entry)).is_none())
    {
        return Err(EngineError::configuration(format!(
            "`{step}Request` reads `$.related.{entry}.IntegrationId`, the external id of the \
             related `{entry}`, which is not known; pass it in the record state \
             (`--related {entry}=ID`) or push the `{entry}` first"
        ))
        .at(step));
    }
    let mut text = String::with_capacity(512);
    let proven = call.render_body(template, input, &mut text).map_err(|e| {
        EngineError::configuration(format!("the template `{step}Request` failed: {e}")).at(step)
    })?;
    if text == "null" {
        trail.template(Arc::clone(&call.request_name), MaskedJson::null());
        return no_body(call);
    }
    // The JSON text, shared by every attempt and by the audit trail's record of it.
    let json = Bytes::from(text.into_bytes());
    let shown = MaskedJson::from_sent(json.clone());
    trail.template(Arc::clone(&call.request_name), shown.clone());
    call.check_body(&json, proven)?;
    let written = call.body_media.write(&json).map_err(|refused| {
        let at = if refused.pointer.is_empty() {
            "the body".to_owned()
        } else {
            format!("`{}`", refused.pointer)
        };
        EngineError::configuration(format!(
            "the body `{}` rendered cannot be written as `{}`, the media type `{}` takes, so nothing was sent: at {at}, {}",
            call.request_name,
            call.body_media.name(),
            call.reference,
            refused.reason
        ))
        .at(step)
    })?;
    Ok(Some(Body {
        bytes: written.bytes,
        json,
        shown,
        content_type: written.content_type,
    }))
}

/// A call without a body: refused when its operation's `requestBody` is `required`, which the
/// external system would refuse too (lint: SD401 for a missing template, SD802 for one that
/// writes `null`).
fn no_body(call: &CallPlan) -> Result<Option<Body>, EngineError> {
    if !call.body_required {
        return Ok(None);
    }
    let step = &*call.step;
    Err(EngineError::configuration(format!(
        "`{}` requires a request body, and the {step} has none: add `{}` under `schemasTransformer`, writing the body",
        call.reference, call.request_name
    ))
    .at(step))
}
