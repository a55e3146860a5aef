//! Times each phase of loading one definition, against `serde_json` parsing the same bytes.
//!
//! `cargo run --release -p syncdef-definitions --example phases -- benches/data/api.github.com.json`
//!
//! Each phase runs `RUNS` times; the median is printed as wall time and as the CPU time of the
//! calling thread (`/proc/thread-self/schedstat`, Linux), which stays meaningful when other
//! processes share the cores. The definition step is shown in wall time only, since on large
//! documents its `$ref` walk runs on a second thread.

use std::time::{Duration, Instant};

use syncdef_definitions::load::{LoadOptions, load_bytes};
use syncdef_definitions::{Definition, refs, structure};

const RUNS: usize = 7;

/// Nanoseconds this thread has spent on a CPU, if the kernel says.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace()
        .next()?
        .parse()
        .ok()
        .map(Duration::from_nanos)
}

struct Phase {
    name: &'static str,
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
}

impl Phase {
    fn new(name: &'static str) -> Self {
        Phase {
            name,
            wall: Vec::new(),
            cpu: Vec::new(),
        }
    }

    fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let (c, w) = (thread_cpu(), Instant::now());
        let out = f();
        self.wall.push(w.elapsed());
        if let (Some(before), Some(after)) = (c, thread_cpu()) {
            self.cpu.push(after.saturating_sub(before));
        }
        out
    }

    fn report(&mut self) {
        let median = |v: &mut Vec<Duration>| {
            v.sort();
            v.get(v.len() / 2)
                .map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
        };
        println!(
            "{:<34} wall {:>7.1} ms   cpu {:>7.1} ms",
            self.name,
            median(&mut self.wall),
            median(&mut self.cpu)
        );
    }
}

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
    let mut serde = Phase::new("serde_json::Value (parse + drop)");
    let mut load = Phase::new("syncdef load (spans)");
    let mut shape = Phase::new("  OpenAPI structure check");
    let mut check = Phase::new("  $ref check");
    let mut def = Phase::new("  definition (structure, refs, sync model; wall)");
    let mut free = Phase::new("  drop the definition");
    let mut whole = Phase::new("load + definition + drop");
    for _ in 0..RUNS {
        serde.time(|| drop(serde_json::from_slice::<serde_json::Value>(&bytes)));
        let doc =
            match load.time(|| load_bytes(path.clone(), bytes.clone(), &LoadOptions::default())) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("{}", e.render());
                    std::process::exit(1);
                }
            };
        shape.time(|| {
            drop(structure::check(
                &doc.root(),
                &["synchronization", "x-synchronization"],
            ));
        });
        check.time(|| drop(refs::check(&doc.root())));
        let built = def.time(|| Definition::from_document(doc));
        free.time(|| drop(built));
        whole.time(|| {
            if let Ok(doc) = load_bytes(path.clone(), bytes.clone(), &LoadOptions::default()) {
                drop(Definition::from_document(doc));
            }
        });
    }
    println!("{path}: {} bytes, median of {RUNS} runs", bytes.len());
    for p in [
        &mut serde, &mut load, &mut shape, &mut check, &mut def, &mut free, &mut whole,
    ] {
        p.report();
    }
}
