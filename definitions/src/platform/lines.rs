//! Which entry pushes the lines an `ApiSynchronization` action names.
//!
//! An invoice's lines are pushed one request each where the external system takes them one at
//! a time (Stripe's invoice items): the invoice entry names them in a post-action
//! (`Items: {type: ApiSynchronization, path: InvoiceItems}`) and an entry of the lines' module
//! (`module: InvoiceItems`) says how each is pushed. The action's `path` names that entry, or
//! the child collection when exactly one entry has its module. The linter (SD507), the engine
//! and the sync worker all decide it here.

use super::modules::{Module, lines_module};

/// What an `ApiSynchronization` action of an entry of `parent` naming `target` pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinesTarget<'e> {
    /// Each line, with the entry of this name.
    Entry(&'e str),
    /// Not lines: a related entry (`Account`), or a child collection no entry pushes (its
    /// items are read with the record, for templates that write them in one request).
    NotLines,
    /// A child collection that several entries push: the action must name one of them.
    Ambiguous,
    /// An entry of lines whose parent is another module (`OrderItems` from an invoice).
    ForeignParent(&'static Module),
}

/// What the action naming `target`, of an entry of module `parent`, pushes, given the
/// definition's `entries` as (name, `module` value).
pub fn lines_target<'e>(
    parent: &Module,
    target: &str,
    entries: impl IntoIterator<Item = (&'e str, Option<&'e str>)> + Clone,
) -> LinesTarget<'e> {
    let lines_of = |module: Option<&str>| module.and_then(lines_module);
    if let Some((name, module)) = entries.clone().into_iter().find(|(n, _)| *n == target) {
        return match lines_of(module) {
            None => LinesTarget::NotLines,
            Some(lines) if lines.parent == Some(parent.name) => LinesTarget::Entry(name),
            Some(lines) => LinesTarget::ForeignParent(lines),
        };
    }
    if !parent.child_names().any(|c| c == target) {
        return LinesTarget::NotLines;
    }
    let mut pushing = entries
        .into_iter()
        .filter(|(_, module)| *module == Some(target))
        .map(|(name, _)| name);
    match (pushing.next(), pushing.next()) {
        (None, _) => LinesTarget::NotLines,
        (Some(name), None) => LinesTarget::Entry(name),
        (Some(_), Some(_)) => LinesTarget::Ambiguous,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::modules::{ACCOUNTS, INVOICES, ORDER_ITEMS};

    const ENTRIES: [(&str, Option<&str>); 4] = [
        ("Account", Some("Accounts")),
        ("Invoice", Some("Invoices")),
        ("Lines", Some("InvoiceItems")),
        ("OrderLines", Some("OrderItems")),
    ];

    #[test]
    fn the_collection_or_the_entry_names_the_lines() {
        assert_eq!(
            lines_target(&INVOICES, "InvoiceItems", ENTRIES),
            LinesTarget::Entry("Lines")
        );
        assert_eq!(
            lines_target(&INVOICES, "Lines", ENTRIES),
            LinesTarget::Entry("Lines")
        );
        assert_eq!(
            lines_target(&INVOICES, "Account", ENTRIES),
            LinesTarget::NotLines
        );
        assert_eq!(
            lines_target(&INVOICES, "OrderLines", ENTRIES),
            LinesTarget::ForeignParent(&ORDER_ITEMS)
        );
        // A child collection of another module is no line of this one.
        assert_eq!(
            lines_target(&ACCOUNTS, "InvoiceItems", ENTRIES),
            LinesTarget::NotLines
        );
    }

    #[test]
    fn a_collection_no_entry_pushes_is_read_only_and_two_are_ambiguous() {
        let none = [("Invoice", Some("Invoices"))];
        assert_eq!(
            lines_target(&INVOICES, "InvoiceItems", none),
            LinesTarget::NotLines
        );
        let two = [
            ("Invoice", Some("Invoices")),
            ("A", Some("InvoiceItems")),
            ("B", Some("InvoiceItems")),
        ];
        assert_eq!(
            lines_target(&INVOICES, "InvoiceItems", two),
            LinesTarget::Ambiguous
        );
    }
}
