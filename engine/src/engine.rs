//! The engine: a compiled definition plus the connectors of a push (transport, tokens, the
//! caller's synchroniser), and the push itself.

use std::sync::{Arc, OnceLock};

use syncdef_definitions::Definition;
use syncdef_transform::{Limits, Value};
use syncdef_validator::{Diagnostic, RuleSettings, Severity, lint_definition};
use url::Url;

use crate::action::{self, Phase, Synchronizer};
use crate::auth::{NoToken, TokenProvider};
use crate::error::{ErrorClass, LoadRefused, PushError};
use crate::extract;
use crate::outcome::{MaskedJson, PushOutcome, PushStatus};
use crate::plan::{ActionPlan, DefinitionPlan, EntryPlan, OperationKind};
use crate::reliability::rate_limit::Account;
use crate::reliability::{
    Overrides, RateLimitPolicy, RateLimits, RecordLimits, RetryPolicy, conflict, idempotency,
};
use crate::request::RequestHeaders;
use crate::run::{Run, Scope};
use crate::servers::Server;
use crate::state::{Intent, RecordState};
use crate::transport::Transport;

/// A loaded definition ready to push records. Cheap to clone (everything is behind `Arc`),
/// `Send + Sync`: load once, then share it across tasks.
#[derive(Clone)]
pub struct Engine {
    pub(crate) plan: Arc<DefinitionPlan>,
    pub(crate) transport: Option<Arc<dyn Transport>>,
    pub(crate) tokens: Arc<dyn TokenProvider>,
    pub(crate) synchronizer: Option<Arc<dyn Synchronizer>>,
    pub(crate) base_url: Option<Url>,
    /// The server URL with the default variables, resolved on first use: most pushes of an
    /// instance use the same values, and resolving parses a URL.
    default_server: Arc<OnceLock<Result<Arc<Server>, PushError>>>,
    /// The retry policy in force when something (syncdef.toml, the instance) changed the
    /// definition's.
    pub(crate) retry: Option<RetryPolicy>,
    /// The rate limits in force when something changed the definition's.
    pub(crate) rate_limit: Option<RateLimitPolicy>,
    /// Where per-account budgets live (shared by every engine of the process by default).
    pub(crate) rate_limits: Arc<RateLimits>,
    pub(crate) record_limits: RecordLimits,
    /// Made for the last token, shared by every copy of the engine.
    pub(crate) request_headers: Arc<RequestHeaders>,
}

const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Engine>();
};

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("definition", &self.plan.name)
            .field("entries", &self.plan.entry_names().collect::<Vec<_>>())
            .field("base_url", &self.base_url.as_ref().map(Url::as_str))
            .finish_non_exhaustive()
    }
}

/// A loaded engine and the lint warnings of its definition (errors refuse the load).
#[derive(Debug)]
pub struct Loaded {
    /// The engine, without a transport yet (see [`Engine::with_transport`]).
    pub engine: Engine,
    /// Lint warnings and infos of the definition.
    pub warnings: Vec<Diagnostic>,
}

impl Engine {
    /// Lints `definition` with the default rule settings and compiles it.
    ///
    /// # Errors
    /// [`LoadRefused`] with every diagnostic when the definition has lint errors.
    pub fn load(definition: Definition) -> Result<Loaded, LoadRefused> {
        Engine::load_with_settings(&definition, &RuleSettings::default())
    }

    /// Lints `definition` with `settings` (a `syncdef.toml`) and compiles it; the file's
    /// `[retry]` and `[rate-limit]` are laid over the definition's `x-syncdef`, field by field.
    ///
    /// # Errors
    /// [`LoadRefused`] with every diagnostic when the definition has lint errors.
    pub fn load_with_settings(
        definition: &Definition,
        settings: &RuleSettings,
    ) -> Result<Loaded, LoadRefused> {
        Engine::load_with_limits(definition, settings, &Limits::default())
    }

