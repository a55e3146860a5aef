//! The engine's refusals of a definition and the lint rules that catch the definitions reaching
//! them: each case is a small definition the linter refuses with the rule named, and which the
//! engine, made to load it anyway (its rules silenced, as `syncdef.toml` can), refuses in turn
//! without sending what it refuses.

use crate::common;

use std::sync::Arc;

use syncdef_definitions::settings::PushConfig;
use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::{
    Engine, ErrorClass, PushOutcome, RecordState, RecordingTransport, RetryPolicy, StaticToken,
    StepResponse,
};
use syncdef_validator::{RuleSettings, Severity, lint_definition};

/// The generic fixture with `from` replaced by `to` (which must occur in it).
fn generic_with(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("the fixture");
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

/// The codes of the errors the linter reports on `text`.
fn lint_errors(text: &str) -> Vec<String> {
    let definition = Definition::load(SourceFile::new("case.yaml", text)).expect("it loads");
    let mut codes: Vec<String> = lint_definition(&definition, &RuleSettings::default(), true)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code().to_owned())
        .collect();
    codes.dedup();
    codes
}

/// The Account of `text` pushed (with the external id `external_id` when given) by an engine
/// that loaded it whatever its lint findings; the outcome and the requests that went out.
async fn pushed_anyway(
    text: &str,
    external_id: Option<&str>,
) -> (PushOutcome, Vec<syncdef_engine::HttpRequest>) {
    let definition = Definition::load(SourceFile::new("case.yaml", text)).expect("it loads");
    let limits = syncdef_transform::Limits::default();
    let loaded = Engine::load_linted(&definition, Vec::new(), &PushConfig::default(), &limits)
        .unwrap_or_else(|refused| panic!("{refused}"));
    let transport = Arc::new(RecordingTransport::synthesizing());
    let engine = loaded
        .engine
        .with_transport(transport.clone())
        .with_token_provider(Arc::new(StaticToken::new("stand-in")))
        .with_retry_policy(RetryPolicy::none());
    let mut state = RecordState::new().with_related("Account", "1");
    if let Some(id) = external_id {
        state = state.with_external_id(id);
    }
    let outcome = engine.push("Account", &common::account(), &state).await;
    (outcome, transport.requests())
}

fn assert_refused(outcome: &PushOutcome, says: &str) {
    let error = outcome.error.as_ref().expect("the push is refused");
    assert_eq!(error.class, ErrorClass::Configuration, "{error}");
    assert!(error.message.contains(says), "{error}");
}

#[tokio::test]
async fn a_misspelt_create_request_is_an_error_and_no_create_is_sent_without_its_body() {
    let text = generic_with("        createRequest:\n", "        createRequestX:\n");
    assert_eq!(lint_errors(&text), ["SD401"]);
    let (outcome, sent) = pushed_anyway(&text, None).await;
    assert_refused(&outcome, "requires a request body");
    assert!(sent.is_empty(), "{sent:#?}");
}

#[tokio::test]
async fn a_misspelt_update_request_is_an_error_and_no_update_is_sent_without_its_body() {
    let text = generic_with("        updateRequest:\n", "        updateRequst:\n");
    assert_eq!(lint_errors(&text), ["SD401"]);
    let (outcome, sent) = pushed_anyway(&text, Some("7")).await;
    assert_refused(&outcome, "requires a request body");
    assert!(sent.is_empty(), "{sent:#?}");
}

#[tokio::test]
async fn a_misspelt_create_response_is_an_error() {
    let text = generic_with("        createResponse:\n", "        createRespons:\n");
    assert_eq!(lint_errors(&text), ["SD401"]);
}

/// The generic fixture whose `notify` operation requires a JSON body.
fn notify_requiring_a_body() -> String {
    generic_with(
        "    post:\n      operationId: notifyAccount\n",
        "    post:\n      operationId: notifyAccount\n      requestBody:\n        required: true\n        content:\n          application/json:\n            schema: {type: object}\n",
    )
}

