//! The entries a worker syncs ([`EntryInfo`]), each with its module, the entries its records
//! name and its place in dependency order, read once from the engine's plan and the
//! definition's dependencies.

use std::collections::BTreeMap;

use syncdef_engine::Engine;

use crate::error::WorkerError;
use crate::modules::Module;
use crate::order::Dependencies;
use crate::shared::EntryInfo;

/// Every entry of the definition the worker can read, by name. Entries that are neither in
/// `order` (the requested entries) nor needed may use modules the worker cannot read: they
/// are left out rather than refused.
///
/// # Errors
/// [`WorkerError::Usage`] for a requested entry the plan lacks or whose module the worker
/// does not read.
pub(crate) fn entries(
    engine: &Engine,
    dependencies: &Dependencies,
    order: &[String],
) -> Result<BTreeMap<String, EntryInfo>, WorkerError> {
    let module_of = |name: &str| -> Result<Module, WorkerError> {
        let plan = engine
            .plan()
            .entry(name)
            .ok_or_else(|| WorkerError::Usage(format!("the definition has no entry `{name}`")))?;
        if let Some(parent) = plan.module.parent {
            return Err(WorkerError::Usage(format!(
                "entry `{name}` pushes the lines of `{parent}` records, each with its record: sync the entry of `{parent}` whose post-action names it"
            )));
        }
        Module::from_root(plan.root()).ok_or_else(|| {
            WorkerError::Usage(format!(
                "entry `{name}` pushes `$.{}` records; `syncdef sync` reads the modules {} so far",
                plan.root(),
                Module::supported()
            ))
        })
    };
    let mut entries = BTreeMap::new();
    for name in dependencies.names() {
        let Ok(module) = module_of(name) else {
            if order.iter().any(|o| o == name) {
                module_of(name)?;
            }
            continue;
        };
        let needs = dependencies
            .of(name)
            .filter_map(|d| module_of(d).ok().map(|m| (d.to_owned(), m)))
            .collect();
        entries.insert(
            name.to_owned(),
            EntryInfo {
                name: name.to_owned(),
                module,
                needs,
                rank: rank_of(dependencies, name, 0),
            },
        );
    }
    Ok(entries)
}

/// How many entries lie below `name` in dependency order (its longest chain of needs).
fn rank_of(dependencies: &Dependencies, name: &str, depth: i32) -> i32 {
    // A cycle is refused before a run; the bound only keeps a malformed graph finite here.
    if depth > 64 {
        return depth;
    }
    dependencies
        .of(name)
        .map(|need| 1 + rank_of(dependencies, need, depth + 1))
        .max()
        .unwrap_or(0)
}
