//! The definition compiled once for pushing: per entry, its operations with their templates
//! and sample responses, and its actions. Immutable and shared by every push.

use std::sync::Arc;

use syncdef_definitions::model::{
    Action, ActionIn, ActionType, OperationField, SyncEntry, TemplateBody, TemplateSource,
};
use syncdef_definitions::openapi::OpenApi;
use syncdef_definitions::operation::{Operation, Section};
use syncdef_definitions::operation_ref::{HttpMethod, OperationRef, PlaceholderKind};
use syncdef_definitions::path_match::{PathEntry, PathIndex, Resolution};
use syncdef_definitions::platform::lines::{LinesTarget, lines_target};
use syncdef_definitions::platform::modules;
use syncdef_definitions::template_names;
use syncdef_definitions::{Definition, Node, SourceFile};
use syncdef_transform::value::Shape;
use syncdef_transform::{EvalError, JsonPath, Limits, PathContext, Settings, Template, Value};

use crate::auth::scheme::{CallSecurity, Scheme, definition_schemes};
use crate::auth::{AuthError, OAuthSettings};
use crate::body_media::BodyMedia;
use crate::call::parameters::CallParameters;
use crate::error::EngineError;
use crate::projection::Projection;
use crate::pull::position::Paging;
use crate::reliability::extension::read_extension;
use crate::reliability::{Lookup, Reliability};
use crate::request::{self, Fill, FixedUrl, Target};
use crate::request_check::RequestCheck;
use crate::servers::{Server, ServerTemplate};
use crate::synth;
use crate::transport::SampleResponse;

#[cfg(test)]
mod agreement;

/// Which push operation a request carries out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OperationKind {
    /// `push.create`.
    Create,
    /// `push.update`.
    Update,
    /// `push.delete`.
    Delete,
}

impl From<syncdef_definitions::extension::Operation> for OperationKind {
    fn from(operation: syncdef_definitions::extension::Operation) -> Self {
        use syncdef_definitions::extension::Operation;
        match operation {
            Operation::Create => OperationKind::Create,
            Operation::Update => OperationKind::Update,
            Operation::Delete => OperationKind::Delete,
        }
    }
}

impl OperationKind {
    /// The key in the definition, also the template prefix and the step name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        self.operation().key()
    }

    /// The operation of the format it is.
    #[must_use]
    pub fn operation(self) -> Operation {
        match self {
            OperationKind::Create => Operation::Create,
            OperationKind::Update => Operation::Update,
            OperationKind::Delete => Operation::Delete,
        }
    }
}

/// One external call: where it goes and how its body is made.
#[derive(Debug)]
pub(crate) struct CallPlan {
    /// The push step it is: `create`, `update`, `delete`, or the action's name.
    pub step: Arc<str>,
    /// The names of its templates (`createRequest`, `createResponse`), which the audit trail
    /// of every push records: made once here rather than per push.
    pub request_name: Arc<str>,
    pub response_name: Arc<str>,
    /// The operation reference as written (`/v3/company/{realmId}/customer/post`).
    pub reference: OperationRef,
    /// The request body template (`createRequest`), if any.
    pub request: Option<Template>,
    /// The response template (`createResponse`), if any.
    pub response: Option<Template>,
    /// What the response template reads of the answer, when that is known in advance.
    pub response_reads: Option<Projection>,
    /// Entries whose external id the request template reads (`$.related.<Entry>.IntegrationId`):
    /// without it the body would carry a null reference, so the push stops first.
    pub related_reads: Vec<String>,
    /// What a dry-run answers when given nothing.
    pub sample: Arc<SampleResponse>,
    /// The URL, when it depends on the server alone.
    fixed_url: Option<FixedUrl>,
    /// The operation's request body schema, which every rendered body must fit before it is
    /// sent; `None` when the operation declares none or the entry turns the check off.
    request_check: Option<RequestCheck>,
    /// Whether the operation's `requestBody` is `required`: a call without a body is refused.
    pub body_required: bool,
    /// The media type its body is written in (JSON, a form, a multipart body).
    pub body_media: BodyMedia,
    /// The operation's security requirement (its own, else the document's): the credentials
    /// each request carries.
    pub security: CallSecurity,
    /// The header and query parameters `x-syncdef.parameters` gives the operation.
    pub parameters: CallParameters,
}