#[tokio::test]
async fn an_action_whose_operation_requires_a_body_needs_its_request_template() {
    let text = notify_requiring_a_body();
    assert_eq!(lint_errors(&text), ["SD401"]);
    let (outcome, sent) = pushed_anyway(&text, None).await;
    // The create went out; the post-action is refused before it is sent.
    let error = outcome
        .post_action_error
        .as_ref()
        .expect("the post-action fails");
    assert_eq!(error.class, ErrorClass::Configuration, "{error}");
    assert!(error.message.contains("requires a request body"), "{error}");
    assert_eq!(sent.len(), 1, "{sent:#?}");
    // With the template, it lints clean (the template is not unused) and the body is sent.
    let with = text.replacen(
        "        createRequest:\n",
        "        NotifyRequest: {note: created}\n        createRequest:\n",
        1,
    );
    assert_eq!(lint_errors(&with), Vec::<String>::new());
    let (outcome, sent) = pushed_anyway(&with, None).await;
    assert!(outcome.post_action_error.is_none(), "{outcome:#?}");
    assert_eq!(sent.len(), 3, "{sent:#?}");
}

#[tokio::test]
async fn a_request_template_writing_null_is_an_error() {
    let text = generic_with(
        "        createRequest:\n          name: \"#valueof($.account.name)\"\n          email: \"#valueof($.account.corpEmail)\"\n",
        "        createRequest: \"null\"\n",
    );
    let errors = lint_errors(&text);
    assert_eq!(errors, ["SD802"]);
    let (outcome, sent) = pushed_anyway(&text, None).await;
    assert_refused(&outcome, "");
    assert!(sent.is_empty(), "{sent:#?}");
}

/// Why the engine, made to load `text` whatever its lint findings, refuses it.
fn load_refused(text: &str) -> Option<String> {
    let definition = Definition::load(SourceFile::new("case.yaml", text)).expect("it loads");
    let limits = syncdef_transform::Limits::default();
    Engine::load_linted(&definition, Vec::new(), &PushConfig::default(), &limits)
        .err()
        .map(|refused| format!("{refused}: {:?}", refused.problems))
}

const CREATE_RESPONSE: &str = "        createResponse:\n          id: \"#valueof($.id)\"\n          success: \"#valueof($.success)\"\n          errors: \"#valueof($.errors)\"\n";

#[test]
fn a_create_response_that_makes_no_object_with_an_id_is_an_error_and_refused() {
    for written in [
        "        createResponse:\n          - id: \"#valueof($.id)\"\n",
        "        createResponse: '[{\"id\": \"#valueof($.id)\"}]'\n",
        "        createResponse: '\"#valueof($.id)\"'\n",
        "        createResponse: '7'\n",
        "        createResponse: {\"#loop($.errors)\": {id: \"#valueof($.id)\"}}\n",
    ] {
        let text = generic_with(CREATE_RESPONSE, written);
        assert_eq!(lint_errors(&text), ["SD812"], "{written}");
        let refused = load_refused(&text).unwrap_or_else(|| panic!("loaded: {written}"));
        assert!(refused.contains("createResponse"), "{refused}");
    }
}

#[test]
fn an_update_response_that_makes_no_object_is_an_error_and_refused() {
    let text = generic_with(
        "        updateResponse:\n          id: \"#valueof($.id)\"\n          success: \"#valueof($.success)\"\n          errors: \"#valueof($.errors)\"\n",
        "        updateResponse: '[]'\n",
    );
    assert_eq!(lint_errors(&text), ["SD812"]);
    assert!(load_refused(&text).is_some_and(|r| r.contains("updateResponse")));
}

#[test]
fn a_create_response_without_an_id_is_an_error_and_refused() {
    let text = generic_with(
        CREATE_RESPONSE,
        "        createResponse:\n          success: \"#valueof($.success)\"\n",
    );
    assert_eq!(lint_errors(&text), ["SD804"]);
    assert!(load_refused(&text).is_some_and(|r| r.contains("SD804")));
}

