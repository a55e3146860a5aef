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

mod analysis;
pub mod capabilities;
mod code_actions;
mod completion;
mod cursor;
pub mod debounce;
mod definition;
pub mod diagnostics;
pub mod document;
mod hover;
mod locate;
mod open_frame;
pub mod position;
mod references;
mod requests;
mod server;
mod suppression;
mod symbols;
mod template_fixes;
pub mod transport;
pub mod vocabulary;

pub use server::{DEBOUNCE, Exit, serve};
