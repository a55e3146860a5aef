//! Helpers of the engine's tests: load a fixture definition and point it at a mock server.

#![allow(dead_code, reason = "each test binary uses a different subset")]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::{Engine, ReqwestTransport, StaticToken};
use syncdef_transform::Value;
use url::Url;

/// A fixture path: `engine/tests/fixtures/<name>`, or the QuickBooks one of the definitions
/// crate.
pub fn fixture(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if name == "quickbooks-online.yaml" {
        root.join("../definitions/tests/fixtures").join(name)
    } else {
        root.join("tests/fixtures").join(name)
    }
}

/// The engine of a fixture, unconnected.
pub fn engine(name: &str) -> Engine {
    load_file(&fixture(name))
}

/// The engine of the definition at `path`, unconnected.
pub fn load_file(path: &Path) -> Engine {
    let text = std::fs::read_to_string(path).expect("the definition reads");
    load(&path.display().to_string(), text)
}

/// The engine of definition `text` (named `name` in diagnostics), unconnected.
pub fn load(name: &str, text: String) -> Engine {
    let definition = Definition::load(SourceFile::new(name, text)).expect("the definition loads");
    match Engine::load(definition) {
        Ok(loaded) => loaded.engine,
        Err(refused) => panic!(
            "{refused}: {:#?} {:?}",
            refused.diagnostics, refused.problems
        ),
    }
}

/// The engine of a fixture sending to `server` with the token `access-1`.
pub fn connected(name: &str, server: &str) -> Engine {
    connect(engine(name), server)
}

/// `engine` sending to `server` with the token `access-1`.
#[expect(
    clippy::needless_pass_by_value,
    reason = "reads as a step on the engine a fixture just built: `connect(engine(name), server)`"
)]
pub fn connect(engine: Engine, server: &str) -> Engine {
    let base = Url::parse(server).expect("the mock server URL parses");
    engine
        .with_transport(Arc::new(
            ReqwestTransport::new().expect("the client builds"),
        ))
        .with_token_provider(Arc::new(StaticToken::new("access-1")))
        .with_base_url(base)
}

pub fn json(text: &str) -> Value {
    Value::from_json_str(text).expect("test JSON parses")
}

/// A platform account as the platform API returns it.
pub fn account() -> Value {
    json(
        r#"{"id": 42, "name": "Acme Ltd", "phone": "+1 555 0100", "fax": null,
            "corpEmail": "billing@acme.test", "webSite": "https://acme.test", "isTaxable": true,
            "addresses": [{"isBilling": true, "address1": "1 Main St", "city": "Springfield",
                           "countryName": "United States", "postCode": "12345", "region": "IL"}],
            "accountCurrency": {"currency": {"mnemonic": "USD", "name": "US Dollar"}}}"#,
    )
}

/// A platform invoice.
pub fn invoice() -> Value {
    json(
        r#"{"id": 7, "code": "INV-0007", "total": 120.5, "createdAt": "2024-03-01",
            "dueDate": "2024-03-31", "billingToId": 9, "billingToName": "Acme Ltd", "account": {"name": "Acme Ltd"},
            "billingAccount": {"accountCurrency": {"currency": {"mnemonic": "USD"}}}}"#,
    )
}