    /// Lints `definition` with `settings` and compiles its templates with evaluation `limits`
    /// (depth, output size, steps, string length): a template that passes them fails its
    /// push with a configuration error instead of exhausting memory or time. The settings'
    /// `[retry]` and `[rate-limit]` are laid over the definition's `x-syncdef`.
    ///
    /// # Errors
    /// [`LoadRefused`] with every diagnostic when the definition has lint errors, or a problem
    /// when its `x-syncdef` extension is malformed.
    pub fn load_with_limits(
        definition: &Definition,
        settings: &RuleSettings,
        limits: &Limits,
    ) -> Result<Loaded, LoadRefused> {
        let diagnostics = lint_definition(definition, settings, true);
        if diagnostics.iter().any(|d| d.severity == Severity::Error) {
            return Err(LoadRefused {
                diagnostics,
                problems: Vec::new(),
            });
        }
        let plan = DefinitionPlan::compile(definition, limits).map_err(|problems| LoadRefused {
            diagnostics: diagnostics.clone(),
            problems,
        })?;
        let file = Overrides::from(settings.push());
        let engine = Engine {
            plan: Arc::new(plan),
            transport: None,
            tokens: Arc::new(NoToken),
            synchronizer: None,
            base_url: None,
            default_server: Arc::default(),
            retry: None,
            rate_limit: None,
            rate_limits: RateLimits::global(),
            record_limits: RecordLimits::default(),
            request_headers: Arc::default(),
        };
        Ok(Loaded {
            engine: engine.with_overrides(&file),
            warnings: diagnostics,
        })
    }

    /// The compiled definition.
    #[must_use]
    pub fn plan(&self) -> &DefinitionPlan {
        &self.plan
    }

    /// This engine sending through `transport`.
    #[must_use]
    pub fn with_transport(&self, transport: Arc<dyn Transport>) -> Engine {
        Engine {
            transport: Some(transport),
            ..self.clone()
        }
    }

    /// This engine authorising requests with `tokens` (default: no `Authorization` header).
    #[must_use]
    pub fn with_token_provider(&self, tokens: Arc<dyn TokenProvider>) -> Engine {
        Engine {
            tokens,
            ..self.clone()
        }
    }

    /// This engine pushing `ApiSynchronization` targets through `synchronizer`. Without one,
    /// those actions are skipped with a note, and related ids must come from the record state.
    #[must_use]
    pub fn with_synchronizer(&self, synchronizer: Arc<dyn Synchronizer>) -> Engine {
        Engine {
            synchronizer: Some(synchronizer),
            ..self.clone()
        }
    }

    /// This engine sending to `base` instead of the definition's server URL (a sandbox, a
    /// proxy, a test server). Requests still go only to that one origin.
    #[must_use]
    pub fn with_base_url(&self, base: Url) -> Engine {
        Engine {
            base_url: Some(base),
            default_server: Arc::default(),
            ..self.clone()
        }
    }

    /// This engine retrying with `policy` instead of the one in force (the definition's
    /// `x-syncdef.retry` with `syncdef.toml`'s `[retry]` over it); every field is replaced
    /// ([`RetryPolicy::none`] disables retries). [`Engine::with_overrides`] replaces some.
    #[must_use]
    pub fn with_retry_policy(&self, policy: RetryPolicy) -> Engine {
        Engine {
            retry: Some(policy),
            ..self.clone()
        }
    }

    /// This engine throttling with `policy` instead of the one in force (the definition's
    /// `x-syncdef.rateLimit` with `syncdef.toml`'s `[rate-limit]` over it). An account's
    /// budget is set by the first engine that talks to it.
    #[must_use]
    pub fn with_rate_limit_policy(&self, policy: RateLimitPolicy) -> Engine {
        Engine {
            rate_limit: Some(policy),
            ..self.clone()
        }
    }

    /// This engine with the retry and rate-limit fields `overrides` sets replacing those in
    /// force, the others kept: the command line over `syncdef.toml` over `x-syncdef`. Apply
    /// layers lowest first; docs/reliability.md gives the precedence.
    #[must_use]
    pub fn with_overrides(&self, overrides: &Overrides) -> Engine {
        let mut engine = self.clone();
        if !overrides.retry.is_empty() {
            engine.retry = Some(overrides.retry.over(self.retry_policy()));
        }
        if !overrides.rate_limit.is_empty() {
            engine.rate_limit = Some(overrides.rate_limit.over(self.rate_limit_policy()));
        }
        engine
    }

    /// This engine keeping per-account budgets in `limits` (default: [`RateLimits::global`],
    /// shared by every engine of the process). Give several engines the same registry to make
    /// them share budgets; a registry of its own to isolate one.
    #[must_use]
    pub fn with_rate_limits(&self, limits: Arc<RateLimits>) -> Engine {
        Engine {
            rate_limits: limits,
            ..self.clone()
        }
    }

    /// This engine refusing records beyond `limits` (default [`RecordLimits::default`]).
    #[must_use]
    pub fn with_record_limits(&self, limits: RecordLimits) -> Engine {
        Engine {
            record_limits: limits,
            ..self.clone()
        }
    }

    /// The retry policy in force: the definition's, with `syncdef.toml` and the instance's
    /// settings over it.
    #[must_use]
    pub fn retry_policy(&self) -> &RetryPolicy {
        self.retry.as_ref().unwrap_or(&self.plan.reliability.retry)
    }

