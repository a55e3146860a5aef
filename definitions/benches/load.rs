//! Loader speed on GitHub's REST description (13 MB of JSON), against `serde_json` alone.
//!
//! Fetch the input first: `benches/fetch-inputs.sh`. Then:
//! `cargo bench -p syncdef-definitions --bench load`

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use syncdef_definitions::load::{Format, LoadOptions, load_as};
use syncdef_definitions::{Definition, SourceFile};

fn input() -> Option<(PathBuf, Vec<u8>)> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../benches/data/api.github.com.json");
    std::fs::read(&path).ok().map(|bytes| (path, bytes))
}

fn bench(c: &mut Criterion) {
    let Some((path, bytes)) = input() else {
        eprintln!("benches/data/api.github.com.json is missing: run benches/fetch-inputs.sh first");
        return;
    };
    let text = match String::from_utf8(bytes.clone()) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("{} is not UTF-8: {err}", path.display());
            return;
        }
    };
    let mut group = c.benchmark_group("github-rest-13MB");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(12));
    group.throughput(Throughput::Bytes(bytes.len() as u64));

    group.bench_function("serde_json::Value", |b| {
        b.iter(|| {
            serde_json::from_slice::<serde_json::Value>(black_box(&bytes)).map(|v| v.is_object())
        });
    });
    group.bench_function("syncdef load (spans)", |b| {
        b.iter(|| {
            let source = Arc::new(SourceFile::new(
                "api.github.com.json",
                black_box(text.clone()),
            ));
            load_as(source, Format::Json, &LoadOptions::default()).map(|d| d.root().span)
        });
    });
    group.bench_function("syncdef load + definition", |b| {
        b.iter(|| {
            let source = Arc::new(SourceFile::new(
                "api.github.com.json",
                black_box(text.clone()),
            ));
            load_as(source, Format::Json, &LoadOptions::default())
                .map(|d| Definition::from_document(d).problems.len())
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
