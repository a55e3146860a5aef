//! Applies a benchmark template N times, for instruction counts that do not depend on the
//! machine's load:
//!
//! ```sh
//! cargo build --release -p syncdef-transform --example apply_loop
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/apply_loop 10000 value
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/apply_loop 20000 value
//! ```
//!
//! (the difference of the two totals divided by 10,000 is the count per record). The second
//! argument is `value` (`Template::apply`) or `json` (`Template::apply_to_json`). The third
//! picks the template: `account` (the default: the account-create benchmark template, which
//! reads the billing address through a `#scope`) or `quickbooks` (the QuickBooks Online
//! Customer `createRequest` of the definitions' fixture, applied to the input a push engine
//! gives it: six filtered reads of the billing address and an `#ifcondition`).

use std::process::ExitCode;

use syncdef_transform::{Settings, Template, Value};

const ACCOUNT_TEMPLATE: &str = include_str!("../benches/data/account-create.json");
const ACCOUNT_RECORD: &str = include_str!("../benches/data/account-record.json");
const QUICKBOOKS_TEMPLATE: &str = include_str!("../benches/data/quickbooks-customer-create.json");
const QUICKBOOKS_INPUT: &str = include_str!("../benches/data/quickbooks-customer-input.json");

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(n) = args.next().and_then(|a| a.parse::<usize>().ok()) else {
        eprintln!("usage: apply_loop N [value|json] [account|quickbooks]");
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
    let (template_text, record_text) = match args.next().as_deref() {
        None | Some("account") => (ACCOUNT_TEMPLATE, ACCOUNT_RECORD),
        Some("quickbooks") => (QUICKBOOKS_TEMPLATE, QUICKBOOKS_INPUT),
        Some(other) => {
            eprintln!("unknown template {other}: use account or quickbooks");
            return ExitCode::from(2);
        }
    };
    let (Ok(template), Ok(record)) = (
        Template::compile_str(template_text, &Settings::default()),
        Value::from_json_str(record_text),
    ) else {
        eprintln!("the benchmark template or record does not load");
        return ExitCode::FAILURE;
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
                .map(|v| usize::from(std::hint::black_box(v).is_null()))
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
