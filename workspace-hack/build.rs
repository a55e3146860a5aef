//! Empty: Cargo applies a crate's `[build-dependencies]` (the features build scripts and
//! procedural macros are built with) only to a crate that has a build script.

fn main() {}
