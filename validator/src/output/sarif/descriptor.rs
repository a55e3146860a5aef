//! `tool.driver.rules`: the rules a run is about, each described for the alert page.
//!
//! Only the rules that fired and those set in `syncdef.toml` are listed, not every rule: a
//! viewer then shows what this run checked on purpose and what it found, and a log stays
//! small. `ruleIndex` of a result is the position of its rule in this list.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::codes::Rule;
use crate::report::LintReport;

use super::level;

/// The listed rules, in code order.
pub(super) struct Rules(Vec<Rule>);

impl Rules {
    /// The rules of `report`'s findings plus the `configured` ones.
    pub(super) fn of(report: &LintReport, configured: &BTreeSet<Rule>) -> Self {
        let mut rules: BTreeSet<Rule> = configured.clone();
        rules.extend(report.diagnostics().map(|d| d.rule));
        let mut rules: Vec<Rule> = rules.into_iter().collect();
        rules.sort_by_key(|r| r.code());
        Rules(rules)
    }

    /// The position of `rule` in the list (every finding's rule is listed).
    pub(super) fn index(&self, rule: Rule) -> Option<usize> {
        self.0.iter().position(|r| *r == rule)
    }

    /// The `reportingDescriptor` objects.
    pub(super) fn descriptors(&self) -> Vec<Value> {
        self.0.iter().map(|r| descriptor(*r)).collect()
    }
}

fn descriptor(rule: Rule) -> Value {
    let docs = rule.documentation();
    json!({
        "id": rule.code(),
        "name": rule.name(),
        "shortDescription": { "text": rule.title() },
        "fullDescription": { "text": first_paragraph(&docs) },
        "help": { "text": docs, "markdown": docs },
        "helpUri": rule.url(),
        "defaultConfiguration": { "level": level(rule.default_severity()) },
    })
}

/// The first paragraph of the "What it does" section.
fn first_paragraph(docs: &str) -> String {
    docs.lines()
        .skip_while(|l| !l.starts_with("## What it does"))
        .skip(1)
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
