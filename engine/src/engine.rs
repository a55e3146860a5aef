//! The engine: a compiled definition plus the connectors of a push (transport, tokens, the
//! caller's synchroniser), and the push itself.

use std::sync::{Arc, OnceLock};

use syncdef_definitions::Definition;
use syncdef_transform::Value;
use syncdef_validator::{Diagnostic, RuleSettings, Severity, lint_definition};
use url::Url;

use crate::action::{self, Phase, Synchronizer};
use crate::auth::{NoToken, TokenProvider};
use crate::error::{ErrorClass, LoadRefused, PushError};
use crate::extract;
use crate::outcome::{PushOutcome, PushStatus};
use crate::plan::{DefinitionPlan, EntryPlan, OperationKind};
use crate::request;
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

    /// Lints `definition` with `settings` (a `syncdef.toml`) and compiles it.
    ///
    /// # Errors
    /// [`LoadRefused`] with every diagnostic when the definition has lint errors.
    pub fn load_with_settings(
        definition: &Definition,
        settings: &RuleSettings,
    ) -> Result<Loaded, LoadRefused> {
        let diagnostics = lint_definition(definition, settings, true);
        if diagnostics.iter().any(|d| d.severity == Severity::Error) {
            return Err(LoadRefused {
                diagnostics,
                problems: Vec::new(),
            });
        }
        let plan = DefinitionPlan::compile(definition).map_err(|problems| LoadRefused {
            diagnostics: diagnostics.clone(),
            problems,
        })?;
        Ok(Loaded {
            engine: Engine {
                plan: Arc::new(plan),
                transport: None,
                tokens: Arc::new(NoToken),
                synchronizer: None,
                base_url: None,
                default_server: Arc::default(),
            },
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

    /// Pushes `record` of `entry`: pre-actions, create / update / delete, response extraction,
    /// post-actions. Never panics on input; every failure is in the outcome, classified.
    pub async fn push(&self, entry: &str, record: &Value, state: &RecordState) -> PushOutcome {
        let mut run = Run::new(entry);
        let result = self.execute(&mut run, entry, record, state).await;
        run.finish(result)
    }

    async fn execute(
        &self,
        run: &mut Run,
        entry_name: &str,
        record: &Value,
        state: &RecordState,
    ) -> Result<PushStatus, PushError> {
        let entry = self.plan.entry(entry_name).ok_or_else(|| {
            PushError::configuration(format!(
                "the definition has no entry `{entry_name}` (it has: {})",
                self.plan.entry_names().collect::<Vec<_>>().join(", ")
            ))
        })?;
        let server = if state.server_variables.is_empty() {
            self.default_server
                .get_or_init(|| {
                    self.plan
                        .server
                        .resolve(&state.server_variables, self.base_url.as_ref())
                        .map(Arc::new)
                })
                .clone()?
        } else {
            Arc::new(
                self.plan
                    .server
                    .resolve(&state.server_variables, self.base_url.as_ref())?,
            )
        };
        let kind = choose(entry, state)?;
        run.operation = Some(kind);
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
        let input = scope.input(&entry.root, record);
        let body = run.request_body(call, step, &input)?;
        let url = request::url(&scope.server.base, &call.reference, &scope.fill())
            .map_err(|e| e.at(step))?;
        let headers = scope.headers.clone();
        let answer = run.send(self, step, call, url, body, &headers).await?;
        run.check_status(step, &answer)?;
        let json = answer.json.map_err(|m| {
            PushError::new(
                ErrorClass::UnknownOutcome,
                format!("{m}; check the record in the external system before retrying"),
            )
            .at(step)
        });
        let json = match (json, &call.response) {
            (Ok(j), _) => j,
            // Without a response template nothing is read from the body.
            (Err(_), None) => serde_json::Value::Null,
            (Err(e), Some(_)) => return Err(e),
        };
        let extracted = extract::extract(call.response.as_ref(), &json).map_err(|e| e.at(step))?;
        if let Some(output) = &extracted.output {
            run.template(format!("{step}Response"), output);
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
            OperationKind::Create => Some(extracted.id.clone().ok_or_else(|| {
                PushError::new(
                    ErrorClass::UnknownOutcome,
                    format!("the external system accepted the create, but `{step}Response` extracted no `id`; the record may exist there: check before retrying, and fix the template"),
                )
                .at(step)
            })?),
            _ => extracted.id.clone().or_else(|| state.external_id.clone()),
        };
        scope.external_id = id.clone();
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
