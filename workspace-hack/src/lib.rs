//! No code: the dependencies in `Cargo.toml` are the crate. They make every package set of the
//! workspace build each third-party crate with the same features, so that `cargo build`,
//! `cargo run`, `cargo test` and the examples share one build (docs/architecture.md,
//! "One build").
