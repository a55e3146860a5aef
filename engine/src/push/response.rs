//! Reading the answer to the record's own request, once its status passed
//! ([`check_status`](crate::call::answer::check_status)): the response template's
//! `{id, success, errors}`, and the class of every way that can fail.

use std::sync::Arc;

use syncdef_transform::Value;

use crate::call::answer::Answer;
use crate::call::trail::Trail;
use crate::error::{EngineError, ErrorClass};
use crate::extract::{self, Extracted};
use crate::outcome::{MaskedJson, RecordedResponse};
use crate::plan::{CallPlan, OperationKind};

/// How much of an unreadable answer to a create its error message quotes.
const ANSWER_SHOWN: usize = 2048;

/// What the response template of `call` makes of a 2xx `answer` to a `kind` request. Whatever
/// goes wrong reading the answer to a create is an unknown outcome: the external system said
/// yes, so the record may well exist there, and "failed" would invite a duplicate.
pub(crate) fn extract(
    trail: &mut Trail,
    kind: OperationKind,
    call: &CallPlan,
    answer: &Answer,
) -> Result<Extracted, EngineError> {
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
        EngineError::new(class, message).at(step)
    };
    let Some(template) = &call.response else {
        // Without a response template nothing is read from the body but its `success`.
        reported_failure(trail, step, answer)?;
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
        trail.template(
            Arc::clone(&call.response_name),
            MaskedJson::from_value(output),
        );
    }
    if !extracted.success {
        let mut errors = std::mem::take(&mut extracted.errors);
        if errors.is_empty() {
            errors = extract::answer_errors(&answer.received);
        }
        return Err(failed(trail, step, errors));
    }
    reported_failure(trail, step, answer)?;
    if kind == OperationKind::Create && extracted.id.is_none() {
        return Err(unreadable(format!(
            "`{step}Response` extracted no `id` from it: fix the template if the answer has one"
        )));
    }
    Ok(extracted)
}

/// Spec 7.1: a 2xx answer whose body says `success: false` is a failed step whatever the
/// response template maps (a template reading only the id drops it), and when there is none;
/// the reasons are read from the body in the vendor's error shape
/// ([`extract::answer_errors`]). Only a body that names `success` is parsed whole for it.
fn reported_failure(trail: &mut Trail, step: &str, answer: &Answer) -> Result<(), EngineError> {
    let named = memchr::memmem::find(answer.body().bytes(), b"\"success\"").is_some();
    match answer.body().json() {
        Ok(body) if named && extract::says_failed(body) => Err(failed(
            trail,
            step,
            extract::answer_errors(&answer.received),
        )),
        _ => Ok(()),
    }
}

/// The failure of a step the external system answered 2xx with `success: false`, with its
/// reasons, which the outcome keeps too.
fn failed(trail: &mut Trail, step: &str, errors: Vec<String>) -> EngineError {
    let detail = if errors.is_empty() {
        "no error message given".to_owned()
    } else {
        errors.join("; ")
    };
    trail.errors = errors;
    EngineError::new(
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