impl CallPlan {
    /// The absolute URL of the call on `server`, its placeholders filled from `fill`.
    pub fn target(&self, server: &Arc<Server>, fill: &Fill<'_>) -> Result<Target, EngineError> {
        let build = || request::url(&server.base, &self.reference, fill);
        match &self.fixed_url {
            Some(fixed) => fixed.get(server, build),
            None => build().map(Target::new),
        }
    }

    /// Renders the request body `template` (this call's `request`) over `input` into `out`:
    /// whether the body check was already proven as the body was written.
    pub fn render_body(
        &self,
        template: &Template,
        input: &Value,
        out: &mut String,
    ) -> Result<bool, EvalError> {
        match &self.request_check {
            Some(check) => check.render(template, input, out),
            None => template.apply_to_json(input, out).map(|()| false),
        }
    }

    /// Checks a rendered body against the operation's request body schema (unless `proven`
    /// while it was rendered): a configuration error naming each violation when it does not
    /// fit, so that it is not sent.
    pub fn check_body(&self, body: &[u8], proven: bool) -> Result<(), EngineError> {
        match &self.request_check {
            Some(check) => check
                .check(&self.reference, body, proven)
                .map_err(|e| e.at(&self.step)),
            None => Ok(()),
        }
    }

    /// Whether a placeholder needs the record's own external id.
    pub fn needs_external_id(&self) -> bool {
        self.reference
            .placeholders
            .iter()
            .any(|p| p.kind == PlaceholderKind::IntegrationId)
    }
}

/// Where an `ApiPath` action puts what it read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// `in: Body`: each `(name, response field)` becomes available to templates.
    Body(Vec<(String, String)>),
    /// `in: Header`: send header `name` with the value of response field `source`.
    Header {
        /// The request header (`If-Match`).
        name: String,
        /// The response field (`@odata.etag`).
        source: String,
    },
    /// Nothing is read (the call is made for its effect).
    Nothing,
}

/// One pre- or post-synchronization action.
#[derive(Debug)]
pub(crate) enum ActionPlan {
    /// `ApiPath`: call an operation and read a value from its response.
    Call {
        name: String,
        // Boxed: a call plan is large and actions are few; keeps the enum small.
        call: Box<CallPlan>,
        placement: Placement,
    },
    /// `ApiSynchronization`: have the caller push a related entry or child collection, or,
    /// when `lines` names an entry of lines, push each line of the record with that entry.
    Synchronize {
        name: String,
        target: String,
        lines: Option<Arc<str>>,
    },
}

/// One entry (`Account`) compiled for pushing.
#[derive(Debug)]
pub struct EntryPlan {
    /// The entry's key; shared with the outcome of every push of the entry.
    pub name: Arc<str>,
    /// The platform module of its records.
    pub module: &'static modules::Module,
    /// The members of its templates' input (`root` first, then the parent's root for an
    /// entry of lines), shared by every push.
    pub(crate) input_shape: Shape,
    pub(crate) create: Option<CallPlan>,
    pub(crate) update: Option<CallPlan>,
    pub(crate) delete: Option<CallPlan>,
    pub(crate) pre_actions: Vec<ActionPlan>,
    pub(crate) post_actions: Vec<ActionPlan>,
    /// How to search the external system for a record a create of unknown outcome may have
    /// made (`x-syncdef.lookup`).
    pub(crate) lookup: Option<LookupPlan>,
    /// `pull.read`: one record by its external id.
    pub(crate) read: Option<CallPlan>,
    /// `pull.batchRead`: the records, page by page, as `paging` says.
    pub(crate) batch_read: Option<CallPlan>,
    /// `x-syncdef.pull.<Entry>` (default: one request).
    pub(crate) paging: Paging,
}

/// An entry's lookup, compiled: the GET it makes and the path to the ids it finds.
#[derive(Debug)]
pub(crate) struct LookupPlan {
    pub call: CallPlan,
    pub declared: Lookup,
    pub ids: JsonPath,
}

