//! Scaling guard of the linter: loading, every rule and the reports (JSON and human) must stay
//! linear in each dimension a definition grows in. Each dimension is linted at a size and at 8
//! times that size; the run fails (exit status 1) when the time ratio of a dimension reaches
//! 12 (the measurement is the template language's: `transform-lang/benches/support/scaling.rs`).
//!
//! `cargo bench -p syncdef-cli --bench scaling [NAME...]` (release), or
//! `cargo test -p syncdef-cli --bench scaling` (the test profile). Figures: docs/benchmarks.md,
//! "Scaling".

#[path = "../../transform-lang/benches/support/scaling.rs"]
mod scaling;

use std::fmt::Write as _;
use std::hint::black_box;

use syncdef_validator::output::{OutputFormat, RenderOptions, render};
use syncdef_validator::{LintReport, RuleSettings, lint_text};

/// The head every generated document starts with: a valid OpenAPI 3.0 document.
const HEAD: &str = r#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}"#;

/// Lints `text` and renders its report in both formats, as `syncdef lint` does.
fn lint(name: &str, text: &str) {
    let report = lint_text(name, black_box(text), &RuleSettings::default());
    let report = LintReport {
        files: vec![report],
        errors: Vec::new(),
    };
    let options = RenderOptions::default();
    black_box(render(&report, OutputFormat::Json, &options));
    black_box(render(&report, OutputFormat::Human, &options));
}

/// `n` unknown keys of one object, a finding each, a key a line.
fn keys_per_object(n: usize) -> String {
    let mut text = format!("{HEAD}, \"paths\": {{}}");
    for i in 0..n {
        let _ = write!(text, ",\n\"k{i}\": 1");
    }
    text + "}"
}

/// The same keys and findings on one line (a minified document), named outside ASCII so that
/// each finding's column counts characters.
fn findings_per_line(n: usize) -> String {
    keys_per_object(n).replace('\n', "").replace("\"k", "\"é")
}

/// One line of `n` KiB of text outside ASCII, with a finding at its end: columns count
/// characters over the whole line.
fn line_length(n: usize) -> String {
    let long = "é".repeat(n * 512);
    format!("{HEAD}, \"paths\": {{}}, \"x-text\": \"{long}\", \"unknown\": 1}}")
}

/// Objects nested `n` deep under an extension.
fn nesting(n: usize) -> String {
    let open = "{\"a\": ".repeat(n);
    let close = "}".repeat(n);
    format!("{HEAD}, \"paths\": {{}}, \"x-deep\": {open}1{close}}}")
}

/// A chain of `n` schemas, each a `$ref` to the next, under an operation's request body.
fn ref_chain(n: usize) -> String {
    let mut schemas = String::new();
    for i in 0..n {
        let _ = writeln!(
            schemas,
            "\"s{i}\": {{\"$ref\": \"#/components/schemas/s{}\"}},",
            i + 1
        );
    }
    let _ = write!(schemas, "\"s{n}\": {{\"type\": \"object\"}}");
    format!(
        "{HEAD}, \"paths\": {{\"/a\": {{\"post\": {{\"requestBody\": {{\"content\": {{\"application/json\": {{\"schema\": {{\"$ref\": \"#/components/schemas/s0\"}}}}}}}}, \"responses\": {{\"200\": {{\"description\": \"ok\"}}}}}}}}}},\n\"components\": {{\"schemas\": {{\n{schemas}}}}}}}"
    )
}

/// `n` paths, each with an operation and a path parameter.
fn paths(n: usize) -> String {
    let mut text = format!("{HEAD}, \"paths\": {{");
    for i in 0..n {
        let comma = if i == 0 { "" } else { "," };
        let _ = write!(
            text,
            "{comma}\n\"/p{i}/{{id}}\": {{\"get\": {{\"parameters\": [{{\"name\": \"id\", \"in\": \"path\", \"required\": true, \"schema\": {{\"type\": \"string\"}}}}], \"responses\": {{\"200\": {{\"description\": \"ok\"}}}}}}}}"
        );
    }
    text + "}}"
}

const DIMENSIONS: &[scaling::Dimension<String>] = &[
    ("keys per object", 1_000, keys_per_object),
    ("findings per line", 2_000, findings_per_line),
    ("line length (KiB, not ASCII)", 16, line_length),
    ("nesting", 24, nesting),
    ("$ref chain", 30, ref_chain),
    ("paths", 100, paths),
];

fn main() {
    scaling::print_header();
    let all = scaling::measure_all(DIMENSIONS, |document: &String| lint("doc.json", document));
    scaling::finish(&all);
}
