//! The syncdef language server: `syncdef lint`'s findings, completion, hover, go to definition,
//! document symbols and quick fixes for synchronization definitions (YAML and JSON), over
//! LSP 3.17 on any byte stream (`syncdef lsp` serves standard input and output).
//!
//! ```no_run
//! let exit = syncdef_lsp::serve(std::io::stdin(), std::io::stdout())?;
//! std::process::exit(if exit == syncdef_lsp::Exit::Clean { 0 } else { 1 });
//! # Ok::<(), std::io::Error>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod capabilities;
pub mod debounce;
pub mod diagnostics;
pub mod document;
pub mod position;
mod requests;
mod server;
pub mod transport;

pub use server::{DEBOUNCE, Exit, serve};