impl EntryPlan {
    /// The JSONPath root its record is given under (`account` for `$.account`).
    #[must_use]
    pub fn root(&self) -> &'static str {
        self.module.root
    }

    pub(crate) fn operation(&self, kind: OperationKind) -> Option<&CallPlan> {
        match kind {
            OperationKind::Create => self.create.as_ref(),
            OperationKind::Update => self.update.as_ref(),
            OperationKind::Delete => self.delete.as_ref(),
        }
    }

    /// Whether the entry defines `kind`.
    #[must_use]
    pub fn has(&self, kind: OperationKind) -> bool {
        self.operation(kind).is_some()
    }

    /// Whether the entry defines `pull.batchRead`.
    #[must_use]
    pub fn pulls(&self) -> bool {
        self.batch_read.is_some()
    }

    /// Whether the entry defines `pull.read` (one record by its external id).
    #[must_use]
    pub fn reads(&self) -> bool {
        self.read.is_some()
    }
}

/// A whole definition compiled for pushing.
#[derive(Debug)]
pub struct DefinitionPlan {
    /// The definition's file name, for messages.
    pub name: String,
    pub(crate) server: ServerTemplate,
    pub(crate) entries: Vec<EntryPlan>,
    /// What OAuth2 login and token refresh use, or why the definition gives them nothing.
    pub(crate) oauth: Result<OAuthSettings, AuthError>,
    /// The security schemes of `components.securitySchemes`, as requests send them.
    pub(crate) schemes: Vec<Arc<Scheme>>,
    pub(crate) reliability: Reliability,
}

impl DefinitionPlan {
    /// The entry named `name`.
    #[must_use]
    pub fn entry(&self, name: &str) -> Option<&EntryPlan> {
        self.entries.iter().find(|e| *e.name == *name)
    }

    /// Whether the entry named `name` has the operation `kind` (`false` for no such entry).
    #[must_use]
    pub fn entry_has(&self, name: &str, kind: OperationKind) -> bool {
        self.entry(name).is_some_and(|e| e.has(kind))
    }

    /// The entry names, in document order.
    pub fn entry_names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| &*e.name)
    }

    /// The `default` of the server variable `name`, the value a push uses unless told
    /// otherwise (`--var`); `None` when the server declares no such variable.
    #[must_use]
    pub fn server_variable_default(&self, name: &str) -> Option<&str> {
        self.server
            .variables
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.default.as_str())
    }

    /// What the definition's `x-syncdef` declares (retries, rate limits, conflicts,
    /// idempotency), defaults filled in.
    #[must_use]
    pub fn reliability(&self) -> &Reliability {
        &self.reliability
    }

    /// Whether a push of `entry` can find out if an earlier create of unknown outcome was
    /// carried out, without a person: the entry declares a lookup, or the create carried an
    /// idempotency key (`kept_key`) that the definition still declares.
    #[must_use]
    pub fn finds_out_unknown_create(&self, entry: &str, kept_key: bool) -> bool {
        let lookup = self.entry(entry).is_some_and(|e| e.lookup.is_some());
        lookup || (kept_key && self.reliability.keys_creates())
    }

    /// The definition's OAuth2 authorization-code flow (see [`OAuthSettings::from_openapi`]).
    ///
    /// # Errors
    /// Why the definition gives OAuth2 login and token refresh nothing to use.
    pub fn oauth(&self) -> Result<&OAuthSettings, &AuthError> {
        self.oauth.as_ref()
    }

    /// The definition's security schemes, as requests send them (for
    /// [`Credentials::from_env`](crate::auth::Credentials::from_env)).
    pub fn security_schemes(&self) -> impl Iterator<Item = &Scheme> {
        self.schemes.iter().map(AsRef::as_ref)
    }

    /// Compiles `definition`. The validator has passed it, so what it guarantees is checked
    /// again only to turn a gap into a message rather than a panic.
    pub(crate) fn compile(
        definition: &Definition,
        limits: &Limits,
    ) -> Result<DefinitionPlan, Vec<String>> {
        let mut problems = Vec::new();
        // Read once: the calls keep their media types and parameters, the policies the rest.
        let mut policies = read_extension(definition).map_err(|e| vec![e])?;
        let extension = syncdef_definitions::extension::Extension {
            parameters: policies.parameters.take(),
            request_media_type: policies.request_media_type.take(),
            ..Default::default()
        };
        let reliability = Reliability::from(policies);
        let api = definition.openapi();
        let Some(sync) = &definition.sync else {
            return Err(vec![
                "the definition has no `synchronization` section".into(),
            ]);
        };
        let server = match ServerTemplate::from_openapi(api) {
            Ok(s) => s,
            Err(e) => return Err(vec![e]),
        };
        let settings = Settings {
            limits: *limits,
            ..Settings::default()
        };
        let paths = definition.paths();
        let schemes = definition_schemes(&api);
        let skip = &reliability.request_validation.skip;
        let known: Vec<&str> = sync.entries.iter().map(|e| &*e.key.value).collect();
        for name in skip {
            if !known.contains(&name.as_str()) {
                problems.push(format!(
                    "`x-syncdef.requestValidation.skip` names `{name}`, which is not an entry of the `synchronization` section (it has: {})",
                    known.join(", ")
                ));
            }
        }
        let mut entries = Vec::new();
        for entry in &sync.entries {
            let sources = Sources {
                media_type: extension.request_media_type(&entry.key.value),
                root: definition.root(),
                file: &definition.source,
                check_bodies: !skip.contains(&entry.key.value),
                paging: reliability.pull.get(&entry.key.value),
                schemes: &schemes,
                parameters: extension.parameters.as_ref(),
            };
            match compile_entry(&paths, entry, &settings, &sources) {
                Ok(e) => entries.push(e),
                Err(mut p) => problems.append(&mut p),
            }
        }
        link_lines(&mut entries, &sync.entries, &mut problems);
        for (name, lookup) in &reliability.lookups {
            let Some(entry) = entries.iter_mut().find(|e| *e.name == **name) else {
                if !sync.entries.iter().any(|e| e.key.value == *name) {
                    problems.push(format!(
                        "`x-syncdef.lookup.{name}`: the definition has no entry `{name}`"
                    ));
                }
                continue;
            };
            // A lookup is a GET without a body: nothing to check against a schema.
            let sources = Sources {
                root: definition.root(),
                file: &definition.source,
                check_bodies: false,
                paging: None,
                media_type: None,
                schemes: &schemes,
                parameters: extension.parameters.as_ref(),
            };
            match lookup_plan(&paths, lookup, &settings, &sources) {
                Ok(plan) => entry.lookup = Some(plan),
                Err(e) => problems.push(format!("`x-syncdef.lookup.{name}`: {e}")),
            }
        }
        if problems.is_empty() {
            Ok(DefinitionPlan {
                name: definition.source.name().to_owned(),
                server,
                entries,
                oauth: OAuthSettings::from_openapi(&api),
                schemes,
                reliability,
            })
        } else {
            Err(problems)
        }
    }
}