    /// The rate-limit policy in force: the definition's, with `syncdef.toml` and the
    /// instance's settings over it.
    #[must_use]
    pub fn rate_limit_policy(&self) -> &RateLimitPolicy {
        self.rate_limit
            .as_ref()
            .unwrap_or(&self.plan.reliability.rate_limit)
    }

    /// Pushes `record` of `entry`: pre-actions, create / update / delete, response extraction,
    /// post-actions. Never panics on input; every failure is in the outcome, classified.
    pub async fn push(&self, entry: &str, record: &Value, state: &RecordState) -> PushOutcome {
        let planned = self.plan.entry(entry);
        // The plan's name when the entry is known: the outcome shares it.
        let mut run = Run::new(planned.map_or_else(|| Arc::from(entry), |e| Arc::clone(&e.name)));
        let result = match planned {
            Some(planned) => self.execute(&mut run, planned, record, state).await,
            None => Err(PushError::configuration(format!(
                "the definition has no entry `{entry}` (it has: {})",
                self.plan.entry_names().collect::<Vec<_>>().join(", ")
            ))),
        };
        run.finish(result)
    }

    async fn execute(
        &self,
        run: &mut Run,
        entry: &EntryPlan,
        record: &Value,
        state: &RecordState,
    ) -> Result<PushStatus, PushError> {
        let entry_name = &*entry.name;
        // The engine's server is borrowed, not counted, by each push: one reference count
        // touched by every push of every task would be a point of contention.
        let own_server;
        let server = if state.server_variables.is_empty() {
            match self.default_server.get_or_init(|| {
                self.plan
                    .server
                    .resolve(&state.server_variables, self.base_url.as_ref())
                    .map(Arc::new)
            }) {
                Ok(server) => server,
                Err(e) => return Err(e.clone()),
            }
        } else {
            own_server = Arc::new(
                self.plan
                    .server
                    .resolve(&state.server_variables, self.base_url.as_ref())?,
            );
            &own_server
        };
        self.record_limits.check(record)?;
        let kind = choose(entry, state)?;
        run.operation = Some(kind);
        run.account = self.account(server);
        let mut scope = Scope::new(state, server);
        for a in &entry.pre_actions {
            action::run(self, run, entry, a, Phase::Pre, record, state, &mut scope).await?;
        }
        let Some(call) = entry.operation(kind) else {
            return Err(PushError::configuration(format!(
                "entry `{entry_name}` has no `push.{}`",
                kind.as_str()
            )));
        };
        let step = kind.as_str();
        let key = self
            .plan
            .reliability
            .idempotency
            .as_ref()
            .filter(|k| k.applies_to(kind));
        // A create sent twice may create twice; only an idempotency key makes its re-send safe.
        // An update or delete re-sent leaves the record as one would (and a concurrency token
        // turns a re-sent update that already succeeded into a conflict, handled below).
        let repeatable = kind != OperationKind::Create || key.is_some();
        let mut conflicted = false;
        let answer = loop {
            let input = scope.input(&entry.input_shape, record);
            let body = run.request_body(call, &input)?;
            let mut target = call
                .target(scope.server, &scope.fill())
                .map_err(|e| e.at(step))?;
            let mut headers = scope.headers.clone();
            if let Some(key) = key {
                let bytes = body.as_ref().map_or(&[][..], |b| &b.bytes[..]);
                let derived = idempotency::derive(entry_name, record, bytes);
                target.edit(|url| key.apply(&derived, url, &mut headers));
            }
            let answer = run
                .send(self, call, target, body, &headers, repeatable)
                .await?;
            let conflict = (kind != OperationKind::Create)
                .then(|| {
                    conflict::find(
                        &self.plan.reliability.conflicts,
                        answer.response(),
                        answer.body(),
                    )
                })
                .flatten();
            let Some(rule) = conflict else {
                break answer;
            };
            let status = rule.status;
            let rereads = entry
                .pre_actions
                .iter()
                .any(|a| matches!(a, ActionPlan::Call { .. }));
            if conflicted || !rereads {
                run.errors = answer
                    .body()
                    .json()
                    .map(extract::error_messages)
                    .unwrap_or_default();
                let why = if rereads {
                    "again after its concurrency token was read afresh: the record is being changed in the external system while it is pushed. Push it again later; if it persists, check that the pre-actions read the token the update checks"
                } else {
                    "and the entry has no pre-action that reads the token again: add one (`preSynchronizationAction` of type ApiPath reading `SyncToken` or `@odata.etag`)"
                };
                return Err(PushError::new(
                    ErrorClass::Transient,
                    format!(
                        "the external system reports a stale concurrency token (HTTP {status}) {why}"
                    ),
                )
                .at(step));
            }
            conflicted = true;
            run.note(format!(
                "step `{step}`: the external system reports a stale concurrency token (HTTP {status}); the pre-actions read it again and the {step} is sent once more"
            ));
            // Only the calls that read tokens run again: related records pushed by
            // ApiSynchronization actions already have their ids in the scope.
            scope.body_values.clear();
            scope.headers.clear();
            for a in &entry.pre_actions {
                if matches!(a, ActionPlan::Call { .. }) {
                    action::run(self, run, entry, a, Phase::Pre, record, state, &mut scope).await?;
                }
            }
        };
        run.check_status(step, &answer)?;
        let body = match (
            &call.response,
            answer.body().value_for(call.response_reads.as_ref()),
        ) {
            // Without a response template nothing is read from the body.
            (None, _) => Value::Null,
            (Some(_), Ok(body)) => body,
            (Some(_), Err(m)) => {
                return Err(PushError::new(
                    ErrorClass::UnknownOutcome,
                    format!("{m}; check the record in the external system before retrying"),
                )
                .at(step));
            }
        };
        // A create answered with an empty body where its template expects the new record: the
        // record may well exist (the answer was lost on the way), so "failed" would invite a
        // duplicate.
        if kind == OperationKind::Create && body.is_null() && call.response.is_some() {
            return Err(PushError::new(
                ErrorClass::UnknownOutcome,
                format!(
                    "the external system answered HTTP {} with an empty body to the create; the record may exist there: unknown: check before retrying",
                    answer.response().status
                ),
            )
            .at(step));
        }
        let extracted = extract::extract(call.response.as_ref(), &body).map_err(|e| e.at(step))?;
        if let Some(output) = extracted.output {
            run.template(
                Arc::clone(&call.response_name),
                MaskedJson::from_value(output),
            );
        }
        if !extracted.success {
            run.errors = extracted.errors.clone();
            let detail = if extracted.errors.is_empty() {
                "no error message given".to_owned()
            } else {
                extracted.errors.join("; ")
            };
            return Err(PushError::new(
                ErrorClass::ExternalValidation,
                format!("the external system reports the {step} failed: {detail}"),
            )
            .at(step));
        }
        let id = match kind {
            OperationKind::Create => Some(extracted.id.ok_or_else(|| {
                PushError::new(
                    ErrorClass::UnknownOutcome,
                    format!("the external system accepted the create, but `{step}Response` extracted no `id`; the record may exist there: check before retrying, and fix the template"),
                )
                .at(step)
            })?),
            _ => extracted.id.or_else(|| state.external_id.clone()),
        };
        if !entry.post_actions.is_empty() {
            scope.external_id.clone_from(&id);
        }
        run.external_id = id;
        let status = match kind {
            OperationKind::Create => PushStatus::Created,
            OperationKind::Update => PushStatus::Updated,
            OperationKind::Delete => PushStatus::Deleted,
        };
        for a in &entry.post_actions {
            if let Err(e) =
                action::run(self, run, entry, a, Phase::Post, record, state, &mut scope).await
            {
                run.post_action_error = Some(e);
                break;
            }
        }
        Ok(status)
    }
}

