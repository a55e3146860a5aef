//! `$filter` expressions: built in Rust, checked against a collection, rendered as OData.

use std::fmt;

use super::literal::Literal;

/// A comparison operator of OData.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    /// `eq`
    Eq,
    /// `ne`
    Ne,
    /// `gt`
    Gt,
    /// `ge`
    Ge,
    /// `lt`
    Lt,
    /// `le`
    Le,
}

impl CompareOp {
    /// The OData keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Self::Eq => "eq",
            Self::Ne => "ne",
            Self::Gt => "gt",
            Self::Ge => "ge",
            Self::Lt => "lt",
            Self::Le => "le",
        }
    }

    /// Whether the operator compares order (and so needs an ordered type).
    pub fn is_ordering(self) -> bool {
        matches!(self, Self::Gt | Self::Ge | Self::Lt | Self::Le)
    }
}

/// A string function of OData.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFunction {
    /// `contains(property, 'text')`
    Contains,
    /// `startswith(property, 'text')`
    StartsWith,
    /// `endswith(property, 'text')`
    EndsWith,
}

impl TextFunction {
    /// The OData function name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Contains => "contains",
            Self::StartsWith => "startswith",
            Self::EndsWith => "endswith",
        }
    }
}

/// A `$filter` expression.
///
/// ```
/// use syncdef_platform::query::{Date, Filter};
///
/// let since = Date::new(2024, 1, 31).expect("valid date");
/// let filter = Filter::gt("updatedAt", since).and(Filter::contains("name", "O'Brien"));
/// assert_eq!(
///     filter.to_string(),
///     "updatedAt gt datetime'2024-01-31' and contains(name, 'O''Brien')"
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    /// `property op literal`
    Compare {
        /// Property name.
        property: String,
        /// Operator.
        op: CompareOp,
        /// Right-hand side.
        value: Literal,
    },
    /// `function(property, 'text')`
    Text {
        /// Function.
        function: TextFunction,
        /// Property name.
        property: String,
        /// Text searched for.
        value: String,
    },
    /// `left and right`
    And(Box<Filter>, Box<Filter>),
    /// `left or right`
    Or(Box<Filter>, Box<Filter>),
    /// `not inner`
    Not(Box<Filter>),
}

impl Filter {
    fn compare(property: impl Into<String>, op: CompareOp, value: impl Into<Literal>) -> Self {
        Self::Compare {
            property: property.into(),
            op,
            value: value.into(),
        }
    }

    fn text(function: TextFunction, property: impl Into<String>, value: impl Into<String>) -> Self {
        Self::Text {
            function,
            property: property.into(),
            value: value.into(),
        }
    }

    /// `property eq value`
    pub fn eq(property: impl Into<String>, value: impl Into<Literal>) -> Self {
        Self::compare(property, CompareOp::Eq, value)
    }

    /// `property ne value`
    pub fn ne(property: impl Into<String>, value: impl Into<Literal>) -> Self {
        Self::compare(property, CompareOp::Ne, value)
    }

    /// `property gt value`
    pub fn gt(property: impl Into<String>, value: impl Into<Literal>) -> Self {
        Self::compare(property, CompareOp::Gt, value)
    }

    /// `property ge value`
    pub fn ge(property: impl Into<String>, value: impl Into<Literal>) -> Self {
        Self::compare(property, CompareOp::Ge, value)
    }

    /// `property lt value`
    pub fn lt(property: impl Into<String>, value: impl Into<Literal>) -> Self {
        Self::compare(property, CompareOp::Lt, value)
    }

    /// `property le value`
    pub fn le(property: impl Into<String>, value: impl Into<Literal>) -> Self {
        Self::compare(property, CompareOp::Le, value)
    }

    /// `contains(property, 'text')`
    pub fn contains(property: impl Into<String>, text: impl Into<String>) -> Self {
        Self::text(TextFunction::Contains, property, text)
    }

    /// `startswith(property, 'text')`
    pub fn starts_with(property: impl Into<String>, text: impl Into<String>) -> Self {
        Self::text(TextFunction::StartsWith, property, text)
    }

    /// `endswith(property, 'text')`
    pub fn ends_with(property: impl Into<String>, text: impl Into<String>) -> Self {
        Self::text(TextFunction::EndsWith, property, text)
    }

    /// `self and other`
    #[must_use]
    pub fn and(self, other: Filter) -> Self {
        Self::And(Box::new(self), Box::new(other))
    }

    /// `self or other`
    #[must_use]
    pub fn or(self, other: Filter) -> Self {
        Self::Or(Box::new(self), Box::new(other))
    }

    /// `not inner`
    pub fn negate(inner: Filter) -> Self {
        Self::Not(Box::new(inner))
    }

    /// Binding strength in OData: `not` > `and` > `or`; leaves bind tightest.
    fn precedence(&self) -> u8 {
        match self {
            Self::Or(..) => 1,
            Self::And(..) => 2,
            Self::Not(_) | Self::Compare { .. } | Self::Text { .. } => 3,
        }
    }

    fn fmt_operand(&self, f: &mut fmt::Formatter<'_>, min: u8) -> fmt::Result {
        if self.precedence() < min {
            write!(f, "({self})")
        } else {
            write!(f, "{self}")
        }
    }
}

impl std::ops::Not for Filter {
    type Output = Filter;

    fn not(self) -> Filter {
        Filter::negate(self)
    }
}

impl fmt::Display for Filter {
    /// The OData text, with the fewest parentheses that keep the tree's meaning.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Compare {
                property,
                op,
                value,
            } => write!(f, "{property} {} {value}", op.keyword()),
            Self::Text {
                function,
                property,
                value,
            } => write!(
                f,
                "{}({property}, {})",
                function.name(),
                super::literal::Quoted(value)
            ),
            Self::And(left, right) => {
                left.fmt_operand(f, 2)?;
                f.write_str(" and ")?;
                // `and` is associative, but the right operand is wrapped when it is itself an
                // `and` so that the rendered text keeps the tree's shape.
                right.fmt_operand(f, 3)
            }
            Self::Or(left, right) => {
                left.fmt_operand(f, 1)?;
                f.write_str(" or ")?;
                right.fmt_operand(f, 2)
            }
            // A function call is self-delimiting; anything else is wrapped, because OData
            // gives `not` a higher precedence than `eq`, so `not a eq 1` would mean `(not a) eq 1`.
            Self::Not(inner) => match inner.as_ref() {
                Self::Text { .. } => write!(f, "not {inner}"),
                _ => write!(f, "not ({inner})"),
            },
        }
    }
}
