//! Helpers: `yields` compiles a template (JSON text), applies it to a record (JSON text) and
//! compares the compact output text, so number formatting is checked too. Every case runs
//! both ways, building the output (`apply`) and writing it (`apply_to_json`): they must agree
//! on the text and on the error.

use syncdef_transform::{EvaluationMode, OutputShape, Settings, Template, Value};

pub fn run_with(settings: &Settings, template: &str, input: &str) -> Result<String, String> {
    let t = Template::compile_str(template, settings).map_err(|e| e.to_string())?;
    let input = Value::from_json_str(input).map_err(|e| e.to_string())?;
    let built = t
        .apply(&input)
        .map(|v| v.to_json_compact())
        .map_err(|e| e.to_string());
    let mut text = String::from("kept");
    let written = t
        .apply_to_json(&input, &mut text)
        .map(|()| text["kept".len()..].to_string())
        .map_err(|e| e.to_string());
    assert_eq!(
        written, built,
        "apply_to_json differs from apply for {template}"
    );
    if written.is_err() {
        assert_eq!(
            text, "kept",
            "a failed apply_to_json appended to its output"
        );
    }
    if let Ok(written) = &written {
        assert_eq!(
            &observed_reassembly(&t, &input),
            written,
            "the output shape and the observed computed parts do not make the output of {template}"
        );
    }
    built
}

/// The output put back together from the template's shape and the computed parts an observed
/// write reports: it must be the output itself.
pub fn observed_reassembly(t: &Template, input: &Value) -> String {
    let mut out = String::from("kept");
    let mut parts: Vec<(usize, usize)> = Vec::new();
    let mut seen_end = "kept".len();
    t.apply_to_json_observed(input, &mut out, &mut |text: &str, start: usize| {
        assert!(start >= seen_end, "computed parts overlap or go back");
        seen_end = text.len();
        parts.push((start, text.len()));
    })
    .expect("the observed write succeeds where the plain one did");
    let mut parts = parts.into_iter().map(|(s, e)| out[s..e].to_owned());
    let mut again = String::new();
    reassemble(&t.output_shape(), &mut parts, &mut again);
    assert!(
        parts.next().is_none(),
        "more computed parts than the shape has"
    );
    again
}

fn reassemble(shape: &OutputShape<'_>, parts: &mut impl Iterator<Item = String>, out: &mut String) {
    match shape {
        OutputShape::Constant(v) => out.push_str(&v.to_json_compact()),
        OutputShape::Computed => out.push_str(&parts.next().expect("a part per computed node")),
        OutputShape::Object(members) => {
            out.push('{');
            for (i, (key, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(*key).to_json_compact());
                out.push(':');
                reassemble(value, parts, out);
            }
            out.push('}');
        }
        _ => panic!("an output shape this test does not know"),
    }
}

#[track_caller]
pub fn yields(template: &str, input: &str, expected: &str) {
    yields_in(EvaluationMode::default(), template, input, expected);
}

#[track_caller]
pub fn yields_in(mode: EvaluationMode, template: &str, input: &str, expected: &str) {
    match run_with(&Settings::with_mode(mode), template, input) {
        Ok(out) => assert_eq!(out, expected, "template {template}"),
        Err(e) => panic!("template {template} failed: {e}"),
    }
}

#[track_caller]
pub fn fails_in(mode: EvaluationMode, template: &str, input: &str) -> String {
    match run_with(&Settings::with_mode(mode), template, input) {
        Ok(out) => panic!("template {template} should fail, gave {out}"),
        Err(e) => e,
    }
}

/// One value: `{"r": <expr>}` applied to `input`, the output of `r`.
#[track_caller]
pub fn value(expr: &str, input: &str) -> String {
    value_in(EvaluationMode::default(), expr, input)
}

#[track_caller]
pub fn value_in(mode: EvaluationMode, expr: &str, input: &str) -> String {
    let template = serde_json::json!({ "r": expr }).to_string();
    let out = run_with(&Settings::with_mode(mode), &template, input)
        .unwrap_or_else(|e| panic!("{expr} failed: {e}"));
    let v: serde_json::Value = serde_json::from_str(&out).expect("output is JSON");
    // Re-extract the text of `r` exactly as written.
    let prefix = "{\"r\":";
    assert!(out.starts_with(prefix), "{out}");
    let _ = v;
    out[prefix.len()..out.len() - 1].to_string()
}

pub const STRICT: EvaluationMode = EvaluationMode::STRICT;