/// A small definition that reaches one refusal of `syncdef_engine::refusals::REFUSALS`.
struct Case {
    /// The row's `says`.
    says: &'static str,
    /// The fixture edited, and the edits: each `from` (which must occur) replaced by its `to`.
    fixture: &'static str,
    edits: Vec<(&'static str, String)>,
    /// What the engine's refusal says when it is reached.
    message: &'static str,
}

const G: &str = "generic.yaml";
const SYNC: &str = "synchronization:\n  Account:\n";
const NOTIFY: &str = "        Notify:\n          type: ApiPath\n          path: /accounts/{IntegrationId}/notify/post\n";

fn case(says: &'static str, from: &'static str, to: &str, message: &'static str) -> Case {
    Case {
        says,
        fixture: G,
        edits: vec![(from, to.to_owned())],
        message,
    }
}

/// `generic.yaml` with `x-syncdef` declaring `extension`.
fn extension(says: &'static str, extension: &str, message: &'static str) -> Case {
    case(
        says,
        SYNC,
        &format!("x-syncdef:\n{extension}{SYNC}"),
        message,
    )
}

/// `generic.yaml` with the `Notify` post-action written as `action`.
fn notify(says: &'static str, action: &str, message: &'static str) -> Case {
    case(says, NOTIFY, &format!("        Notify:\n{action}"), message)
}

/// The Invoice's pre-actions in `generic.yaml`, after which a post-action goes.
const INVOICE_ACTIONS: &str = "      preSynchronizationAction:\n        Account:\n          type: ApiSynchronization\n          path: Account\n";

/// Where the Invoice entry of `generic.yaml` starts.
const INVOICE_ENTRY: &str = "  Invoice:\n    description: Invoices, under their account\n";

/// An entry `name` of module `module` (a module of lines, with whatever follows `module:`),
/// pushing to the accounts' create.
fn lines_entry(name: &str, module: &str) -> String {
    format!(
        "  {name}:\n    module: {module}\n    push:\n      create: /accounts/post\n      schemasTransformer:\n        createRequest: {{name: \"#valueof($.related.Invoice.IntegrationId)\"}}\n        createResponse: {{id: \"#valueof($.id)\"}}\n"
    )
}

/// `generic.yaml` with an entry `Lines` of module `module` before the Invoice, and `from`
/// replaced by `to`.
fn lines(
    says: &'static str,
    from: &'static str,
    to: &str,
    module: &str,
    message: &'static str,
) -> Case {
    let mut case = case(says, from, to, message);
    case.edits.push((
        INVOICE_ENTRY,
        format!("{}{INVOICE_ENTRY}", lines_entry("Lines", module)),
    ));
    case
}

fn pull(says: &'static str, from: &'static str, to: &str, message: &'static str) -> Case {
    Case {
        fixture: "pull.yaml",
        ..case(says, from, to, message)
    }
}

#[expect(
    clippy::too_many_lines,
    reason = "a table: one case per refusal that has a rule"
)]
fn cases() -> Vec<Case> {
    let mut dots = case(
        "has a `.` or `..` segment",
        "  /accounts/{accountId}/notify:\n",
        "  /accounts/{accountId}/../notify:\n",
        "has a `.` or `..` segment",
    );
    dots.edits.push((
        "          path: /accounts/{IntegrationId}/notify/post\n",
        "          path: /accounts/{IntegrationId}/../notify/post\n".to_owned(),
    ));
    let mut read = case(
        "the response has no `{source}`",
        "      postSynchronizationAction:\n",
        "      preSynchronizationAction:\n        Token:\n          type: ApiPath\n          path: /accounts/{IntegrationId}/put\n          schema: {type: String, Token: Missing.Field}\n          in: Body\n      postSynchronizationAction:\n",
        "the response has no `Missing.Field`",
    );
    read.edits.push((
        "        createRequest:\n",
        "        TokenRequest: {name: noted}\n        createRequest:\n".to_owned(),
    ));
    vec![
        read,
        case(
            "has no `synchronization` section",
            "synchronization:\n",
            "synchronizaton:\n",
            "no `synchronization` section",
        ),
        extension(
            "`x-syncdef.requestValidation.skip` names",
            "  requestValidation: {skip: [Nope]}\n",
            "has no entry `Nope`",
        ),
        extension(
            "`x-syncdef.lookup.{name}`: the definition has no entry",
            "  lookup:\n    Nope: {path: /accounts/post, quote: odata, ids: $.id}\n",
            "has no entry `Nope`",
        ),
        extension(
            "`x-syncdef.lookup.{name}`: {e}",
            "  lookup:\n    Account: {path: /nowhere/get, quote: odata, ids: $.id}\n",
            "`x-syncdef.lookup.Account`",
        ),
        extension(
            "is not a GET: a lookup only reads",
            "  lookup:\n    Account: {path: /accounts/post, quote: odata, ids: $.id}\n",
            "must name a GET operation",
        ),
        pull(
            "is not a JSONPath",
            "x-syncdef:\n",
            "x-syncdef:\n  lookup:\n    Customer: {path: \"/v3/company/{realmId}/query/get\", quote: odata, ids: \"$[\"}\n",
            "is not a JSONPath",
        ),
        case(
            "unknown or missing `module`",
            "    module: Accounts\n",
            "    module: Acounts\n",
            "unknown or missing `module`",
        ),
        case(
            "has neither `push` nor `pull`",
            SYNC,
            "synchronization:\n  Empty:\n    description: Nothing\n    module: Accounts\n  Account:\n",
            "has neither `push` nor `pull`",
        ),
        case(
            "entry `{name}`, `{prefix}`: {problem}",
            "        createResponse:\n          id: \"#valueof($.id)\"\n          success: \"#valueof($.success)\"\n          errors: \"#valueof($.errors)\"\n",
            "        createResponse: '[]'\n",
            "`createResponse` is an array",
        ),
        case(
            "entry `{name}`, `{prefix}`: {e}",
            "      create: /accounts/post\n",
            "      create: /acounts/post\n",
            "names no operation",
        ),
        case(
            "names no operation of the document",
            "      create: /accounts/post\n",
            "      create: /acounts/post\n",
            "names no operation",
        ),
        lines(
            "lines are pushed once their",
            "        Account:\n          type: ApiSynchronization\n          path: Account\n",
            "        Account:\n          type: ApiSynchronization\n          path: Account\n        Items:\n          type: ApiSynchronization\n          path: Lines\n",
            "InvoiceItems",
            "lines are pushed once their invoice exists",
        ),
        {
            let mut two = lines(
                "several entries push `{target}`",
                INVOICE_ACTIONS,
                &format!(
                    "{INVOICE_ACTIONS}      postSynchronizationAction:\n        Items: {{type: ApiSynchronization, path: InvoiceItems}}\n"
                ),
                "InvoiceItems",
                "several entries push `InvoiceItems`",
            );
            two.edits.push((
                INVOICE_ENTRY,
                format!("{}{INVOICE_ENTRY}", lines_entry("Lines2", "InvoiceItems")),
            ));
            two
        },
        lines(
            "pushes lines of `{}`, not of `{}`",
            INVOICE_ACTIONS,
            &format!(
                "{INVOICE_ACTIONS}      postSynchronizationAction:\n        Items: {{type: ApiSynchronization, path: Lines}}\n"
            ),
            "OrderItems",
            "`Lines` pushes lines of `Orders`, not of `Invoices`",
        ),
        lines(
            "lines are not pulled on their own",
            INVOICE_ACTIONS,
            &format!(
                "{INVOICE_ACTIONS}      postSynchronizationAction:\n        Items: {{type: ApiSynchronization, path: Lines}}\n"
            ),
            "InvoiceItems\n    pull:\n      read: /accounts/{IntegrationId}/get",
            "lines are not pulled on their own",
        ),
        pull(
            "`pull` has synchronization actions",
            "    pull:\n",
            "    pull:\n      preSynchronizationAction:\n        Other:\n          type: ApiSynchronization\n          path: Customer\n",
            "`pull` has synchronization actions",
        ),
        notify(
            "entry `{name}`, action `{}`: {e}",
            "          type: ApiPat\n          path: /accounts/{IntegrationId}/notify/post\n",
            "unknown action type",
        ),
        notify(
            "unknown action type",
            "          type: ApiPat\n          path: /accounts/{IntegrationId}/notify/post\n",
            "unknown action type",
        ),
        notify(
            "the action has no `path`",
            "          type: ApiPath\n",
            "has no `path`",
        ),
        notify(
            "the action's `path` is not an operation reference",
            "          type: ApiPath\n          path: notify\n",
            "has no `/method`",
        ),
        notify(
            "`in: Header` needs `schema.header`",
            "          type: ApiPath\n          path: /accounts/{IntegrationId}/notify/post\n          schema: {type: String, headerValue: id}\n          in: Header\n",
            "needs `schema.header`",
        ),
        notify(
            "`in: Header` needs `schema.headerValue`",
            "          type: ApiPath\n          path: /accounts/{IntegrationId}/notify/post\n          schema: {type: String, header: X-Id}\n          in: Header\n",
            "needs `schema.headerValue`",
        ),
        notify(
            "unknown `in: {v}`",
            "          type: ApiPath\n          path: /accounts/{IntegrationId}/notify/post\n          schema: {type: String, Token: id}\n          in: Bdy\n",
            "unknown `in: Bdy`",
        ),
        case(
            "does not compile: {e}",
            "          name: \"#valueof($.account.name)\"\n",
            "          name: \"#valueof($.account.name\"\n",
            "does not compile",
        ),
        case(
            "`{reference}`: {e}",
            "        name: {type: string}\n",
            "        name: {type: string, pattern: \"(\"}\n",
            "`/accounts/post`:",
        ),
        case(
            "requires a request body",
            "        createRequest:\n",
            "        createRequestX:\n",
            "requires a request body",
        ),
        case(
            "it must be true or false",
            "          success: \"#valueof($.success)\"\n",
            "          success: \"yes\"\n",
            "it must be true or false",
        ),
        case(
            "it must be a string or a number",
            "        createResponse:\n          id: \"#valueof($.id)\"\n",
            "        createResponse:\n          id: {value: 1}\n",
            "it must be a string or a number",
        ),
        case(
            "is neither `IntegrationId`, `<Entry>.IntegrationId` nor a server variable",
            "          path: /accounts/{IntegrationId}/notify/post\n",
            "          path: /accounts/{Integration}/notify/post\n",
            "is neither `IntegrationId`",
        ),
        dots,
        case(
            "self.message(operation",
            "          name: \"#valueof($.account.name)\"\n",
            "          name: 5\n",
            "does not fit the request body schema",
        ),
        case(
            "its request body: {e}",
            "          application/json:\n            schema: {$ref: \"#/components/schemas/Account\"}\n",
            "          text/plain:\n            schema: {type: string}\n",
            "its request body: it is declared as `text/plain` only",
        ),
        case(
            "cannot be written as",
            "          application/json:\n            schema: {$ref: \"#/components/schemas/Account\"}\n",
            "          application/x-www-form-urlencoded:\n            schema: {$ref: \"#/components/schemas/Account\"}\n            encoding: {name: {style: matrix}}\n",
            "cannot be written as `application/x-www-form-urlencoded`",
        ),
        case(
            "but the definition allows only",
            "        default: acme\n",
            "        default: acme\n        enum: [other]\n",
            "allows only other",
        ),
        case(
            "uses plain http to a host other than loopback",
            "  - url: https://api.example.com/{tenant}\n",
            "  - url: http://api.example.com/{tenant}\n",
            "uses plain http",
        ),
        case(
            "which `components.securitySchemes` does not define",
            "  - exampleOAuth: [write]\n",
            "  - otherOAuth: [write]\n",
            "`otherOAuth`, which `components.securitySchemes` does not define",
        ),
        Case {
            says: "can be sent with none of its security requirements",
            fixture: G,
            edits: vec![
                (
                    "  - exampleOAuth: [write]\n",
                    "  - digestAuth: []\n".to_owned(),
                ),
                (
                    "  securitySchemes:\n",
                    "  securitySchemes:\n    digestAuth: {type: http, scheme: digest}\n".to_owned(),
                ),
            ],
            message: "can be sent with none of its security requirements",
        },
        pull(
            "which maps the external records onto",
            "        batchReadResponse:\n",
            "        batchReadRespons:\n",
            "which maps the external records onto",
        ),
    ]
}

