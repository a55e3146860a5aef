//! Pulling: reading the external system's records into the platform's shape. `batchRead`
//! reads them page by page ([`position`]: which page, and the one after it); `read` reads one
//! by its external id. Each answer goes through the entry's response template
//! (`batchReadResponse`, `readResponse`), which maps it onto platform records under the
//! module's root, each carrying its external id ([`records`]). What the platform does with
//! them (create, or patch what changed) is the caller's: the engine only reads and maps. The
//! requests are the call layer's steps ([`crate::call`]), as a push's are.

pub(crate) mod position;
pub(crate) mod records;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use syncdef_transform::Value;
use url::Url;

use crate::call::answer::{Answer, check_status};
use crate::call::compose::{self, Outgoing};
use crate::call::connectors::Connectors;
use crate::call::scope::Scope;
use crate::call::send;
use crate::call::trail::Trail;
use crate::error::{EngineError, ErrorClass};
use crate::outcome::Exchange;
use crate::plan::{CallPlan, DefinitionPlan, EntryPlan};
use crate::reliability::retry::RequestNature;
use crate::request::Target;
use crate::servers::Server;
use position::{BEGINNING, PagePosition};
use records::{PulledRecord, RejectedRecord, records_of};

/// Which page to read, and for which instance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageRequest {
    /// The page (from [`PullPage::next`] of the page before, or [`PagePosition::First`]).
    pub position: PagePosition,
    /// The change time the pull starts from (`{since}`, RFC 3339); `None`: every record.
    pub since: Option<String>,
    /// Server variable values of the instance, over the definition's defaults.
    pub server_variables: BTreeMap<String, String>,
}

/// What one `batchRead` page or one `read` gave.
#[derive(Debug)]
pub struct PullPage {
    /// The entry read.
    pub entry: Arc<str>,
    /// The platform records read, in the order of the answer.
    pub records: Vec<PulledRecord>,
    /// What the template made that is not a record the platform can take.
    pub rejected: Vec<RejectedRecord>,
    /// The page after this one; `None` when this was the last (or a `read`).
    pub next: Option<PagePosition>,
    /// Why the page could not be read or mapped; the records read are then none.
    pub error: Option<EngineError>,
    /// Every request and answer, secrets masked.
    pub exchanges: Vec<Exchange>,
    /// Retries and other notes.
    pub notes: Vec<String>,
    /// How long it took.
    pub duration: Duration,
}

/// A read: retried like any read, never a duplicate.
const READ: RequestNature = RequestNature {
    repeatable: true,
    duplicates: false,
};

/// Reads the page `request` names of `entry`'s `batchRead`, of `plan`, through `conn`.
pub(crate) async fn page(
    plan: &DefinitionPlan,
    conn: &Connectors<'_>,
    entry: &str,
    request: &PageRequest,
) -> PullPage {
    let planned = plan.entry(entry);
    let name = planned.map_or_else(|| Arc::from(entry), |e| Arc::clone(&e.name));
    let mut trail = Trail::new();
    let result = match planned {
        Some(planned) => read_page(conn, &mut trail, planned, request).await,
        None => Err(unknown_entry(plan, entry)),
    };
    finish(name, trail, result)
}

/// Reads the record of `entry` whose external id is `external_id`, of `plan`, through `conn`.
pub(crate) async fn one(
    plan: &DefinitionPlan,
    conn: &Connectors<'_>,
    entry: &str,
    external_id: &str,
    server_variables: &BTreeMap<String, String>,
) -> PullPage {
    let planned = plan.entry(entry);
    let name = planned.map_or_else(|| Arc::from(entry), |e| Arc::clone(&e.name));
    let mut trail = Trail::new();
    let result = match planned {
        Some(planned) => read_one(conn, &mut trail, planned, external_id, server_variables).await,
        None => Err(unknown_entry(plan, entry)),
    };
    finish(name, trail, result)
}

type Mapped = (Vec<PulledRecord>, Vec<RejectedRecord>, Option<PagePosition>);

async fn read_page(
    conn: &Connectors<'_>,
    trail: &mut Trail,
    entry: &EntryPlan,
    request: &PageRequest,
) -> Result<Mapped, EngineError> {
    let call = pull_call(entry, entry.batch_read.as_ref(), "batchRead")?;
    let server = conn.servers.resolve(&request.server_variables)?;
    let server = server.get();
    let scope = Scope::new(server, None, BTreeMap::new());
    let since = request.since.as_deref().unwrap_or(BEGINNING);
    let headers = entry.paging.headers(&request.position, since);
    let target = match &request.position {
        PagePosition::Link(link) => linked(link, server)?,
        at => {
            let parameters = entry.paging.parameters(at, since);
            let mut target = compose::target(call, &scope)?;
            target.edit(|url| {
                url.query_pairs_mut().extend_pairs(&parameters);
            });
            target
        }
    };
    let answer = ask(trail, conn, entry, call, &scope, (target, headers)).await?;
    let output = map(trail, call, &answer)?;
    let count = elements(&output);
    let (records, rejected) = records_of(&output, entry.root(), &call.response_name)
        .map_err(|e| EngineError::configuration(e).at(&call.step))?;
    if answer.response().synthesized {
        // A made-up answer names made-up pages: a dry-run without given answers reads one.
        trail.note(format!(
            "step `{}`: the answer was synthesised, so paging stops after this page",
            call.step
        ));
        return Ok((records, rejected, None));
    }
    let next = entry
        .paging
        .after(
            &request.position,
            count,
            answer.body().json().ok(),
            &server.base,
        )
        .map_err(|e| EngineError::new(ErrorClass::Configuration, e.0).at(&call.step))?;
    Ok((records, rejected, next))
}

