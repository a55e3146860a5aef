//! What checking a request body against its schema costs, step by step, on the push bench's
//! body (QuickBooks `Account` create, 426 bytes): rendering it, parsing the text into a
//! `serde_json::Value`, the validator's `is_valid`, and the alternative of building the
//! template's output value and converting it. Best of 5 runs of 20,000 each, in ns.
//!
//! `cargo run --release -p syncdef-engine --example body_check_cost`

use std::hint::black_box;
use std::time::Instant;

use syncdef_definitions::{Definition, SourceFile};
use syncdef_transform::{Settings, Template, Value};
use syncdef_validator::request_schema::RequestBodySchema;

const ACCOUNT: &str = r#"{"id": 42, "name": "Acme Ltd", "phone": "+1 555 0100", "fax": null,
  "corpEmail": "billing@acme.test", "webSite": "https://acme.test", "isTaxable": true,
  "addresses": [{"isBilling": false, "city": "Elsewhere"}, {"isBilling": true, "address1": "1 Main St",
    "city": "Springfield", "countryName": "United States", "postCode": "12345", "region": "IL"}],
  "accountCurrency": {"currency": {"mnemonic": "USD", "name": "US Dollar"}}}"#;

fn time(name: &str, n: u32, mut f: impl FnMut()) {
    for _ in 0..n / 10 {
        f();
    }
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / f64::from(n));
    }
    println!("{name:40} {best:8.0} ns");
}

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../definitions/tests/fixtures/quickbooks-online.yaml"
    );
    let def = Definition::load(SourceFile::new(
        path,
        std::fs::read_to_string(path).expect("the fixture"),
    ))
    .expect("the fixture");
    let op = def
        .root()
        .pointer("/paths/~1v3~1company~1{realmId}~1customer/post")
        .expect("the fixture");
    let schema = RequestBodySchema::of_operation(&def.root(), &op)
        .expect("the fixture")
        .expect("the fixture");
    let node = def
        .root()
        .pointer("/synchronization/Account/push/schemasTransformer/createRequest")
        .expect("the fixture");
    let template = match node.as_str() {
        Some(t) => Template::compile_str(t, &Settings::default()).expect("the fixture"),
        None => Template::compile(node.to_json(), &Settings::default()).expect("the fixture"),
    };
    let input = Value::from_json_str(&format!(r#"{{"account": {ACCOUNT}, "serverVariables": {{"realmId": "1"}}, "externalId": null, "syncToken": null, "syncTokens": {{}}, "related": {{}}}}"#)).expect("the fixture");
    let mut text = String::new();
    template
        .apply_to_json(&input, &mut text)
        .expect("the fixture");
    let bytes = text.clone().into_bytes();
    println!("body: {} bytes", bytes.len());
    let parsed: serde_json::Value = serde_json::from_slice(&bytes).expect("the fixture");
    assert!(
        schema.is_valid(&parsed),
        "{text} {:?}",
        schema.violations(&parsed)
    );
    let n = 20_000;
    time("render: apply_to_json (today)", n, || {
        let mut s = String::with_capacity(512);
        template
            .apply_to_json(black_box(&input), &mut s)
            .expect("the fixture");
        black_box(s);
    });
    time("parse: serde_json::from_slice", n, || {
        black_box(
            serde_json::from_slice::<serde_json::Value>(black_box(&bytes)).expect("the fixture"),
        );
    });
    time("validate: is_valid", n, || {
        black_box(schema.is_valid(black_box(&parsed)));
    });
    time("in place: is_valid_text", n, || {
        black_box(schema.is_valid_text(black_box(&text)));
    });
    time("parse + is_valid", n, || {
        let v: serde_json::Value = serde_json::from_slice(black_box(&bytes)).expect("the fixture");
        black_box(schema.is_valid(&v));
    });
    time("apply (builds the output value)", n, || {
        black_box(template.apply(black_box(&input)).expect("the fixture"));
    });
    let out = template.apply(&input).expect("the fixture");
    time("convert: template Value -> serde_json", n, || {
        black_box(serde_json::Value::from(black_box(&out)));
    });
    time("violations (failure path only)", n / 10, || {
        black_box(schema.violations(black_box(&parsed)));
    });
}
