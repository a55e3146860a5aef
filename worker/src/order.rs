//! Which entries must be pushed before which, read from the definition itself.
//!
//! An entry depends on another when it names it in an `ApiSynchronization` action (`path:
//! Account`) or in a `{Account.IntegrationId}` placeholder of any operation or action path.
//! Names alone (Account sounds like it comes first) are never used.

use std::collections::{BTreeMap, BTreeSet};

use syncdef_definitions::Definition;
use syncdef_definitions::model::SyncEntry;
use syncdef_definitions::operation_ref::{OperationRef, PlaceholderKind};

use crate::error::WorkerError;

/// Every entry of a definition with the entries it depends on, in document order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dependencies {
    entries: Vec<(String, BTreeSet<String>)>,
}

impl Dependencies {
    /// Reads the dependencies of every entry of `definition`.
    pub fn from_definition(definition: &Definition) -> Self {
        let entries = definition
            .sync
            .as_ref()
            .map(|s| s.entries.as_slice())
            .unwrap_or_default();
        let names: BTreeSet<&str> = entries.iter().map(|e| e.key.value.as_str()).collect();
        let entries = entries
            .iter()
            .map(|entry| {
                let mut needs = BTreeSet::new();
                collect(entry, &mut needs);
                needs.retain(|n| names.contains(n.as_str()) && *n != entry.key.value);
                (entry.key.value.clone(), needs)
            })
            .collect();
        Dependencies { entries }
    }

    /// The entries `entry` depends on.
    pub fn of(&self, entry: &str) -> impl Iterator<Item = &str> {
        self.entries
            .iter()
            .filter(move |(name, _)| name == entry)
            .flat_map(|(_, needs)| needs.iter().map(String::as_str))
    }

    /// The entry names, in document order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(n, _)| n.as_str())
    }

    /// `requested` ordered so that every entry comes after the requested entries it depends
    /// on (directly or through others); ties keep the document order.
    ///
    /// # Errors
    /// An unknown entry (with the known ones), or a dependency cycle (named).
    pub fn order(&self, requested: &[String]) -> Result<Vec<String>, WorkerError> {
        for name in requested {
            if !self.entries.iter().any(|(n, _)| n == name) {
                return Err(WorkerError::Usage(format!(
                    "the definition has no entry `{name}`; it has: {}",
                    self.names().collect::<Vec<_>>().join(", ")
                )));
            }
        }
        let wanted: BTreeSet<&str> = requested.iter().map(String::as_str).collect();
        // Edges through entries that were not requested still order the requested ones.
        let closure = |start: &str| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![start.to_owned()];
            while let Some(n) = stack.pop() {
                for d in self.of(&n) {
                    if seen.insert(d.to_owned()) {
                        stack.push(d.to_owned());
                    }
                }
            }
            seen
        };
        let mut pending: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        for (name, _) in &self.entries {
            if wanted.contains(name.as_str()) {
                let all = closure(name);
                if all.contains(name) {
                    return Err(WorkerError::Usage(format!(
                        "entry `{name}` depends on itself through its ApiSynchronization actions or {{Entry.IntegrationId}} placeholders; break the cycle in the definition"
                    )));
                }
                pending.insert(
                    name,
                    all.into_iter()
                        .filter(|d| wanted.contains(d.as_str()))
                        .collect(),
                );
            }
        }
        let mut ordered = Vec::new();
        while !pending.is_empty() {
            let next = self
                .entries
                .iter()
                .map(|(n, _)| n.as_str())
                .find(|n| pending.get(n).is_some_and(BTreeSet::is_empty));
            let Some(next) = next else {
                // Unreachable after the self-dependency check, kept as an error, not a panic.
                return Err(WorkerError::Usage(
                    "the requested entries depend on each other in a cycle".to_owned(),
                ));
            };
            pending.remove(next);
            for needs in pending.values_mut() {
                needs.remove(next);
            }
            ordered.push(next.to_owned());
        }
        Ok(ordered)
    }
}

fn collect(entry: &SyncEntry, needs: &mut BTreeSet<String>) {
    let Some(push) = &entry.push else { return };
    let from_ref = |r: &OperationRef, needs: &mut BTreeSet<String>| {
        for p in &r.placeholders {
            if let PlaceholderKind::EntryIntegrationId { entry } = &p.kind {
                needs.insert(entry.clone());
            }
        }
    };
    for field in [&push.create, &push.update, &push.delete]
        .into_iter()
        .flatten()
    {
        if let Ok(r) = &field.parsed {
            from_ref(r, needs);
        }
    }
    for action in &push.common.post_actions {
        if let Some(Ok(r)) = &action.path_ref {
            from_ref(r, needs);
        }
    }
    // Only pre-actions order entries: a post-action synchronises after the record.
    for action in &push.common.pre_actions {
        if let Some(Ok(r)) = &action.path_ref {
            from_ref(r, needs);
        }
        if let Some(path) = action.synchronized() {
            needs.insert(path.value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Definition {
        Definition::load(syncdef_definitions::SourceFile::new("d.yaml", text)).expect("definition")
    }

    const DEF: &str = r#"openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
synchronization:
  Invoice:
    module: Invoices
    push:
      create: /x/post
      preSynchronizationAction:
        Customer: {type: ApiPath, path: "/c/{Customer.IntegrationId}/get"}
  Customer:
    module: Accounts
    push:
      create: /c/post
  Payment:
    module: Payments
    push:
      create: /p/post
      preSynchronizationAction:
        Inv: {type: ApiSynchronization, path: Invoice}
"#;

    #[test]
    fn order_follows_placeholders_and_actions_not_names() {
        let deps = Dependencies::from_definition(&load(DEF));
        let all: Vec<String> = ["Payment", "Invoice", "Customer"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            deps.order(&all).expect("order"),
            ["Customer", "Invoice", "Payment"]
        );
        // Payment needs Customer through Invoice, which was not asked for.
        let two: Vec<String> = ["Payment", "Customer"].map(String::from).to_vec();
        assert_eq!(deps.order(&two).expect("order"), ["Customer", "Payment"]);
    }

    #[test]
    fn unknown_entries_and_cycles_are_errors() {
        let deps = Dependencies::from_definition(&load(DEF));
        let error = deps.order(&["Acount".to_owned()]).expect_err("unknown");
        assert!(
            error
                .to_string()
                .contains("it has: Invoice, Customer, Payment")
        );
        let cyclic = DEF.replace(
            "create: /c/post",
            "create: \"/c/{Payment.IntegrationId}/post\"",
        );
        let deps = Dependencies::from_definition(&load(&cyclic));
        let error = deps.order(&["Customer".to_owned()]).expect_err("cycle");
        assert!(error.to_string().contains("depends on itself"), "{error}");
    }
}