async fn read_one(
    conn: &Connectors<'_>,
    trail: &mut Trail,
    entry: &EntryPlan,
    external_id: &str,
    server_variables: &BTreeMap<String, String>,
) -> Result<Mapped, EngineError> {
    let call = pull_call(entry, entry.read.as_ref(), "read")?;
    let server = conn.servers.resolve(server_variables)?;
    let server = server.get();
    let scope = Scope::new(server, Some(external_id.to_owned()), BTreeMap::new());
    let target = compose::target(call, &scope)?;
    let answer = ask(trail, conn, entry, call, &scope, (target, Vec::new())).await?;
    let output = map(trail, call, &answer)?;
    let (mut records, mut rejected) = records_of(&output, entry.root(), &call.response_name)
        .map_err(|e| EngineError::configuration(e).at(&call.step))?;
    if let Some(at) = records.iter().position(|r| r.external_id != external_id) {
        let other = records.remove(at);
        rejected.push(RejectedRecord {
            index: at,
            reason: format!(
                "`{}` gives the record read as {} `{}`, but {external_id} was asked for: check the template's `integrationId`",
                call.response_name,
                records::INTEGRATION_ID,
                other.external_id
            ),
        });
    }
    Ok((records, rejected, None))
}

/// The entry's `read` or `batchRead`, or why it has none.
fn pull_call<'e>(
    entry: &'e EntryPlan,
    call: Option<&'e CallPlan>,
    key: &str,
) -> Result<&'e CallPlan, EngineError> {
    call.ok_or_else(|| {
        EngineError::configuration(format!(
            "entry `{}` has no `pull.{key}`: declare the external operation that reads its records",
            entry.name
        ))
    })
}

/// The target of a next link kept by the caller, checked again: a kept position may have been
/// edited, and the access token must not go to another origin.
fn linked(link: &str, server: &Server) -> Result<Target, EngineError> {
    let url = Url::parse(link).map_err(|e| {
        EngineError::configuration(format!(
            "the page position's link `{link}` is not a URL ({e})"
        ))
    })?;
    if url.origin() != server.base.origin() {
        return Err(EngineError::configuration(format!(
            "the page position's link goes to {}, not to the external system's server {}: it is not followed",
            url.origin().ascii_serialization(),
            server.base.origin().ascii_serialization()
        )));
    }
    Ok(Target::new(url))
}

/// Sends the read (with its request template's body, when it has one) and checks its status.
async fn ask(
    trail: &mut Trail,
    conn: &Connectors<'_>,
    entry: &EntryPlan,
    call: &CallPlan,
    scope: &Scope<'_>,
    (target, mut headers): (Target, Vec<(String, String)>),
) -> Result<Answer, EngineError> {
    let input = scope.input(&entry.input_shape, &Value::Null, None);
    let body = compose::body(trail, call, &input)?;
    let outgoing = Outgoing {
        target,
        body,
        headers: {
            headers.extend(compose::parameter_headers(call, scope)?);
            headers
        },
        idempotency_key: None,
    };
    let account = conn.account(scope.server);
    let answer = send::send(trail, conn, account.as_deref(), call, outgoing, READ).await?;
    check_status(trail, &call.step, &answer)?;
    Ok(answer)
}

/// The response template's output over the answer.
fn map(trail: &mut Trail, call: &CallPlan, answer: &Answer) -> Result<Value, EngineError> {
    let name = &call.response_name;
    let Some(template) = &call.response else {
        return Err(EngineError::configuration(format!(
            "the entry has no `{name}` template, which maps the external records onto the platform's"
        ))
        .at(&call.step));
    };
    let body = answer.body().value().map_err(|e| {
        EngineError::new(
            ErrorClass::ExternalValidation,
            format!("the external system's answer cannot be read: {e}"),
        )
        .at(&call.step)
    })?;
    let output = template.apply(&body).map_err(|e| {
        EngineError::configuration(format!("the template `{name}` failed: {e}")).at(&call.step)
    })?;
    trail.note(format!("`{name}` made {} element(s)", elements(&output)));
    Ok(output)
}

/// How many elements a pull template made: one per external record read, which is what
/// offset and page paging count (null, a loop over a page without records, is none).
fn elements(output: &Value) -> usize {
    match output {
        Value::Array(items) => items.len(),
        Value::Null => 0,
        _ => 1,
    }
}

fn unknown_entry(plan: &DefinitionPlan, entry: &str) -> EngineError {
    EngineError::configuration(format!(
        "the definition has no entry `{entry}` (it has: {})",
        plan.entry_names().collect::<Vec<_>>().join(", ")
    ))
}

fn finish(entry: Arc<str>, trail: Trail, result: Result<Mapped, EngineError>) -> PullPage {
    let duration = trail.elapsed();
    let (records, rejected, next, error) = match result {
        Ok((records, rejected, next)) => (records, rejected, next, None),
        Err(e) => (Vec::new(), Vec::new(), None, Some(e)),
    };
    PullPage {
        entry,
        records,
        rejected,
        next,
        error,
        exchanges: trail.exchanges,
        notes: trail.notes,
        duration,
    }
}