impl Case {
    fn text(&self) -> String {
        let mut text = std::fs::read_to_string(common::fixture(self.fixture)).expect("the fixture");
        for (from, to) in &self.edits {
            assert!(
                text.contains(from),
                "{}: `{from}` is not in {}",
                self.says,
                self.fixture
            );
            text = text.replacen(from, to, 1);
        }
        text
    }
}

/// Every lint finding of `text` (code and message), errors and warnings.
fn findings(text: &str) -> Vec<String> {
    let definition = match Definition::load(SourceFile::new("case.yaml", text)) {
        Ok(definition) => definition,
        Err(e) => return vec![format!("the definition does not load: {e:?}")],
    };
    lint_definition(&definition, &RuleSettings::default(), true)
        .into_iter()
        .map(|d| format!("{} {:?} {}", d.code(), d.severity, d.message))
        .collect()
}

/// What the engine refuses of `text` when made to load it whatever its lint findings: its
/// load problems, or the errors of a create and an update of the Account (a page of the
/// Customer for the pull fixture).
async fn engine_refusals(fixture: &str, text: &str) -> String {
    let Ok(definition) = Definition::load(SourceFile::new("case.yaml", text)) else {
        return "the definition does not load".to_owned();
    };
    let limits = syncdef_transform::Limits::default();
    let engine =
        match Engine::load_linted(&definition, Vec::new(), &PushConfig::default(), &limits) {
            Ok(loaded) => loaded.engine,
            Err(refused) => return format!("{refused}: {:?}", refused.problems),
        }
        // The `Token` pre-action of a case is answered for real: a synthesised answer gets
        // stand-ins for what it lacks.
        .with_transport(Arc::new(RecordingTransport::synthesizing().with_response(
            "Token",
            StepResponse::json(200, serde_json::json!({"id": 7, "success": true})),
        )))
        .with_token_provider(Arc::new(StaticToken::new("stand-in")))
        .with_retry_policy(RetryPolicy::none());
    let mut said = Vec::new();
    if fixture == "pull.yaml" {
        let page = engine
            .pull_page(
                "Customer",
                &syncdef_engine::PageRequest {
                    position: syncdef_engine::PagePosition::First,
                    since: None,
                    server_variables: std::collections::BTreeMap::new(),
                },
            )
            .await;
        said.extend(page.error.map(|e| e.to_string()));
        return said.join("\n");
    }
    let state = RecordState::new().with_related("Account", "1");
    for state in [state.clone(), state.with_external_id("7")] {
        let outcome = engine.push("Account", &common::account(), &state).await;
        said.extend(outcome.error.map(|e| e.to_string()));
        said.extend(outcome.post_action_error.map(|e| e.to_string()));
    }
    said.join("\n")
}

