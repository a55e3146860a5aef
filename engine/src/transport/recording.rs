//! The recording transport: answers from responses given per step, or synthesises one from
//! the operation's sample, and keeps every request it was sent.

use std::collections::HashMap;
use std::sync::Mutex;

use bytes::Bytes;
use futures::future::BoxFuture;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::Value as Json;

use super::{HttpRequest, HttpResponse, Transport, TransportError};

/// A response to play back for a step.
#[derive(Clone, Debug, PartialEq)]
pub struct StepResponse {
    /// Status code (default 200).
    pub status: u16,
    /// Headers.
    pub headers: Vec<(String, String)>,
    /// JSON body (`null` sends an empty body).
    pub body: Json,
}

impl StepResponse {
    /// A response with `status` and a JSON `body`.
    #[must_use]
    pub fn json(status: u16, body: Json) -> Self {
        StepResponse {
            status,
            headers: Vec::new(),
            body,
        }
    }

    /// Reads `{"status": 200, "headers": {...}, "body": ...}`; every member is optional.
    ///
    /// # Errors
    /// A message naming the member at fault.
    pub fn from_json(value: &Json) -> Result<StepResponse, String> {
        let Some(obj) = value.as_object() else {
            return Err(format!(
                "expected an object with `status`, `headers` and `body`, found {}",
                type_name(value)
            ));
        };
        if let Some(unknown) = obj
            .keys()
            .find(|k| !matches!(k.as_str(), "status" | "headers" | "body"))
        {
            return Err(format!(
                "unknown member `{unknown}`: a response has `status`, `headers` and `body`"
            ));
        }
        let status = match obj.get("status") {
            None => 200,
            Some(s) => s
                .as_u64()
                .and_then(|n| u16::try_from(n).ok())
                .filter(|n| (100..600).contains(n))
                .ok_or_else(|| format!("`status` must be an HTTP status code, found {s}"))?,
        };
        let headers = match obj.get("headers") {
            None => Vec::new(),
            Some(Json::Object(h)) => h
                .iter()
                .map(|(k, v)| match v {
                    Json::String(s) => {
                        header(k, s)?;
                        Ok((k.clone(), s.clone()))
                    }
                    other => Err(format!("header `{k}` must be a string, found {other}")),
                })
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(format!(
                    "`headers` must be an object of strings, found {}",
                    type_name(other)
                ));
            }
        };
        Ok(StepResponse {
            status,
            headers,
            body: obj.get("body").cloned().unwrap_or(Json::Null),
        })
    }

    fn to_http(&self) -> Result<HttpResponse, TransportError> {
        let mut headers = HeaderMap::with_capacity(self.headers.len() + 1);
        for (name, value) in &self.headers {
            let (name, value) = header(name, value).map_err(TransportError::NoResponse)?;
            headers.append(name, value);
        }
        let body = if self.body.is_null() {
            Bytes::new()
        } else {
            if !headers.contains_key(CONTENT_TYPE) {
                headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
            }
            Bytes::from(self.body.to_string())
        };
        Ok(HttpResponse {
            status: self.status,
            headers,
            body,
            synthesized: false,
        })
    }
}

/// A header to play back, as HTTP allows it.
fn header(name: &str, value: &str) -> Result<(HeaderName, HeaderValue), String> {
    let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
        format!("`{name}` is not a valid HTTP header name (letters, digits and `-`, no spaces)")
    })?;
    let value = HeaderValue::from_str(value).map_err(|_| {
        format!("the value of header `{name}` has a line break or control character, which HTTP does not allow")
    })?;
    Ok((name, value))
}