/// What a call plan needs of the definition beyond the OpenAPI model: the spanned tree and
/// file, to compile request body schemas and locate what breaks them.
struct Sources<'d> {
    root: Node<'d>,
    file: &'d Arc<SourceFile>,
    /// Whether the entry's bodies are checked against their schemas (`x-syncdef.requestValidation`).
    check_bodies: bool,
    /// The entry's `x-syncdef.pull`, if declared.
    paging: Option<&'d syncdef_definitions::extension::PullSpec>,
    /// The media type `x-syncdef.requestMediaType` names for the entry's request bodies.
    media_type: Option<&'d str>,
    /// The definition's security schemes, which every call's requirement names.
    schemes: &'d [Arc<Scheme>],
    /// `x-syncdef.parameters`.
    parameters: Option<&'d syncdef_definitions::extension::ParametersSpec>,
}

fn compile_entry(
    paths: &PathIndex<'_>,
    entry: &SyncEntry,
    settings: &Settings,
    sources: &Sources<'_>,
) -> Result<EntryPlan, Vec<String>> {
    use Operation::{BatchRead, Create, Delete, Read, Update};
    let name = entry.key.value.clone();
    let mut problems = Vec::new();
    let module = entry
        .module
        .as_ref()
        .and_then(|m| modules::module(&m.value));
    if module.is_none() {
        problems.push(format!("entry `{name}`: unknown or missing `module`"));
    }
    if entry.push.is_none() && entry.pull.is_none() {
        return Err(vec![format!(
            "entry `{name}` has neither `push` nor `pull`"
        )]);
    }
    let no_templates = Vec::new();
    let templates = entry
        .push
        .as_ref()
        .map_or(&no_templates, |p| &p.common.templates);
    let mut op = |field: Option<&OperationField>, templates: &[TemplateSource], kind: Operation| {
        let (field, prefix) = (field?, kind.key());
        if let Some(problem) = response_form(templates, prefix) {
            problems.push(format!("entry `{name}`, `{prefix}`: {problem}"));
            return None;
        }
        match call_plan(paths, &field.parsed, templates, prefix, settings, sources) {
            Ok(c) => Some(c),
            Err(e) => {
                problems.push(format!("entry `{name}`, `{prefix}`: {e}"));
                None
            }
        }
    };
    let push = entry.push.as_ref();
    let create = op(push.and_then(|p| p.create.as_ref()), templates, Create);
    let update = op(push.and_then(|p| p.update.as_ref()), templates, Update);
    let delete = op(push.and_then(|p| p.delete.as_ref()), templates, Delete);
    let pull = entry.pull.as_ref();
    let pull_templates = pull.map_or(&no_templates, |p| &p.common.templates);
    let read = op(pull.and_then(|p| p.read.as_ref()), pull_templates, Read);
    let batch_read = op(
        pull.and_then(|p| p.batch_read.as_ref()),
        pull_templates,
        BatchRead,
    );
    if pull.is_some_and(|p| !p.common.pre_actions.is_empty() || !p.common.post_actions.is_empty()) {
        problems.push(format!(
            "entry `{name}`: `pull` has synchronization actions, which a pull does not run: remove them (an action reads or pushes on behalf of a push)"
        ));
    }
    let mut actions = |list: &[Action]| {
        list.iter()
            .filter_map(
                |a| match action_plan(paths, a, templates, settings, sources) {
                    Ok(plan) => Some(plan),
                    Err(e) => {
                        problems.push(format!("entry `{name}`, action `{}`: {e}", a.name.value));
                        None
                    }
                },
            )
            .collect::<Vec<_>>()
    };
    let pre_actions = push
        .map(|p| actions(&p.common.pre_actions))
        .unwrap_or_default();
    let post_actions = push
        .map(|p| actions(&p.common.post_actions))
        .unwrap_or_default();
    if let (Some(parent), Some(_)) = (module.and_then(|m| m.parent), &entry.pull) {
        problems.push(format!(
            "entry `{name}`: lines are not pulled on their own (they are read with their `{parent}` record): remove its `pull`"
        ));
    }
    let shape = module.and_then(|m| input_shape(m.record_roots()));
    if let (Some(module), None) = (module, &shape) {
        problems.push(format!(
            "entry `{name}`: its record's root `{}` is also a member of every template input",
            module.root
        ));
    }
    let (Some(input_shape), Some(module), true) = (shape, module, problems.is_empty()) else {
        return Err(problems);
    };
    Ok(EntryPlan {
        name: Arc::from(name),
        input_shape,
        module,
        create,
        update,
        delete,
        pre_actions,
        post_actions,
        lookup: None,
        read,
        batch_read,
        paging: sources.paging.map(Paging::from).unwrap_or_default(),
    })
}

