//! Lint throughput: many small definitions (sequential vs parallel) and one large document.
//!
//! `cargo bench -p syncdef-validator --bench lint`

use std::hint::black_box;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use syncdef_validator::{Config, RuleSettings, lint_paths, lint_text};

const VALID: &str = include_str!("../tests/fixtures/valid.yaml");

/// A directory of `n` copies of the valid definition.
fn corpus(n: usize) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-lint-corpus");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("corpus dir");
    for i in 0..n {
        std::fs::write(dir.join(format!("def{i:03}.yaml")), VALID).expect("write");
    }
    dir
}

/// A JSON definition with `paths` operations, each with a request body, plus the
/// synchronization section of the valid fixture referencing a few of them (2.4 MB at 5000).
fn large_document(paths: usize) -> String {
    let mut out =
        String::from("{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"large\",\"version\":\"1\"},");
    out.push_str("\"servers\":[{\"url\":\"https://example.test\",\"variables\":{\"realmId\":{\"default\":\"0\",\"description\":\"company\"}}}],\"paths\":{");
    for i in 0..paths {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            "\"/v3/company/{{realmId}}/resource{i}/{{id}}\":{{\"get\":{{\"operationId\":\"get{i}\",\"parameters\":[{{\"name\":\"id\",\"in\":\"path\",\"required\":true,\"schema\":{{\"type\":\"string\"}}}}],\"responses\":{{\"200\":{{\"description\":\"ok\",\"content\":{{\"application/json\":{{\"schema\":{{\"type\":\"object\",\"properties\":{{\"Id\":{{\"type\":\"string\"}},\"Name\":{{\"type\":\"string\"}}}}}}}}}}}}}}}},\"post\":{{\"requestBody\":{{\"content\":{{\"application/json\":{{\"schema\":{{\"$ref\":\"#/components/schemas/Customer\"}}}}}}}},\"responses\":{{\"200\":{{\"description\":\"ok\"}}}}}}}}"
        ));
    }
    out.push_str(",\"/v3/company/{realmId}/customer\":{\"post\":{\"requestBody\":{\"content\":{\"application/json\":{\"schema\":{\"$ref\":\"#/components/schemas/Customer\"}}}},\"responses\":{\"200\":{\"description\":\"ok\"}}}}");
    out.push_str(",\"/v3/company/{realmId}/customer/{id}\":{\"get\":{\"responses\":{\"200\":{\"description\":\"ok\"}}}}},");
    out.push_str("\"components\":{\"schemas\":{\"Customer\":{\"type\":\"object\",\"properties\":{\"Id\":{\"type\":\"string\"},\"SyncToken\":{\"type\":\"string\"},\"sparse\":{\"type\":\"boolean\"}}}},");
    out.push_str("\"securitySchemes\":{\"oauth2\":{\"type\":\"oauth2\",\"flows\":{\"authorizationCode\":{\"authorizationUrl\":\"https://a.test\",\"tokenUrl\":\"https://t.test\",\"scopes\":{\"s\":\"scope\"}}}}}},");
    out.push_str("\"security\":[{\"oauth2\":[\"s\"]}],");
    out.push_str("\"synchronization\":{\"Customer\":{\"module\":\"Accounts\",\"push\":{\"create\":\"/v3/company/{realmId}/customer/post\",\"update\":\"/v3/company/{realmId}/customer/post\",");
    out.push_str("\"preSynchronizationAction\":{\"SyncToken\":{\"type\":\"ApiPath\",\"path\":\"/v3/company/{realmId}/customer/{IntegrationId}/get\",\"schema\":{\"type\":\"String\",\"SyncToken\":\"Customer.SyncToken\"},\"in\":\"Body\"}},");
    out.push_str("\"schemasTransformer\":{\"createRequest\":{\"DisplayName\":\"#valueof($.account.name)\"},\"createResponse\":\"{\\\"id\\\": \\\"#valueof($.Customer.Id)\\\"}\",\"updateRequest\":{\"Id\":\"#valueof($.externalId)\",\"SyncToken\":\"#valueof($.syncToken)\",\"sparse\":true}}}}}}");
    out
}

#[expect(
    clippy::cast_precision_loss,
    reason = "the document's size in MB to one decimal, in the benchmark's name"
)]
fn bench(c: &mut Criterion) {
    let dir = corpus(64);
    let settings = Arc::new(RuleSettings::default());
    for jobs in [1, 2] {
        let config = Config {
            settings: Some(Arc::clone(&settings)),
            jobs: NonZeroUsize::new(jobs),
            ..Config::default()
        };
        c.bench_function(&format!("64 small files, {jobs} thread(s)"), |b| {
            b.iter(|| black_box(lint_paths(std::slice::from_ref(&dir), &config)));
        });
    }
    let large = large_document(5000);
    let report = lint_text("large.json", &large, &settings);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    c.bench_function(
        &format!("one {:.1} MB document", large.len() as f64 / 1e6),
        |b| {
            b.iter(|| black_box(lint_text("large.json", &large, &settings)));
        },
    );
    c.bench_function("serde_json parse of the same document", |b| {
        b.iter(|| black_box(serde_json::from_str::<serde_json::Value>(&large).map(|_| ())));
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
