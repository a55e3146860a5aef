//! Our JSONPath evaluation against jsonpath-rust on the same selections.
//!
//! jsonpath-rust works on `serde_json::Value`; the engine holds records as `Value`, so the
//! `jsonpath_rust_convert` rows include the conversion a caller would pay per record.

use std::time::Duration;

#[path = "support/cpu_time.rs"]
mod cpu_time;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use syncdef_transform::{JsonPath, Value};

const RECORD: &str = include_str!("data/account-record.json");

const SELECTIONS: &[(&str, &str)] = &[
    ("member", "$.account.name"),
    (
        "nested_member",
        "$.account.accountCurrency.currency.mnemonic",
    ),
    (
        "filter",
        "$.account.addresses[?(@.isBilling == true)].address1",
    ),
    ("wildcard", "$.account.addresses[*].city"),
    ("descendant", "$..postCode"),
];

fn bench(c: &mut Criterion<cpu_time::CpuTime>) {
    let ours_record = Value::from_json_str(RECORD).expect("record");
    let serde_record: serde_json::Value = serde_json::from_str(RECORD).expect("record");
    let mut g = c.benchmark_group("jsonpath");
    for (name, text) in SELECTIONS {
        let ours = JsonPath::parse(text).expect("our path parses");
        let theirs = jsonpath_rust::parser::parse_json_path(text).expect("jsonpath-rust parses");
        // Same selections: check before timing.
        let a = ours.select(&ours_record).len();
        let b = jsonpath_rust::query::js_path_process(&theirs, &serde_record)
            .expect("query")
            .len();
        assert_eq!(a, b, "{text}: both select the same number of tokens");

        g.bench_with_input(BenchmarkId::new("syncdef", name), &ours, |bch, p| {
            bch.iter(|| p.select_value(std::hint::black_box(&ours_record)));
        });
        g.bench_with_input(
            BenchmarkId::new("jsonpath_rust", name),
            &theirs,
            |bch, q| {
                bch.iter(|| {
                    jsonpath_rust::query::js_path_process(q, std::hint::black_box(&serde_record))
                        .map(|v| v.len())
                });
            },
        );
        g.bench_with_input(
            BenchmarkId::new("jsonpath_rust_convert", name),
            &theirs,
            |bch, q| {
                bch.iter(|| {
                    let json = serde_json::Value::from(std::hint::black_box(&ours_record));
                    jsonpath_rust::query::js_path_process(q, &json).map(|v| v.len())
                });
            },
        );
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .with_measurement(cpu_time::CpuTime)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
