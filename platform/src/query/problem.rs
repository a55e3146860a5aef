//! Why a query was refused before it was sent.

use std::fmt;

use super::collection::PropertyType;

/// One thing wrong with a query. The message says what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum QueryProblem {
    /// The property is not filterable on this collection.
    UnknownFilterProperty {
        /// As written.
        property: String,
        /// The closest filterable property.
        suggestion: Option<&'static str>,
        /// All filterable properties, listed when nothing is close.
        known: Vec<&'static str>,
    },
    /// The literal's type does not fit the property's.
    WrongLiteral {
        /// Property.
        property: String,
        /// Its type label.
        expected: PropertyType,
        /// Kind of the literal given.
        found: &'static str,
    },
    /// `gt`/`ge`/`lt`/`le` on a type without an order.
    UnorderedComparison {
        /// Property.
        property: String,
        /// Its type label.
        ty: PropertyType,
        /// Operator keyword.
        op: &'static str,
    },
    /// `contains`/`startswith`/`endswith` on a property that is not a string.
    TextFunctionOnNonString {
        /// Property.
        property: String,
        /// Its type label.
        ty: PropertyType,
        /// Function name.
        function: &'static str,
    },
    /// NaN or infinity.
    NonFiniteNumber {
        /// Property.
        property: String,
    },
    /// The property is not in the collection at all (for `$orderby`).
    UnknownOrderProperty {
        /// As written.
        property: String,
        /// The closest orderable property.
        suggestion: Option<&'static str>,
        /// The orderable properties, for the message.
        orderable: &'static [&'static str],
    },
    /// The property is filterable but the spec does not list it for ordering.
    NotOrderable {
        /// As written.
        property: String,
        /// The orderable properties.
        orderable: &'static [&'static str],
    },
    /// The spec shows no order properties for this collection.
    OrderNotShown {
        /// As written.
        property: String,
    },
    /// Ordering by a name that is not a property of the collection at all.
    UnknownProperty {
        /// As written.
        property: String,
        /// The closest property.
        suggestion: Option<&'static str>,
    },
    /// The same property twice in `$orderby`.
    DuplicateOrder {
        /// Property.
        property: String,
    },
    /// A `{placeholder}` of the path has no value.
    MissingPathParam {
        /// Its name.
        name: &'static str,
    },
    /// A path value was given for a placeholder the path does not have.
    UnknownPathParam {
        /// As written.
        name: String,
        /// The closest placeholder.
        suggestion: Option<&'static str>,
    },
    /// A placeholder with a fixed set of values got another one.
    PathParamNotAllowed {
        /// Placeholder.
        name: &'static str,
        /// Value given.
        value: String,
        /// Allowed values.
        allowed: &'static [&'static str],
        /// The closest allowed value.
        suggestion: Option<&'static str>,
    },
    /// A page size of zero.
    ZeroPageSize,
}

fn hint(suggestion: Option<&str>) -> String {
    suggestion
        .map(|s| format!("; did you mean `{s}`?"))
        .unwrap_or_default()
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn literal_advice(expected: PropertyType) -> &'static str {
    match expected {
        PropertyType::Int => "pass a whole number (i64)",
        PropertyType::Numeric => "pass a number (i64 or f64)",
        PropertyType::String => "pass a string (&str or String)",
        PropertyType::Boolean => "pass true or false",
        PropertyType::Date | PropertyType::DateTime => {
            "pass a Date or DateTime (e.g. Date::parse(\"2024-01-31\")), not a string"
        }
        PropertyType::Guid => "pass a Guid (Guid::parse(\"…\")), not a string",
    }
}

impl fmt::Display for QueryProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownFilterProperty {
                property,
                suggestion: Some(suggestion),
                ..
            } => write!(
                f,
                "`{property}` cannot be filtered on; did you mean `{suggestion}`?"
            ),
            Self::UnknownFilterProperty {
                property,
                suggestion: None,
                known,
            } => write!(
                f,
                "`{property}` cannot be filtered on; filterable properties: {}",
                known.join(", ")
            ),
            Self::WrongLiteral {
                property,
                expected,
                found,
            } => write!(
                f,
                "`{property}` is {expected} but the value is {} {found}: {}",
                article(found),
                literal_advice(*expected)
            ),
            Self::UnorderedComparison { property, ty, op } => write!(
                f,
                "`{property}` is {ty}, which has no order, so `{op}` is meaningless; use `eq` or `ne`"
            ),
            Self::TextFunctionOnNonString {
                property,
                ty,
                function,
            } => write!(
                f,
                "`{function}` works on string properties but `{property}` is {ty}; compare with `eq` instead"
            ),
            Self::NonFiniteNumber { property } => write!(
                f,
                "the value for `{property}` is not a finite number (NaN or infinity cannot be sent)"
            ),
            Self::UnknownOrderProperty {
                property,
                suggestion,
                orderable,
            } => write!(
                f,
                "`{property}` cannot be ordered by (orderable: {}){}",
                orderable.join(", "),
                hint(*suggestion)
            ),
            Self::NotOrderable {
                property,
                orderable,
            } => write!(
                f,
                "`{property}` can be filtered on but not ordered by (orderable: {})",
                orderable.join(", ")
            ),
            Self::OrderNotShown { property } => write!(
                f,
                "cannot order by `{property}`: the platform documents no order properties for this collection; \
                 if you know the platform accepts it, call `allow_unlisted_order()` on the query"
            ),
            Self::UnknownProperty {
                property,
                suggestion,
            } => write!(
                f,
                "`{property}` is not a property of this collection{}",
                hint(*suggestion)
            ),
            Self::DuplicateOrder { property } => {
                write!(f, "`{property}` appears twice in the ordering; keep one")
            }
            Self::MissingPathParam { name } => write!(
                f,
                "the path needs a value for `{{{name}}}`; add `.path_param(\"{name}\", …)`"
            ),
            Self::UnknownPathParam { name, suggestion } => write!(
                f,
                "the path has no `{{{name}}}` placeholder{}",
                hint(*suggestion)
            ),
            Self::PathParamNotAllowed {
                name,
                value,
                allowed,
                suggestion,
            } => write!(
                f,
                "`{value}` is not a valid `{{{name}}}` (one of: {}){}",
                allowed.join(", "),
                hint(*suggestion)
            ),
            Self::ZeroPageSize => f.write_str("the page size must be at least 1"),
        }
    }
}

/// A query refused before any request was sent, with every problem found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct QueryError {
    /// The collection path.
    pub collection: &'static str,
    /// What is wrong, in the order found.
    pub problems: Vec<QueryProblem>,
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problems.as_slice() {
            [one] => write!(f, "invalid query on {}: {one}", self.collection),
            many => {
                write!(
                    f,
                    "invalid query on {} ({} problems):",
                    self.collection,
                    many.len()
                )?;
                for problem in many {
                    write!(f, "\n  - {problem}")?;
                }
                Ok(())
            }
        }
    }
}
