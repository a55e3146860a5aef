//! Records per second for the account-create template (a QuickBooks Customer body built from
//! a platform account): apply only (the output as a value), the output as JSON text (built
//! then written, or written as it is walked), and parse + apply + write one JSON line. Times are the
//! benchmark thread's CPU time (see `cpu_time.rs`).

use std::time::Duration;

#[path = "support/cpu_time.rs"]
mod cpu_time;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use syncdef_transform::{Settings, Template, Value};

const TEMPLATE: &str = include_str!("data/account-create.json");
const RECORD: &str = include_str!("data/account-record.json");

fn bench(c: &mut Criterion<cpu_time::CpuTime>) {
    let template =
        Template::compile_str(TEMPLATE, &Settings::default()).expect("template compiles");
    let record = Value::from_json_str(RECORD).expect("record parses");
    let line = record.to_json_compact();

    let mut g = c.benchmark_group("account_create");
    g.throughput(Throughput::Elements(1));
    g.bench_function("apply", |b| {
        b.iter(|| template.apply(std::hint::black_box(&record)));
    });
    g.bench_function("apply_write", |b| {
        // What a request body or a JSON Lines output needs: the output as text.
        let mut out = String::with_capacity(1024);
        b.iter(|| {
            let v = template
                .apply(std::hint::black_box(&record))
                .expect("applies");
            out.clear();
            syncdef_transform::value::write_compact(&v, &mut out);
            out.len()
        });
    });
    g.bench_function("apply_to_json", |b| {
        let mut out = String::with_capacity(1024);
        b.iter(|| {
            out.clear();
            template
                .apply_to_json(std::hint::black_box(&record), &mut out)
                .expect("applies");
            out.len()
        });
    });
    g.bench_function("parse_apply_write_line", |b| {
        let mut out = String::with_capacity(1024);
        b.iter(|| {
            let record = Value::from_json_str(std::hint::black_box(&line)).expect("parses");
            let v = template.apply(&record).expect("applies");
            out.clear();
            syncdef_transform::value::write_compact(&v, &mut out);
            out.len()
        });
    });
    g.bench_function("read_apply_write_line", |b| {
        // As a JSON Lines run does it: one reader per thread shares keys across records.
        let mut reader = syncdef_transform::value::ValueReader::new();
        let mut out = String::with_capacity(1024);
        b.iter(|| {
            let record = reader.read(std::hint::black_box(&line)).expect("parses");
            let v = template.apply(&record).expect("applies");
            out.clear();
            syncdef_transform::value::write_compact(&v, &mut out);
            out.len()
        });
    });
    g.bench_function("compile", |b| {
        b.iter(|| Template::compile_str(std::hint::black_box(TEMPLATE), &Settings::default()));
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .with_measurement(cpu_time::CpuTime)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30);
    targets = bench
}
criterion_main!(benches);
