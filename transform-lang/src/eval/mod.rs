//! The evaluator: walks a compiled template against one record.

mod array;
mod bulk;
mod call;
mod context;
mod limits;
mod lookin;
mod loops;
mod object;
mod removal;
mod write;

pub(crate) use call::Fail;
pub(crate) use context::{Alias, Cx, Frame, LoopFrame};
pub(crate) use object::eval_node;
pub(crate) use write::{Unobserved, write_node};
