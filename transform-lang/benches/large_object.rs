//! Objects large and small: an object of 40,000 members (a record keyed by id, or a hostile
//! input) built key by key, read member by member, parsed, and converted from and to
//! `serde_json`, all of which must stay linear; and a record-sized object of 20 members
//! built and read, which must stay as fast as a plain scan. Times are the benchmark thread's
//! CPU time (see `cpu_time.rs`).

use std::sync::Arc;
use std::time::Duration;

#[path = "support/cpu_time.rs"]
mod cpu_time;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use syncdef_transform::{Map, Value};

fn keys(n: usize) -> Vec<Arc<str>> {
    (0..n).map(|i| format!("member{i}").into()).collect()
}

fn built(keys: &[Arc<str>]) -> Map {
    let mut m = Map::new();
    for (i, k) in keys.iter().enumerate() {
        m.insert(Arc::clone(k), Value::Int(i64::try_from(i).unwrap_or(0)));
    }
    m
}

/// Every member read by key; the count keeps the reads from being optimized away.
fn read_all(m: &Map, keys: &[Arc<str>]) -> usize {
    keys.iter()
        .filter(|k| m.get(std::hint::black_box(k)).is_some())
        .count()
}

fn bench(c: &mut Criterion<cpu_time::CpuTime>) {
    let mut g = c.benchmark_group("large_object");
    for n in [20, 40_000] {
        let keys = keys(n);
        let map = built(&keys);
        let value = Value::object(map.clone());
        let text = value.to_json_compact();
        let json = serde_json::Value::from(&value);
        assert_eq!(read_all(&map, &keys), n);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("insert", n), &keys, |b, keys| {
            b.iter(|| built(keys).len());
        });
        g.bench_with_input(BenchmarkId::new("get", n), &keys, |b, keys| {
            b.iter(|| read_all(&map, keys));
        });
        g.bench_with_input(BenchmarkId::new("parse", n), &text, |b, text| {
            b.iter(|| Value::from_json_str(std::hint::black_box(text)).map(|v| v.depth()));
        });
        g.bench_with_input(BenchmarkId::new("from_serde_json", n), &json, |b, json| {
            b.iter(|| Value::from(std::hint::black_box(json)).depth());
        });
        g.bench_with_input(BenchmarkId::new("to_serde_json", n), &value, |b, value| {
            b.iter(|| serde_json::Value::from(std::hint::black_box(value)).is_object());
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .with_measurement(cpu_time::CpuTime)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    targets = bench
}
criterion_main!(benches);
