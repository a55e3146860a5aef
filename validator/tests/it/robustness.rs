//! Broken input never panics: every one-line deletion and many truncations of the valid
//! definitions are linted (whatever they report).

use syncdef_validator::output::{OutputFormat, RenderOptions, render};
use syncdef_validator::{LintReport, RuleSettings, lint_text};

const FIXTURES: [&str; 2] = [
    include_str!("../fixtures/valid.yaml"),
    include_str!("../fixtures/valid_business_central.yaml"),
];

fn lint_and_render(text: &str) {
    let file = lint_text("mutant.yaml", text, &RuleSettings::default());
    let report = LintReport {
        files: vec![file],
        errors: Vec::new(),
    };
    // Rendering exercises the line index and miette's span handling on every diagnostic.
    for format in [
        OutputFormat::Human,
        OutputFormat::Json,
        OutputFormat::Sarif,
        OutputFormat::Github,
    ] {
        let _ = render(&report, format, &RenderOptions::default());
    }
}

#[test]
fn every_line_deletion() {
    for text in FIXTURES {
        let lines: Vec<&str> = text.lines().collect();
        for skip in 0..lines.len() {
            let mutant: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| *l)
                .collect();
            lint_and_render(&mutant.join("\n"));
        }
    }
}

#[test]
fn truncations_and_multibyte_cuts() {
    for text in FIXTURES {
        let mut cut = 0;
        while cut < text.len() {
            if let Some(prefix) = text.get(..cut) {
                lint_and_render(prefix);
            }
            cut += 13;
        }
        // Non-ASCII text around every template and placeholder.
        lint_and_render(
            &text
                .replace("$.account", "$.accöunt")
                .replace("{IntegrationId}", "{Integratiön}"),
        );
    }
}
