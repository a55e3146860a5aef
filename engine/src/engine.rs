//! The engine: a compiled definition plus the connectors of a push or a pull (transport,
//! tokens, policies, the caller's synchroniser). It is the façade over [`crate::push`] and
//! [`crate::pull`]: each call hands them the plan and the call layer's
//! [`Connectors`], borrowed from it, and what else they need.

use std::collections::BTreeMap;
use std::sync::Arc;

use syncdef_definitions::Definition;
use syncdef_definitions::settings::PushConfig;
use syncdef_transform::{Limits, Value};
use syncdef_validator::{Diagnostic, RuleSettings, Severity, lint_definition};
use url::Url;

use crate::auth::{Credentials, NoToken, TokenProvider};
use crate::call::connectors::Connectors;
use crate::call::server::{DefaultServer, Servers};
use crate::error::LoadRefused;
use crate::outcome::PushOutcome;
use crate::plan::DefinitionPlan;
use crate::pull::{self, PageRequest, PullPage};
use crate::push::{self, synchronizer::Synchronizer};
use crate::reliability::{Overrides, RateLimitPolicy, RateLimits, RecordLimits, RetryPolicy};
use crate::request::RequestHeaders;
use crate::state::RecordState;
use crate::transport::Transport;

/// A loaded definition ready to push records. Cheap to clone (everything is behind `Arc`),
/// `Send + Sync`: load once, then share it across tasks.
#[derive(Clone)]
pub struct Engine {
    pub(crate) plan: Arc<DefinitionPlan>,
    pub(crate) transport: Option<Arc<dyn Transport>>,
    pub(crate) tokens: Arc<dyn TokenProvider>,
    /// The credentials of the schemes other than OAuth2.
    pub(crate) credentials: Credentials,
    pub(crate) synchronizer: Option<Arc<dyn Synchronizer>>,
    pub(crate) base_url: Option<Url>,
    /// The server URL with the default variables, resolved on first use: most pushes of an
    /// instance use the same values, and resolving parses a URL.
    default_server: Arc<DefaultServer>,
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
    #[expect(
        clippy::needless_pass_by_value,
        reason = "the public entry point takes the definition its callers (worker, CLI, examples) are done with; borrowing it is a change of their calls"
    )]
    pub fn load(definition: Definition) -> Result<Loaded, LoadRefused> {
        let diagnostics = lint_definition(&definition, &RuleSettings::default(), true);
        Engine::load_linted(
            &definition,
            diagnostics,
            &PushConfig::default(),
            &Limits::default(),
        )
    }

    /// Compiles `definition`, which the caller linted with its project's rule settings
    /// (`syncdef_validator::lint_definition` with the `syncdef.toml` that applies): refused
    /// when `diagnostics` holds an error. `push` (that file's `[retry]` and `[rate-limit]`) is
    /// laid over the definition's `x-syncdef`, field by field. Templates are compiled with
    /// evaluation `limits` (depth, output size, steps, string length): a template that passes
    /// them fails its push with a configuration error instead of exhausting memory or time.
    ///
    /// # Errors
    /// [`LoadRefused`] with every diagnostic when the definition has lint errors, or a problem
    /// when its `x-syncdef` extension is malformed.
    pub fn load_linted(
        definition: &Definition,
        diagnostics: Vec<Diagnostic>,
        push: &PushConfig,
        limits: &Limits,
    ) -> Result<Loaded, LoadRefused> {
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
        let engine = Engine {
            plan: Arc::new(plan),
            transport: None,
            tokens: Arc::new(NoToken),
            credentials: Credentials::default(),
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
            engine: engine.with_overrides(&Overrides::from(push)),
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

    /// This engine authorising requests with `tokens`: the access token of the OAuth2
    /// schemes, and of the http bearer schemes [`Engine::with_credentials`] gives no token
    /// of their own (default: none; a request that needs one fails, saying so).
    #[must_use]
    pub fn with_token_provider(&self, tokens: Arc<dyn TokenProvider>) -> Engine {
        Engine {
            tokens,
            ..self.clone()
        }
    }

    /// This engine authorising requests with `credentials` for the http basic, http bearer
    /// and apiKey schemes they name (see [`Credentials::from_env`]); each request carries
    /// those of the scheme its operation's security requirement names.
    #[must_use]
    pub fn with_credentials(&self, credentials: Credentials) -> Engine {
        Engine {
            credentials,
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
        self.push_of(entry, record, None, state).await
    }

    /// Pushes `line`, a line of `parent` (an invoice item of its invoice), with `entry`, an
    /// entry of lines, as the record's `ApiSynchronization` post-action asks its synchronizer
    /// to ([`SyncRequest::lines`](crate::SyncRequest::lines)): the caller gives the line's own
    /// state (its external id, an unresolved create) with the related ids
    /// [`Lines::related`](crate::Lines::related) names. Never panics on input.
    pub async fn push_line(
        &self,
        entry: &str,
        line: &Value,
        parent: &Value,
        state: &RecordState,
    ) -> PushOutcome {
        self.push_of(entry, line, Some(parent), state).await
    }

    /// A push of `record`, a line of `parent` when it is one.
    async fn push_of(
        &self,
        entry: &str,
        record: &Value,
        parent: Option<&Value>,
        state: &RecordState,
    ) -> PushOutcome {
        let needs = push::Needs {
            record_limits: &self.record_limits,
            synchronizer: self.synchronizer.as_deref(),
        };
        let conn = self.connectors();
        push::push(
            &self.plan, &conn, &needs, entry, record, parent, state, None,
        )
        .await
    }

    /// Reads the page `request` names of `entry`'s `pull.batchRead` and maps its records with
    /// `batchReadResponse`. Never panics on input; a failure is in the page, classified.
    pub async fn pull_page(&self, entry: &str, request: &PageRequest) -> PullPage {
        pull::page(&self.plan, &self.connectors(), entry, request).await
    }

    /// Reads the record of `entry` known in the external system as `external_id` with
    /// `pull.read` and maps it with `readResponse`.
    pub async fn read(
        &self,
        entry: &str,
        external_id: &str,
        server_variables: &BTreeMap<String, String>,
    ) -> PullPage {
        pull::one(
            &self.plan,
            &self.connectors(),
            entry,
            external_id,
            server_variables,
        )
        .await
    }

    /// What the call layer sends with, borrowed from this engine for one push or pull.
    fn connectors(&self) -> Connectors<'_> {
        Connectors {
            transport: self.transport.as_deref(),
            tokens: self.tokens.as_ref(),
            credentials: &self.credentials,
            headers: &self.request_headers,
            retry: self.retry_policy(),
            reliability: &self.plan.reliability,
            servers: Servers {
                template: &self.plan.server,
                base_url: self.base_url.as_ref(),
                default: &self.default_server,
            },
            rate_limit: self.rate_limit_policy(),
            rate_limits: &self.rate_limits,
        }
    }
}