/// Sets, on each `ApiSynchronization` action that names lines, the entry that pushes them
/// ([`lines_target`]); refuses what SD507 reports.
fn link_lines(entries: &mut [EntryPlan], declared: &[SyncEntry], problems: &mut Vec<String>) {
    let names: Vec<(&str, Option<&str>)> = declared
        .iter()
        .map(|e| {
            (
                e.key.value.as_str(),
                e.module.as_ref().map(|m| m.value.as_str()),
            )
        })
        .collect();
    for entry in entries.iter_mut() {
        let module = entry.module;
        let lists = [
            (true, &mut entry.pre_actions),
            (false, &mut entry.post_actions),
        ];
        for (pre, list) in lists {
            for action in list.iter_mut() {
                let ActionPlan::Synchronize {
                    name,
                    target,
                    lines,
                } = action
                else {
                    continue;
                };
                let at = format!("entry `{}`, action `{name}`", entry.name);
                match lines_target(module, target, names.iter().copied()) {
                    LinesTarget::NotLines => {}
                    LinesTarget::Entry(_) if pre => problems.push(format!(
                        "{at}: lines are pushed once their {} exists: move the action to `postSynchronizationAction`",
                        module.root
                    )),
                    LinesTarget::Entry(found) => *lines = Some(Arc::from(found)),
                    LinesTarget::Ambiguous => problems.push(format!(
                        "{at}: several entries push `{target}`: name one of them in `path`"
                    )),
                    LinesTarget::ForeignParent(of) => problems.push(format!(
                        "{at}: `{target}` pushes lines of `{}`, not of `{}`",
                        of.parent.unwrap_or_default(),
                        module.name
                    )),
                }
            }
        }
    }
}

