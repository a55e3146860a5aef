//! Reading a named field from a JSON answer: one reading with the linter's, in
//! [`syncdef_definitions::answer`].

pub(crate) use syncdef_definitions::answer::{field, scalar_text};
