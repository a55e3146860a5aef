//! The answer to one request, as the engine reads it, and its status check: a non-2xx
//! answer fails the step, classified.

use std::sync::Arc;
use std::time::Duration;

use crate::call::trail::Trail;
use crate::error::{EngineError, ErrorClass};
use crate::extract::{self, ResponseBody};
use crate::received::Received;
use crate::reliability::retry;
use crate::transport::HttpResponse;

/// A response, shared with the audit trail's record of it, and how the engine reads it.
pub(crate) struct Answer {
    pub received: Arc<Received>,
    /// Why the request's outcome is unknown whatever this answer says: an attempt may have
    /// been carried out (no answer, a gateway or server error) and carrying the request out
    /// twice would duplicate it. `None` when the answer can be taken at its word.
    pub unknown_outcome: Option<String>,
    /// For a retryable failure given up on: how long to wait before pushing again.
    pub retry_after: Option<Duration>,
}

impl Answer {
    pub fn response(&self) -> &HttpResponse {
        &self.received.response
    }

    pub fn body(&self) -> &ResponseBody {
        &self.received.body
    }
}

/// A non-2xx answer is a failed step: the external system's messages are kept, and the status
/// gives the class (unknown when an attempt may have been carried out).
pub(crate) fn check_status(
    trail: &mut Trail,
    step: &str,
    answer: &Answer,
) -> Result<(), EngineError> {
    let response = answer.response();
    if response.is_success() {
        return Ok(());
    }
    let status = response.status;
    let messages = extract::answer_errors(&answer.received);
    let mut message = format!("the external system answered HTTP {status}");
    if let Some(why) = &answer.unknown_outcome {
        message.push_str(&format!(
            "; {why}: the request may have been carried out; unknown: check before retrying"
        ));
    }
    if (300..400).contains(&status) {
        match response.header("location") {
            Some(to) => message.push_str(&format!(
                " redirecting to {to}; redirects to another host are never followed: fix the server URL"
            )),
            None => message.push_str(" (a redirect without Location)"),
        }
    } else if status == 401 {
        message.push_str(
            " (unauthorized, also after a token refresh): authorize again with `syncdef auth login`",
        );
    }
    if !messages.is_empty() {
        message.push_str(": ");
        message.push_str(&messages.join("; "));
    }
    trail.errors = messages;
    let class = if answer.unknown_outcome.is_some() {
        ErrorClass::UnknownOutcome
    } else {
        ErrorClass::from_status(status)
    };
    let hint = answer.retry_after.or_else(|| retry::retry_after(response));
    Err(EngineError::new(class, message).retry_after(hint).at(step))
}