fn lookup_plan(
    paths: &PathIndex<'_>,
    lookup: &Lookup,
    settings: &Settings,
    sources: &Sources<'_>,
) -> Result<LookupPlan, String> {
    let parsed = OperationRef::parse(&lookup.path);
    let call = call_plan(paths, &parsed, &[], "lookup", settings, sources)?;
    if call.reference.method != HttpMethod::Get {
        return Err(format!(
            "`{}` is not a GET: a lookup only reads",
            lookup.path
        ));
    }
    let ids = JsonPath::parse(&lookup.ids)
        .map_err(|e| format!("`ids: {}` is not a JSONPath: {e}", lookup.ids))?;
    Ok(LookupPlan {
        call,
        declared: lookup.clone(),
        ids,
    })
}

/// The keys of the template input of an entry whose records are under `roots` (`$.account`;
/// `$.invoiceItem` then `$.invoice` for lines); `None` when a root is one of the other keys.
pub(crate) fn input_shape(roots: impl Iterator<Item = &'static str>) -> Option<Shape> {
    Shape::new(roots.map(Arc::from).chain([
        Arc::from("serverVariables"),
        Arc::from("externalId"),
        Arc::from("syncToken"),
        Arc::from("syncTokens"),
        Arc::from("related"),
    ]))
}

fn call_plan(
    paths: &PathIndex<'_>,
    parsed: &Result<OperationRef, syncdef_definitions::operation_ref::OperationRefError>,
    templates: &[TemplateSource],
    prefix: &str,
    settings: &Settings,
    sources: &Sources<'_>,
) -> Result<CallPlan, String> {
    let reference = parsed.clone().map_err(|e| e.message)?;
    let (path, operation_node) = operation(paths, &reference)?;
    let api = OpenApi::new(sources.root);
    let parameters = CallParameters::of(
        sources.parameters,
        &api.operation(operation_node)
            .sent_parameters(Some(path.item)),
    );
    let security = CallSecurity::of(&api, operation_node, sources.schemes);
    if let Some(name) = security.undefined() {
        return Err(format!(
            "`{reference}` requires the security scheme `{name}`, which `components.securitySchemes` does not define"
        ));
    }
    if !security.sendable() {
        return Err(format!(
            "`{reference}` can be sent with none of its security requirements: it requires {security}"
        ));
    }
    let sample = synth::sample(&sources.root, &api.operation(operation_node));
    let request_name = template_names::request_name(prefix);
    let response_name = template_names::response_name(prefix);
    let request = template(templates, &request_name, settings)?;
    let body_media = match &request {
        Some(_) => BodyMedia::of(sources.root, operation_node, sources.media_type)
            .map_err(|e| format!("`{reference}`, its request body: {e}"))?,
        None => BodyMedia::json(),
    };
    let request_check = match templates.iter().find(|t| t.name.value == request_name) {
        Some(source) if sources.check_bodies => match &request {
            Some(compiled) => RequestCheck::compile(
                &sources.root,
                &operation_node,
                sources.media_type,
                source,
                compiled,
                sources.file,
            )
            .map_err(|e| format!("`{reference}`: {e}"))?,
            None => None,
        },
        _ => None,
    };
    let response = template(templates, &response_name, settings)?;
    let fixed_url = reference
        .placeholders
        .iter()
        .all(|p| p.kind == PlaceholderKind::Name)
        .then(FixedUrl::default);
    Ok(CallPlan {
        step: Arc::from(prefix),
        request_name: Arc::from(request_name),
        response_name: Arc::from(response_name),
        fixed_url,
        request_check,
        body_required: syncdef_validator::request_schema::body_required(
            &sources.root,
            &operation_node,
        ),
        body_media,
        related_reads: request.as_ref().map(related_reads).unwrap_or_default(),
        request,
        response_reads: response.as_ref().and_then(Projection::of),
        response,
        reference,
        sample: Arc::new(sample),
        security,
        parameters,
    })
}

