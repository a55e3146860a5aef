//! The linter and the plan agree on operation references: the references of the catalog
//! definitions, and variants of them, are accepted by both or refused by both, and where
//! accepted they resolve to the same path template. The validator's lookup is
//! `syncdef_definitions::path_match::PathIndex::resolve` (its rule context calls nothing else);
//! its verdict is read from a real lint.

use std::path::PathBuf;

use proptest::prelude::*;
use syncdef_definitions::model::ActionType;
use syncdef_definitions::operation_ref::OperationRef;
use syncdef_definitions::path_match::Resolution;
use syncdef_definitions::{Definition, SourceFile, Span};
use syncdef_transform::Limits;
use syncdef_validator::{Rule, RuleSettings, lint_definition};

use super::{DefinitionPlan, operation};

/// Where a push operation reference is written.
#[derive(Clone, Debug)]
struct Site {
    pointer: String,
    span: Span,
    reference: OperationRef,
}

/// The catalog's definitions, YAML and JSON, with their text (sample records, which are JSON
/// too, are not definitions).
fn catalog() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../catalog");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).expect("catalog directory") {
        let dir = dir.expect("catalog entry").path();
        for file in std::fs::read_dir(&dir).into_iter().flatten() {
            let file = file.expect("catalog file").path();
            let is_definition = matches!(
                file.extension().and_then(|e| e.to_str()),
                Some("yaml" | "json")
            ) && file.is_file();
            if is_definition {
                let text = std::fs::read_to_string(&file).expect("readable");
                let name = file.display().to_string();
                if load(&name, &text).sync.is_some() {
                    files.push((name, text));
                }
            }
        }
    }
    files.sort();
    assert!(files.len() >= 4, "catalog definitions: {files:?}");
    files
}

fn load(name: &str, text: &str) -> Definition {
    Definition::load(SourceFile::new(name, text)).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// Every reference the plan compiles: push operations and `ApiPath` push actions.
fn sites(def: &Definition) -> Vec<Site> {
    let mut out = Vec::new();
    for entry in def.sync.iter().flat_map(|s| &s.entries) {
        let Some(push) = &entry.push else { continue };
        for field in [&push.create, &push.update, &push.delete]
            .into_iter()
            .flatten()
        {
            if let Ok(reference) = &field.parsed {
                out.push(Site {
                    pointer: field.pointer.clone(),
                    span: field.text.span,
                    reference: reference.clone(),
                });
            }
        }
        for action in push
            .common
            .pre_actions
            .iter()
            .chain(&push.common.post_actions)
        {
            let api_path = matches!(
                action.kind.as_ref().map(|k| &k.value),
                Some(ActionType::ApiPath)
            );
            if let (true, Some(text), Some(Ok(reference))) =
                (api_path, &action.path, &action.path_ref)
            {
                out.push(Site {
                    pointer: action.pointer.clone(),
                    span: text.span,
                    reference: reference.clone(),
                });
            }
        }
    }
    out
}

/// What each side makes of the reference at `site` of `def`: the linter's verdict, the
/// template the validator's lookup finds, and the template the plan resolves to (or why not).
struct Verdicts {
    lint_refuses: bool,
    lookup: Option<String>,
    plan: Result<String, String>,
}

fn verdicts(def: &Definition, site: &Site) -> Verdicts {
    let diagnostics = lint_definition(def, &RuleSettings::default(), true);
    let lint_refuses = diagnostics.iter().any(|d| {
        matches!(
            d.rule,
            Rule::UnknownOperationPath | Rule::MethodNotOnPath | Rule::MalformedOperationRef
        ) && d.pointer.as_deref() == Some(&site.pointer)
    });
    let paths = def.paths();
    let lookup = match paths.resolve(&site.reference) {
        Resolution::Found { path, .. } => Some(path.template.to_owned()),
        _ => None,
    };
    let plan = match DefinitionPlan::compile(def, &Limits::default()) {
        Ok(_) => operation(&paths, &site.reference).map(|(p, _)| p.template.to_owned()),
        Err(problems) => Err(problems.join("; ")),
    };
    Verdicts {
        lint_refuses,
        lookup,
        plan,
    }
}

#[test]
fn every_catalog_reference_resolves_alike() {
    let mut checked = 0;
    for (name, text) in catalog() {
        let def = load(&name, &text);
        for site in sites(&def) {
            let v = verdicts(&def, &site);
            let reference = &site.reference;
            assert!(!v.lint_refuses, "{name}: lint refuses `{reference}`");
            let plan = v
                .plan
                .unwrap_or_else(|e| panic!("{name}: the plan refuses `{reference}`: {e}"));
            assert_eq!(
                v.lookup.as_deref(),
                Some(plan.as_str()),
                "{name}: `{reference}`"
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} references in the catalog");
}

/// How a variant changes the path of a catalog reference, besides refilling its parameters.
#[derive(Clone, Copy, Debug)]
enum Change {
    None,
    /// `?operation=delete` after the path.
    Query,
    /// A `/` after the path.
    TrailingSlash,
    /// The first letter of the last literal segment upper-cased (or lower-cased).
    Case,
    /// One more segment.
    ExtraSegment,
}

/// What a template parameter is refilled with.
fn filler() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some("{IntegrationId}".to_owned())),
        "Z[A-Za-z0-9_.~-]{0,6}".prop_map(Some),
        "Z[0-9]{0,3}".prop_map(|s| Some(format!("{s}-{{IntegrationId}}"))),
    ]
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        3 => Just(Change::None),
        1 => Just(Change::Query),
        1 => Just(Change::TrailingSlash),
        1 => Just(Change::Case),
        1 => Just(Change::ExtraSegment),
    ]
}

