//! Times each phase of loading one definition (load, OpenAPI model, sync model, `$ref` check).
//!
//! `cargo run --release -p syncdef-definitions --example phases -- benches/data/api.github.com.json`

use std::time::Instant;

use syncdef_definitions::load::{LoadOptions, load_bytes};
use syncdef_definitions::{de, refs};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: phases FILE");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    for _ in 0..3 {
        let t = Instant::now();
        let _ = serde_json::from_slice::<serde_json::Value>(&bytes);
        let serde = t.elapsed();
        let t = Instant::now();
        let doc = match load_bytes(path.clone(), bytes.clone(), &LoadOptions::default()) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{}", e.render());
                std::process::exit(1);
            }
        };
        let load = t.elapsed();
        let t = Instant::now();
        let api = de::from_node::<openapiv3::OpenAPI>(
            &doc.root,
            &["synchronization", "x-synchronization"],
        );
        let model = t.elapsed();
        let t = Instant::now();
        let problems = refs::check(&doc.root);
        let check = t.elapsed();
        let t = Instant::now();
        drop(doc);
        let free = t.elapsed();
        println!(
            "serde_json::Value {:>4} ms | load {:>4} ms | openapiv3 {:>4} ms ({}) | $ref check {:>4} ms ({} problems) | drop {:>3} ms",
            serde.as_millis(),
            load.as_millis(),
            model.as_millis(),
            if api.is_ok() { "ok" } else { "error" },
            check.as_millis(),
            problems.len(),
            free.as_millis()
        );
    }
}
