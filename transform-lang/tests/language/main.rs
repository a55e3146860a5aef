//! Language tests: cases written from the JUST.net reference (test names cited where the
//! reference names them).

mod aggregate;
mod analysis;
mod bulk;
mod common;
mod conditional;
mod deletes;
mod errors;
mod filter_memo;
mod joins;
mod jsonpath;
mod large_object;
mod loops;
mod math;
mod modes;
mod path;
mod properties;
mod strings;
mod types;
mod values;
mod walk;
