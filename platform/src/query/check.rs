//! Checking a filter and an ordering against a collection's properties.

use super::collection::{Collection, OrderList, PropertyType};
use super::filter::Filter;
use super::literal::Literal;
use super::order::OrderBy;
use super::problem::QueryProblem;
use crate::suggest::did_you_mean;

/// Walks the filter and appends every problem to `problems`.
pub(crate) fn check_filter(
    collection: &Collection,
    filter: &Filter,
    problems: &mut Vec<QueryProblem>,
) {
    match filter {
        Filter::And(left, right) | Filter::Or(left, right) => {
            check_filter(collection, left, problems);
            check_filter(collection, right, problems);
        }
        Filter::Not(inner) => check_filter(collection, inner, problems),
        Filter::Compare {
            property,
            op,
            value,
        } => {
            let Some(ty) = property_type(collection, property, problems) else {
                return;
            };
            if let Literal::Decimal(n) = value
                && !n.is_finite()
            {
                problems.push(QueryProblem::NonFiniteNumber {
                    property: property.clone(),
                });
                return;
            }
            if !literal_fits(ty, value) {
                problems.push(QueryProblem::WrongLiteral {
                    property: property.clone(),
                    expected: ty,
                    found: value.kind(),
                });
                return;
            }
            if op.is_ordering() && matches!(ty, PropertyType::Boolean | PropertyType::Guid) {
                problems.push(QueryProblem::UnorderedComparison {
                    property: property.clone(),
                    ty,
                    op: op.keyword(),
                });
            }
        }
        Filter::Text {
            function, property, ..
        } => {
            let Some(ty) = property_type(collection, property, problems) else {
                return;
            };
            if ty != PropertyType::String {
                problems.push(QueryProblem::TextFunctionOnNonString {
                    property: property.clone(),
                    ty,
                    function: function.name(),
                });
            }
        }
    }
}

fn property_type(
    collection: &Collection,
    property: &str,
    problems: &mut Vec<QueryProblem>,
) -> Option<PropertyType> {
    if let Some(p) = collection.property(property) {
        Some(p.ty)
    } else {
        problems.push(QueryProblem::UnknownFilterProperty {
            property: property.to_owned(),
            suggestion: did_you_mean(property, collection.property_names()),
            known: collection.property_names().collect(),
        });
        None
    }
}

/// Which literals each type label accepts. Dates take a time and date-times a bare date,
/// because the platform reads both through the same `datetime'…'` notation.
fn literal_fits(ty: PropertyType, value: &Literal) -> bool {
    matches!(
        (ty, value),
        (PropertyType::Int, Literal::Int(_))
            | (PropertyType::Numeric, Literal::Int(_) | Literal::Decimal(_))
            | (PropertyType::String, Literal::String(_))
            | (PropertyType::Boolean, Literal::Bool(_))
            | (
                PropertyType::Date | PropertyType::DateTime,
                Literal::Date(_) | Literal::DateTime(_)
            )
            | (PropertyType::Guid, Literal::Guid(_))
    )
}

/// Checks the ordering terms. With `allow_unlisted`, a collection whose order list the spec
/// does not show accepts any of its filterable properties (still catching typos).
pub(crate) fn check_order(
    collection: &Collection,
    order: &[OrderBy],
    allow_unlisted: bool,
    problems: &mut Vec<QueryProblem>,
) {
    for (i, term) in order.iter().enumerate() {
        let property = term.property.as_str();
        if order[..i]
            .iter()
            .any(|earlier| earlier.property == property)
        {
            problems.push(QueryProblem::DuplicateOrder {
                property: property.to_owned(),
            });
            continue;
        }
        match collection.order {
            OrderList::Listed(orderable) => {
                if orderable.contains(&property) {
                    continue;
                }
                if collection.property(property).is_some() {
                    problems.push(QueryProblem::NotOrderable {
                        property: property.to_owned(),
                        orderable,
                    });
                } else {
                    problems.push(QueryProblem::UnknownOrderProperty {
                        property: property.to_owned(),
                        suggestion: did_you_mean(property, orderable.iter().copied()),
                        orderable,
                    });
                }
            }
            OrderList::NotShown if !allow_unlisted => {
                problems.push(QueryProblem::OrderNotShown {
                    property: property.to_owned(),
                });
            }
            OrderList::NotShown => {
                if collection.property(property).is_none() {
                    problems.push(QueryProblem::UnknownProperty {
                        property: property.to_owned(),
                        suggestion: did_you_mean(property, collection.property_names()),
                    });
                }
            }
        }
    }
}