#[tokio::test]
async fn every_refusal_a_definition_reaches_is_caught_by_its_rule() {
    use syncdef_engine::refusals::{Caught, REFUSALS};
    let cases = cases();
    let mut wrong = Vec::new();
    for refusal in REFUSALS {
        let Caught::Rule(code) = refusal.caught else {
            continue;
        };
        let mine: Vec<&Case> = cases.iter().filter(|c| c.says == refusal.says).collect();
        if mine.is_empty() {
            wrong.push(format!(
                "{}: `{}` has no case reaching it",
                refusal.file, refusal.says
            ));
        }
        for case in mine {
            let text = case.text();
            let found = findings(&text);
            if !found
                .iter()
                .any(|f| f.starts_with(&format!("{code} Error")))
            {
                wrong.push(format!(
                    "`{}`: lint does not report {code} as an error: {found:#?}",
                    case.says
                ));
            }
            let refused = engine_refusals(case.fixture, &text).await;
            if !refused.contains(case.message) {
                wrong.push(format!(
                    "`{}`: the engine does not say `{}`: {refused}",
                    case.says, case.message
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn a_requirement_naming_an_undefined_scheme_is_an_error_and_refused() {
    let text = generic_with("  - exampleOAuth: [write]\n", "  - otherOAuth: [write]\n");
    assert_eq!(lint_errors(&text), ["SD701"]);
    let refused = load_refused(&text).expect("refused");
    assert!(
        refused.contains("`otherOAuth`, which `components.securitySchemes` does not define"),
        "{refused}"
    );
}

#[test]
fn a_requirement_the_engine_cannot_send_is_an_error_and_refused() {
    let text = generic_with("  - exampleOAuth: [write]\n", "  - digestAuth: []\n").replacen(
        "  securitySchemes:\n",
        "  securitySchemes:\n    digestAuth: {type: http, scheme: digest}\n",
        1,
    );
    assert_eq!(lint_errors(&text), ["SD706"]);
    let refused = load_refused(&text).expect("refused");
    assert!(
        refused.contains("can be sent with none of its security requirements")
            && refused.contains("`digestAuth` (http `digest`"),
        "{refused}"
    );
    // An alternative the engine sends makes it loadable, and lint-clean.
    let either = text.replacen(
        "  - digestAuth: []\n",
        "  - digestAuth: []\n  - exampleOAuth: [write]\n",
        1,
    );
    assert_eq!(lint_errors(&either), Vec::<String>::new());
    assert_eq!(load_refused(&either), None);
}
