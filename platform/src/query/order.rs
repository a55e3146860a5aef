//! `$orderby` terms.

use std::fmt;

/// Sort direction; ascending is the platform's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// `asc`
    #[default]
    Asc,
    /// `desc`
    Desc,
}

/// One term of `$orderby`: a property and a direction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderBy {
    /// Property name.
    pub property: String,
    /// Direction.
    pub direction: Direction,
}

impl fmt::Display for OrderBy {
    /// `name asc` / `name desc`: the direction is always written, so the text never depends
    /// on the server's default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let direction = match self.direction {
            Direction::Asc => "asc",
            Direction::Desc => "desc",
        };
        write!(f, "{} {direction}", self.property)
    }
}