fn type_name(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// Answers each request from the responses given for its step, in order (the last one repeats),
/// or, for a step without any, with a response synthesised from the operation's example or
/// schema (marked [`HttpResponse::synthesized`]). Keeps every request for inspection.
#[derive(Debug, Default)]
pub struct RecordingTransport {
    responses: HashMap<String, Vec<StepResponse>>,
    synthesize: bool,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    sent: Vec<HttpRequest>,
    served: HashMap<String, usize>,
}

impl RecordingTransport {
    /// A transport that synthesises every response.
    #[must_use]
    pub fn synthesizing() -> Self {
        RecordingTransport {
            synthesize: true,
            ..RecordingTransport::default()
        }
    }

    /// Adds a response for `step`; several for one step are served in order.
    #[must_use]
    pub fn with_response(mut self, step: impl Into<String>, response: StepResponse) -> Self {
        self.responses
            .entry(step.into())
            .or_default()
            .push(response);
        self
    }

    /// Whether steps without a given response get a synthesised one (default for
    /// [`RecordingTransport::synthesizing`]) or fail.
    #[must_use]
    pub fn with_synthesis(mut self, on: bool) -> Self {
        self.synthesize = on;
        self
    }

    /// Reads `{"<step>": response or [responses...]}` (the `--responses` file of `syncdef
    /// dry-run`), synthesising the steps it does not name.
    ///
    /// # Errors
    /// A message naming the step and member at fault.
    pub fn from_json(value: &Json) -> Result<Self, String> {
        let Some(steps) = value.as_object() else {
            return Err(format!(
                "the responses must be an object mapping step names (`create`, `update`, an action's name) to responses, found {}",
                type_name(value)
            ));
        };
        let mut transport = RecordingTransport::synthesizing();
        for (step, given) in steps {
            let list = match given {
                Json::Array(items) => items.iter().collect(),
                one => vec![one],
            };
            for (i, r) in list.into_iter().enumerate() {
                let response = StepResponse::from_json(r).map_err(|e| {
                    if matches!(given, Json::Array(_)) {
                        format!("step `{step}`, response {}: {e}", i + 1)
                    } else {
                        format!("step `{step}`: {e}")
                    }
                })?;
                transport = transport.with_response(step.clone(), response);
            }
        }
        Ok(transport)
    }

    /// Every request received so far, in order.
    #[must_use]
    pub fn requests(&self) -> Vec<HttpRequest> {
        self.state
            .lock()
            .map(|s| s.sent.clone())
            .unwrap_or_default()
    }

    fn answer(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        // A poisoned lock only means another task panicked mid-record; the data is still valid.
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        state.sent.push(request.clone());
        if let Some(list) = self.responses.get(&*request.step) {
            let n = state.served.entry(request.step.to_string()).or_insert(0);
            let response = list.get(*n).or_else(|| list.last());
            *n += 1;
            if let Some(response) = response {
                return response.to_http();
            }
        }
        if !self.synthesize {
            return Err(TransportError::NoResponse(format!(
                "no response given for step `{}`",
                request.step
            )));
        }
        let Some(sample) = &request.sample else {
            return Ok(HttpResponse {
                status: 200,
                synthesized: true,
                ..HttpResponse::default()
            });
        };
        let mut response = StepResponse::json(sample.status, sample.body.clone()).to_http()?;
        response.synthesized = true;
        Ok(response)
    }
}

impl Transport for RecordingTransport {
    fn send<'a>(
        &'a self,
        request: &'a HttpRequest,
    ) -> BoxFuture<'a, Result<HttpResponse, TransportError>> {
        Box::pin(std::future::ready(self.answer(request)))
    }

    fn replays(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn headers_given_are_played_back_and_read_case_insensitively() {
        let given = json!({"status": 201, "headers": {"ETag": "W/\"7\"", "Retry-After": "3"}, "body": {"Id": 1}});
        let response = StepResponse::from_json(&given).unwrap().to_http().unwrap();
        assert_eq!(response.header("etag"), Some("W/\"7\""));
        assert_eq!(response.header("RETRY-AFTER"), Some("3"));
        // A JSON body gets its content type unless one is given.
        assert_eq!(response.header("Content-Type"), Some("application/json"));
        assert_eq!(
            response.header_pairs(),
            [
                ("etag".to_owned(), "W/\"7\"".to_owned()),
                ("retry-after".to_owned(), "3".to_owned()),
                ("content-type".to_owned(), "application/json".to_owned()),
            ]
        );
    }

    #[test]
    fn a_header_http_cannot_carry_is_refused_by_name() {
        let bad_name = json!({"headers": {"If Match": "1"}});
        assert_eq!(
            StepResponse::from_json(&bad_name).unwrap_err(),
            "`If Match` is not a valid HTTP header name (letters, digits and `-`, no spaces)"
        );
        let bad_value = json!({"headers": {"ETag": "1\r\nX-Injected: 1"}});
        assert_eq!(
            StepResponse::from_json(&bad_value).unwrap_err(),
            "the value of header `etag` has a line break or control character, which HTTP does not allow"
        );
        // Built in code rather than read: refused when played back, not panicking.
        let built = StepResponse {
            headers: vec![("If Match".to_owned(), "1".to_owned())],
            ..StepResponse::json(200, Json::Null)
        };
        assert!(
            matches!(built.to_http(), Err(TransportError::NoResponse(m)) if m.contains("`If Match`"))
        );
    }
}