/// The reference text of a variant of `site`'s reference.
fn variant(def: &Definition, site: &Site, fillers: &[Option<String>], change: Change) -> String {
    let path = &site.reference.path;
    let Resolution::Found { bindings, .. } = def.paths().resolve(&site.reference) else {
        panic!("`{}` resolves", site.reference);
    };
    let mut out = String::new();
    let mut at = 0;
    for (binding, filler) in bindings.iter().zip(fillers.iter().cycle()) {
        out.push_str(&path[at..binding.range.start]);
        let original = &path[binding.range.clone()];
        out.push_str(filler.as_deref().unwrap_or(original));
        at = binding.range.end;
    }
    out.push_str(&path[at..]);
    match change {
        Change::None => {}
        Change::Query => out.push_str("?operation=delete"),
        Change::TrailingSlash => out.push('/'),
        Change::ExtraSegment => out.push_str("/extra"),
        Change::Case => {
            let last = out.rfind('/').map_or(0, |i| i + 1);
            if let Some(i) = out[last..]
                .char_indices()
                .find(|(_, c)| c.is_ascii_alphabetic())
                .map(|(i, _)| last + i)
            {
                let c = out.as_bytes()[i] as char;
                let flipped = if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                };
                out.replace_range(i..=i, &flipped.to_string());
            }
        }
    }
    format!("{out}/{}", site.reference.method)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Variants of catalog references (parameters refilled with literals, placeholders or both;
    /// a query string; a trailing slash; another case; one more segment) are accepted by both
    /// the linter and the plan, with the same template, or refused by both.
    #[test]
    fn variants_of_catalog_references_resolve_alike(
        file in any::<prop::sample::Index>(),
        site in any::<prop::sample::Index>(),
        fillers in proptest::collection::vec(filler(), 1..4),
        change in change(),
    ) {
        let files = catalog();
        let (name, text) = &files[file.index(files.len())];
        let original = load(name, text);
        let all = sites(&original);
        let at = &all[site.index(all.len())];
        let reference = variant(&original, at, &fillers, change);
        let scalar = serde_json::to_string(&reference).expect("a string");
        let range = at.span.start as usize..at.span.end as usize;
        let mut changed = text.clone();
        changed.replace_range(range, &scalar);
        let def = load(name, &changed);
        let site = sites(&def)
            .into_iter()
            .find(|s| s.pointer == at.pointer)
            .expect("the changed reference parses");
        prop_assert_eq!(site.reference.to_string(), reference.clone());
        let v = verdicts(&def, &site);
        match (&v.plan, v.lint_refuses) {
            (Ok(plan), false) => {
                prop_assert_eq!(Some(plan), v.lookup.as_ref(), "`{}`", reference);
                if matches!(change, Change::None | Change::Query) {
                    let lookup = original.paths();
                    let Resolution::Found { path, .. } = lookup.resolve(&at.reference) else {
                        unreachable!("catalog references resolve");
                    };
                    prop_assert_eq!(plan.as_str(), path.template, "`{}`", reference);
                }
            }
            (Err(_), true) => prop_assert!(v.lookup.is_none(), "`{}`", reference),
            (plan, lint_refuses) => prop_assert!(
                false,
                "`{}`: lint refuses: {}, plan: {:?}",
                reference,
                lint_refuses,
                plan
            ),
        }
    }
}
