//! Property tests over what the engine is handed from outside: arbitrary records, external ids,
//! server variables and `x-syncdef` extensions never make it panic, hang, or send a request off
//! the definition's server or outside the operation's path.

use crate::common;

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::json;
use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::{Engine, RecordState, RecordingTransport, StepResponse};
use syncdef_transform::Value;

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "\\PC{0,12}".prop_map(serde_json::Value::String),
        // The characters that could move a request elsewhere.
        "[./?#%@:\\\\' a-z0-9]{0,12}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(6, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map("[a-zA-Z]{1,8}", inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

fn dry(engine: &Engine) -> Engine {
    engine.with_transport(Arc::new(RecordingTransport::synthesizing()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Any record, any external id: the push ends (pushed or failed, classified), and every
    /// request stays on the server, inside the operation's path.
    #[test]
    fn records_and_ids_never_leave_the_operation_path(
        mut record in json_value(),
        name in "\\PC{0,20}",
        id in "[./?#%@:\\\\' a-z0-9]{1,16}",
        update in any::<bool>(),
    ) {
        if let Some(obj) = record.as_object_mut() {
            obj.insert("name".into(), json!(name));
        }
        let record = Value::from_json_str(&record.to_string()).expect("json");
        let engine = dry(&common::engine("generic.yaml"));
        let mut state = RecordState::new();
        if update {
            state.external_id = Some(id.clone());
        }
        let outcome = runtime().block_on(engine.push("Account", &record, &state));
        for exchange in &outcome.exchanges {
            let url = url::Url::parse(&exchange.request.url).expect("a URL");
            prop_assert_eq!(url.host_str(), Some("api.example.com"));
            prop_assert_eq!(url.query(), None);
            prop_assert_eq!(url.fragment(), None);
            let segments: Vec<&str> = url.path_segments().expect("segments").collect();
            prop_assert_eq!(segments[0], "acme");
            prop_assert_eq!(segments[1], "accounts");
            if update && &*exchange.step == "update" {
                prop_assert_eq!(segments.len(), 3, "the id is one segment: {}", url);
                prop_assert!(segments[2] != ".." && segments[2] != ".");
            }
        }
    }

    /// Any server variable value: refused or encoded, never a request to another host.
    #[test]
    fn server_variables_never_change_the_host(tenant in "\\PC{0,16}") {
        let engine = dry(&common::engine("generic.yaml"));
        let mut state = RecordState::new();
        state.server_variables.insert("tenant".into(), tenant);
        let record = Value::from_json_str(r#"{"name": "Acme"}"#).expect("json");
        let outcome = runtime().block_on(engine.push("Account", &record, &state));
        for exchange in &outcome.exchanges {
            let url = url::Url::parse(&exchange.request.url).expect("a URL");
            prop_assert_eq!(url.host_str(), Some("api.example.com"));
            // The tenant is one segment: the operation's path follows it.
            let segments: Vec<&str> = url.path_segments().expect("segments").collect();
            prop_assert_eq!(segments.get(1).copied(), Some("accounts"), "{}", url);
        }
    }

    /// Any `x-syncdef` value: the engine loads it or refuses it with a message, and a push with
    /// whatever conflict rules it holds ends.
    #[test]
    fn arbitrary_extensions_load_or_are_refused(ext in json_value(), status in 400u16..600) {
        let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("fixture");
        let text = text.replacen(
            "\nsynchronization:",
            &format!("\nx-syncdef: {ext}\nsynchronization:"),
            1,
        );
        let Ok(definition) = Definition::load(SourceFile::new("x.yaml", text)) else {
            return Ok(());
        };
        let Ok(loaded) = Engine::load(definition) else {
            return Ok(());
        };
        let transport = RecordingTransport::default()
            .with_response("update", StepResponse::json(status, ext.clone()));
        let engine = loaded
            .engine
            .with_transport(Arc::new(transport))
            .with_retry_policy(syncdef_engine::RetryPolicy::none());
        let mut state = RecordState::new();
        state.external_id = Some("7".into());
        let record = Value::from_json_str(r#"{"name": "Acme"}"#).expect("json");
        let outcome = runtime().block_on(engine.push("Account", &record, &state));
        prop_assert!(!outcome.is_success());
    }

    /// Any conflict path and any answer: matching never panics.
    #[test]
    fn conflict_rules_on_arbitrary_answers(
        path in "\\$[.\\[\\]*a-zA-Z0-9]{0,16}",
        body in json_value(),
    ) {
        let ext = json!({"conflicts": [{"status": 400, "path": path, "equals": ["5010"]}]});
        let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("fixture");
        let text = text.replacen("\nsynchronization:", &format!("\nx-syncdef: {ext}\nsynchronization:"), 1);
        let definition = Definition::load(SourceFile::new("x.yaml", text)).expect("loads");
        let Ok(loaded) = Engine::load(definition) else {
            return Ok(());
        };
        let transport = RecordingTransport::default()
            .with_response("update", StepResponse::json(400, body));
        let engine = loaded.engine.with_transport(Arc::new(transport));
        let mut state = RecordState::new();
        state.external_id = Some("7".into());
        let record = Value::from_json_str(r#"{"name": "Acme"}"#).expect("json");
        let outcome = runtime().block_on(engine.push("Account", &record, &state));
        prop_assert!(!outcome.is_success());
    }
}
