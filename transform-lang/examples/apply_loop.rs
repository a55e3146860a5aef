//! Applies the account-create benchmark template N times, for instruction counts that do not
//! depend on the machine's load:
//!
//! ```sh
//! cargo build --release -p syncdef-transform --example apply_loop
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/apply_loop 10000 value
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/apply_loop 20000 value
//! ```
//!
//! (the difference of the two totals divided by 10,000 is the count per record). The second
//! argument is `value` (`Template::apply`) or `json` (`Template::apply_to_json`).

use std::process::ExitCode;

use syncdef_transform::{Settings, Template, Value};

const TEMPLATE: &str = include_str!("../benches/data/account-create.json");
const RECORD: &str = include_str!("../benches/data/account-record.json");

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(n) = args.next().and_then(|a| a.parse::<usize>().ok()) else {
        eprintln!("usage: apply_loop N [value|json]");
        return ExitCode::from(2);
    };
    let json = match args.next().as_deref() {
        None | Some("value") => false,
        Some("json") => true,
        Some(other) => {
            eprintln!("unknown mode {other}: use value or json");
            return ExitCode::from(2);
        }
    };
    let (template, record) = match (
        Template::compile_str(TEMPLATE, &Settings::default()),
        Value::from_json_str(RECORD),
    ) {
        (Ok(t), Ok(r)) => (t, r),
        _ => {
            eprintln!("the benchmark template or record does not load");
            return ExitCode::FAILURE;
        }
    };
    let mut out = String::with_capacity(1024);
    let mut bytes = 0;
    for _ in 0..n {
        let applied = if json {
            out.clear();
            template
                .apply_to_json(std::hint::black_box(&record), &mut out)
                .map(|()| out.len())
        } else {
            template
                .apply(std::hint::black_box(&record))
                .map(|v| std::hint::black_box(v).is_null() as usize)
        };
        match applied {
            Ok(k) => bytes += k,
            Err(e) => {
                eprintln!("apply failed: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!("{bytes}");
    ExitCode::SUCCESS
}
