//! What a collection endpoint accepts in `$filter` and `$orderby` (spec part 2).

use std::fmt;

// The property types are the platform's, shared with the record schema's filter tables.
pub use syncdef_definitions::platform::filters::{Property, PropertyType};

/// Which properties `$orderby` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderList {
    /// The spec lists these.
    Listed(&'static [&'static str]),
    /// The spec shows no order properties for this collection (bundles, payments, ...).
    NotShown,
}

/// A placeholder in a collection path such as `{pricelistId}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathParam {
    /// Name inside the braces.
    pub name: &'static str,
    /// Allowed values; empty means any non-empty value.
    pub allowed: &'static [&'static str],
}

impl PathParam {
    /// A placeholder taking any value (an id).
    pub const fn any(name: &'static str) -> Self {
        Self { name, allowed: &[] }
    }

    /// A placeholder taking one of a fixed set of values.
    pub const fn one_of(name: &'static str, allowed: &'static [&'static str]) -> Self {
        Self { name, allowed }
    }
}

/// A collection endpoint with its filterable and orderable properties.
///
/// All collections of the spec are in [`crate::collections`]; build others with a struct
/// literal if the platform grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Collection {
    /// Path relative to the base URL, with `{placeholders}`.
    pub path: &'static str,
    /// The placeholders of `path`, in order.
    pub path_params: &'static [PathParam],
    /// Filterable properties.
    pub properties: &'static [Property],
    /// Orderable properties.
    pub order: OrderList,
}

impl Collection {
    /// The filterable property called `name` (exact, case-sensitive, as the platform is).
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }

    /// Names of the filterable properties.
    pub fn property_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.properties.iter().map(|p| p.name)
    }

    /// The collection of the spec whose path template is `path` (for example `/api/accounts`).
    pub fn find(path: &str) -> Option<&'static Collection> {
        let path = path.trim_end_matches('/');
        super::catalog::ALL
            .iter()
            .copied()
            .find(|c| c.path.eq_ignore_ascii_case(path))
    }
}

impl fmt::Display for Collection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.path)
    }
}