impl Engine {
    /// The budget of the account `server` belongs to, when the policy limits anything. Dry-runs
    /// are never throttled.
    fn account(&self, server: &Server) -> Option<Arc<Account>> {
        let policy = self.rate_limit_policy();
        if policy.is_unlimited() || self.transport.as_ref().is_none_or(|t| t.replays()) {
            return None;
        }
        let mut key = server.base.origin().ascii_serialization();
        for name in &policy.key {
            key.push('\u{1f}');
            key.push_str(name);
            key.push('=');
            key.push_str(server.variables.get(name).map_or("", String::as_str));
        }
        Some(self.rate_limits.account(&key, policy))
    }
}

/// Create without an external id, update with one, delete on request.
fn choose(entry: &EntryPlan, state: &RecordState) -> Result<OperationKind, PushError> {
    let kind = match (state.intent, &state.external_id) {
        (Intent::Delete, None) => {
            return Err(PushError::configuration(
                "a delete needs the record's external id",
            ));
        }
        (Intent::Delete, Some(_)) => OperationKind::Delete,
        (Intent::Upsert, None) => OperationKind::Create,
        (Intent::Upsert, Some(_)) => OperationKind::Update,
    };
    if !entry.has(kind) {
        return Err(PushError::configuration(format!(
            "entry `{}` has no `push.{}`{}",
            entry.name,
            kind.as_str(),
            if kind == OperationKind::Update {
                "; the record has an external id, so it can only be updated"
            } else {
                ""
            }
        )));
    }
    Ok(kind)
}
