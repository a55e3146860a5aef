//! Scaling guard of the template language: every builder of strings and arrays must stay
//! linear in what it is given (arguments, loop elements, joined items, grouped items). Each
//! dimension is applied at a size and at 8 times that size; the run fails (exit status 1) when
//! the time ratio of a dimension reaches 12 (see `support/scaling.rs`).
//!
//! `cargo bench -p syncdef-transform --bench scaling [NAME...]` (release), or
//! `cargo test -p syncdef-transform --bench scaling` (the test profile CI builds already).
//! Figures: docs/benchmarks.md, "Scaling".

#[path = "support/scaling.rs"]
mod scaling;

use std::hint::black_box;

use syncdef_transform::{EvaluationMode, Settings, Template, Value};

/// A template and the record it is applied to, at one size.
struct Case {
    template: Template,
    input: Value,
}

impl Case {
    fn new(template: &str, input: &str, settings: &Settings) -> Case {
        let template = match Template::compile_str(template, settings) {
            Ok(t) => t,
            Err(e) => panic!("a scaling template does not compile: {e}"),
        };
        let input = match Value::from_json_str(input) {
            Ok(v) => v,
            Err(e) => panic!("a scaling record does not parse: {e}"),
        };
        Case { template, input }
    }

    fn run(&self) {
        if let Err(e) = black_box(&self.template).apply(black_box(&self.input)) {
            panic!("a scaling template failed: {e}");
        }
    }
}

fn plain(template: &str, input: &str) -> Case {
    Case::new(template, input, &Settings::default())
}

/// `#xconcat` of `n` arguments, each a 1,000-byte string.
fn xconcat_strings(n: usize) -> Case {
    let args = vec!["#valueof($.s)"; n].join(",");
    let input = format!(r#"{{"s":"{}"}}"#, "x".repeat(1000));
    plain(&format!(r##"{{"out":"#xconcat({args})"}}"##), &input)
}

/// `#xconcat` of `n` arguments, each an array of 10 numbers.
fn xconcat_arrays(n: usize) -> Case {
    let args = vec!["#valueof($.a)"; n].join(",");
    plain(
        &format!(r##"{{"out":"#xconcat({args})"}}"##),
        r#"{"a":[0,1,2,3,4,5,6,7,8,9]}"#,
    )
}

fn items(n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"id":{i},"name":"item {i}","k":"key {i}"}}"#))
        .collect();
    format!(r#"{{"items":[{}]}}"#, items.join(","))
}

/// `#loop` over an array of `n` elements, each building a small object.
fn loop_array(n: usize) -> Case {
    plain(
        r##"{"out":{"#loop($.items)":{"id":"#currentvalueatpath($.id)","label":"#xconcat(#currentvalueatpath($.name),-,#currentindex())"}}}"##,
        &items(n),
    )
}

/// `#loop` over an object of `n` members, each giving one member of the output.
fn loop_object(n: usize) -> Case {
    let members: Vec<String> = (0..n).map(|i| format!(r#""m{i}":{i}"#)).collect();
    plain(
        r##"{"out":{"#loop($.o)":{"#eval(#xconcat(k,#currentproperty()))":"#currentindex()"}}}"##,
        &format!(r#"{{"o":{{{}}}}}"#, members.join(",")),
    )
}

/// `#concatall` of `n` strings.
fn concatall(n: usize) -> Case {
    let names: Vec<String> = (0..n).map(|i| format!(r#""name {i}""#)).collect();
    plain(
        r##"{"out":"#concatall($.names)"}"##,
        &format!(r#"{{"names":[{}]}}"#, names.join(",")),
    )
}

/// `#concatallatpath` of `n` items.
fn concatallatpath(n: usize) -> Case {
    plain(r##"{"out":"#concatallatpath($.items,$.name)"}"##, &items(n))
}

/// `#grouparrayby` of `n` items with distinct keys: `n` groups.
fn group_distinct(n: usize) -> Case {
    plain(r##"{"out":"#grouparrayby($.items,k,rest)"}"##, &items(n))
}

/// `#grouparrayby` of `n` items in one group.
fn group_one(n: usize) -> Case {
    plain(r##"{"out":"#grouparrayby($.items,same,rest)"}"##, &{
        let items: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"same":"s","id":{i}}}"#))
            .collect();
        format!(r#"{{"items":[{}]}}"#, items.join(","))
    })
}

/// An object of `n` properties in look-in-transformed mode, each read finding nothing in the
/// record and so looked for again in the output built so far.
fn look_in_transformed(n: usize) -> Case {
    let props: Vec<String> = (0..n)
        .map(|i| format!(r##""p{i}":"#valueof($.missing{i})""##))
        .collect();
    Case::new(
        &format!("{{{}}}", props.join(",")),
        "{}",
        &Settings::with_mode(EvaluationMode::LOOK_IN_TRANSFORMED),
    )
}

/// `#delete` of every other item of an array of `n` items copied from the record.
fn delete_items(n: usize) -> Case {
    plain(
        r##"{"#":["#copy($)","#delete($.items[?(@.odd == 1)])"]}"##,
        &{
            let items: Vec<String> = (0..n)
                .map(|i| format!(r#"{{"id":{i},"odd":{}}}"#, i % 2))
                .collect();
            format!(r#"{{"items":[{}]}}"#, items.join(","))
        },
    )
}

/// `#delete` of every member of an object of `n` members copied from the record.
fn delete_members(n: usize) -> Case {
    let members: Vec<String> = (0..n).map(|i| format!(r#""m{i}":{i}"#)).collect();
    plain(
        r##"{"#":["#copy($)","#delete($.o.*)"]}"##,
        &format!(r#"{{"o":{{{}}}}}"#, members.join(",")),
    )
}

const DIMENSIONS: &[scaling::Dimension<Case>] = &[
    ("#xconcat arguments (1 KB strings)", 200, xconcat_strings),
    ("#xconcat arguments (arrays of 10)", 200, xconcat_arrays),
    ("#loop array elements", 2000, loop_array),
    ("#loop object members", 2000, loop_object),
    ("#concatall items", 4000, concatall),
    ("#concatallatpath items", 4000, concatallatpath),
    ("#grouparrayby items, distinct keys", 1000, group_distinct),
    ("#grouparrayby items, one group", 500, group_one),
    (
        "look-in-transformed null properties",
        200,
        look_in_transformed,
    ),
    ("#delete array items (every other)", 2000, delete_items),
    ("#delete object members (all)", 2000, delete_members),
];

fn main() {
    scaling::print_header();
    let all = scaling::measure_all(DIMENSIONS, Case::run);
    scaling::finish(&all);
}