/// The operation `reference` names. It is matched on the document's tree by the lookup the
/// validator uses, so the operation planned is the one the linter checked the templates against.
/// Answers the path template too, which the plan/lint agreement tests compare.
fn operation<'p>(
    paths: &PathIndex<'p>,
    reference: &OperationRef,
) -> Result<(PathEntry<'p>, Node<'p>), String> {
    match paths.resolve(reference) {
        Resolution::Found {
            path, operation, ..
        } => Ok((path, operation)),
        _ => Err(format!("`{reference}` names no operation of the document")),
    }
}

/// The entries a template reads under `$.related`, each once, in template order.
fn related_reads(template: &Template) -> Vec<String> {
    let mut entries: Vec<String> = Vec::new();
    for read in template.paths() {
        if read.context != PathContext::Root {
            continue;
        }
        let mut chain = read.path.member_chain();
        if let (Some(("related", _)), Some((entry, _))) = (chain.next(), chain.next())
            && !entries.iter().any(|e| e == entry)
        {
            entries.push(entry.to_owned());
        }
    }
    entries
}

fn template(
    templates: &[TemplateSource],
    name: &str,
    settings: &Settings,
) -> Result<Option<Template>, String> {
    let Some(source) = templates.iter().find(|t| t.name.value == name) else {
        return Ok(None);
    };
    let compiled = match &source.body {
        TemplateBody::Node(tree) => Template::compile(tree.root().to_json(), settings),
        TemplateBody::JsonText(text) => Template::compile_str(&text.value, settings),
    };
    compiled
        .map(Some)
        .map_err(|e| format!("template `{name}` does not compile: {e}"))
}

/// Why the response template of push operation `prefix` cannot be read as the create
/// result (not an object; for a create, no `id`): the judgment of lint rules SD812 and SD804.
fn response_form(templates: &[TemplateSource], prefix: &str) -> Option<String> {
    if Operation::from_key(prefix).is_none_or(|o| o.section() != Section::Push) {
        return None;
    }
    let name = template_names::response_name(prefix);
    let source = templates.iter().find(|t| t.name.value == name)?;
    let json = match &source.body {
        TemplateBody::Node(tree) => tree.root().to_json(),
        // JSON text that does not parse fails to compile, reported there.
        TemplateBody::JsonText(text) => serde_json::from_str(&text.value).ok()?,
    };
    syncdef_validator::templates::response_template_problem(prefix, &json)
        .map(|(rule, problem)| format!("template `{name}` {problem} ({})", rule.code()))
}

fn action_plan(
    paths: &PathIndex<'_>,
    action: &Action,
    templates: &[TemplateSource],
    settings: &Settings,
    sources: &Sources<'_>,
) -> Result<ActionPlan, String> {
    let name = action.name.value.clone();
    let path = action
        .path
        .as_ref()
        .map(|p| p.value.clone())
        .ok_or("the action has no `path`")?;
    match action.kind.as_ref().map(|k| &k.value) {
        // Whether the target is lines is known once every entry is: `link_lines`.
        Some(ActionType::ApiSynchronization) => Ok(ActionPlan::Synchronize {
            name,
            target: path,
            lines: None,
        }),
        Some(ActionType::ApiPath) => {
            let parsed = action
                .path_ref
                .clone()
                .ok_or("the action's `path` is not an operation reference")?;
            let call = call_plan(paths, &parsed, templates, &name, settings, sources)?;
            Ok(ActionPlan::Call {
                placement: placement(action)?,
                name,
                call: Box::new(call),
            })
        }
        Some(ActionType::Unknown(t)) => Err(format!("unknown action type `{t}`")),
        None => Err("the action has no `type`".into()),
    }
}

fn placement(action: &Action) -> Result<Placement, String> {
    let Some(schema) = &action.schema else {
        return Ok(Placement::Nothing);
    };
    match action.placement.as_ref().map(|p| &p.value) {
        Some(ActionIn::Header) => {
            let name = schema
                .header
                .as_ref()
                .ok_or("`in: Header` needs `schema.header`")?;
            let source = schema
                .header_value
                .as_ref()
                .ok_or("`in: Header` needs `schema.headerValue`")?;
            Ok(Placement::Header {
                name: name.value.clone(),
                source: source.value.clone(),
            })
        }
        Some(ActionIn::Body) | None => Ok(Placement::Body(
            schema
                .fields
                .iter()
                .map(|f| (f.name.value.clone(), f.source.value.clone()))
                .collect(),
        )),
        Some(ActionIn::Unknown(v)) => Err(format!("unknown `in: {v}`")),
    }
}
