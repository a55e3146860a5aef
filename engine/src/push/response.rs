//! Reading the answer to the record's own request: its status, then the response template's
//! `{id, success, errors}`; and the class of every way that can fail.

use std::sync::Arc;

use syncdef_transform::Value;

use crate::error::{ErrorClass, PushError};
use crate::extract::{self, Extracted};
use crate::outcome::{MaskedJson, RecordedResponse};

/// How much of an unreadable answer to a create its error message quotes.
const ANSWER_SHOWN: usize = 2048;
use crate::plan::{CallPlan, OperationKind};
use crate::push::run::Run;
use crate::push::send::Answer;
use crate::reliability::retry;

/// A non-2xx answer is a failed step: the external system's messages are kept, and the status
/// gives the class (unknown when an attempt may have been carried out).
pub(crate) fn check_status(run: &mut Run, step: &str, answer: &Answer) -> Result<(), PushError> {
    let response = answer.response();
    if response.is_success() {
        return Ok(());
    }
    let status = response.status;
    let messages = answer
        .body()
        .json()
        .map(extract::error_messages)
        .unwrap_or_default();
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
    run.errors = messages;
    let class = if answer.unknown_outcome.is_some() {
        ErrorClass::UnknownOutcome
    } else {
        ErrorClass::from_status(status)
    };
    let hint = answer.retry_after.or_else(|| retry::retry_after(response));
    Err(PushError::new(class, message).retry_after(hint).at(step))
}

/// What the response template of `call` makes of a 2xx `answer` to a `kind` request. Whatever
/// goes wrong reading the answer to a create is an unknown outcome: the external system said
/// yes, so the record may well exist there, and "failed" would invite a duplicate.
pub(crate) fn extract(
    run: &mut Run,
    kind: OperationKind,
    call: &CallPlan,
    answer: &Answer,
) -> Result<Extracted, PushError> {
    let step = &*call.step;
    let unreadable = |why: String| {
        let class = if kind == OperationKind::Create {
            ErrorClass::UnknownOutcome
        } else {
            ErrorClass::Configuration
        };
        let mut message = format!(
            "the external system accepted the {step} (HTTP {}), but {why}",
            answer.response().status
        );
        if kind == OperationKind::Create {
            // Whoever resolves the record reads this message, often from a worker's state, far
            // from the audit trail: the answer goes with it, masked and cut short.
            let shown = RecordedResponse::new(&answer.received).body.to_string();
            message.push_str("; the record may exist there: unknown: check the record in the external system before retrying; the answer was: ");
            message.push_str(&syncdef_secrets::shown_within(&shown, ANSWER_SHOWN));
        } else {
            message.push_str("; the answer is in the audit trail");
        }
        PushError::new(class, message).at(step)
    };
    let Some(template) = &call.response else {
        // Without a response template nothing is read from the body but its `success`.
        reported_failure(run, step, answer)?;
        return extract::extract(None, &Value::Null);
    };
    let body = answer
        .body()
        .value_for(call.response_reads.as_ref())
        .map_err(|m| unreadable(format!("its body is not JSON ({m})")))?;
    if kind == OperationKind::Create && body.is_null() {
        return Err(unreadable(format!(
            "its body is empty where `{step}Response` expects the new record"
        )));
    }
    let mut extracted = extract::extract(Some(template), &body).map_err(|e| {
        unreadable(format!(
            "`{step}Response` failed on it ({}): fix the template",
            e.message
        ))
    })?;
    if let Some(output) = extracted.output.take() {
        run.template(
            Arc::clone(&call.response_name),
            MaskedJson::from_value(output),
        );
    }
    if !extracted.success {
        let mut errors = std::mem::take(&mut extracted.errors);
        if errors.is_empty() {
            errors = answer
                .body()
                .json()
                .map(extract::error_messages)
                .unwrap_or_default();
        }
        return Err(failed(run, step, errors));
    }
    reported_failure(run, step, answer)?;
    if kind == OperationKind::Create && extracted.id.is_none() {
        return Err(unreadable(format!(
            "`{step}Response` extracted no `id` from it: fix the template if the answer has one"
        )));
    }
    Ok(extracted)
}

/// Spec 7.1: a 2xx answer whose body says `success: false` is a failed step whatever the
/// response template maps (a template reading only the id drops it), and when there is none;
/// the reasons are read from the body ([`extract::error_messages`]). Only a body that names
/// `success` is parsed whole for it.
fn reported_failure(run: &mut Run, step: &str, answer: &Answer) -> Result<(), PushError> {
    let named = memchr::memmem::find(answer.body().bytes(), b"\"success\"").is_some();
    match answer.body().json() {
        Ok(body) if named && extract::says_failed(body) => {
            Err(failed(run, step, extract::error_messages(body)))
        }
        _ => Ok(()),
    }
}

/// The failure of a step the external system answered 2xx with `success: false`, with its
/// reasons, which the outcome keeps too.
fn failed(run: &mut Run, step: &str, errors: Vec<String>) -> PushError {
    let detail = if errors.is_empty() {
        "no error message given".to_owned()
    } else {
        errors.join("; ")
    };
    run.errors = errors;
    PushError::new(
        ErrorClass::ExternalValidation,
        format!("the external system reports the {step} failed: {detail}"),
    )
    .at(step)
}

/// The status of a successful `kind` push.
pub(crate) fn status(kind: OperationKind) -> crate::outcome::PushStatus {
    use crate::outcome::PushStatus;
    match kind {
        OperationKind::Create => PushStatus::Created,
        OperationKind::Update => PushStatus::Updated,
        OperationKind::Delete => PushStatus::Deleted,
    }
}
