//! Typed `$filter` and `$orderby`, checked against the spec's property tables before sending.
//!
//! A [`Query`] names a [`Collection`] (all of them are in [`crate::collections`]), a
//! [`Filter`] built from [`Literal`]s, and [`OrderBy`] terms. [`Query::check`] reports every
//! unknown property, wrong literal type and unorderable property at once, with a
//! did-you-mean, and renders the OData text.

mod builder;
#[rustfmt::skip]
pub(crate) mod catalog;
mod check;
mod collection;
mod filter;
mod literal;
mod order;
mod problem;

pub(crate) use builder::COMPONENT;
pub use builder::{CheckedQuery, Query};
pub use collection::{Collection, OrderList, PathParam, Property, PropertyType};
pub use filter::{CompareOp, Filter, TextFunction};
pub use literal::{Date, DateTime, InvalidDate, Literal};
pub use order::{Direction, OrderBy};
pub use problem::{QueryError, QueryProblem};

pub use crate::guid::Guid;
