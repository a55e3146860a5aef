//! Test support: the client, a server on in-process pipes, and the catalog's definitions.
#![allow(
    dead_code,
    reason = "each test binary uses a different part of the support"
)]

pub mod client;

use std::path::PathBuf;

#[allow(
    unused_imports,
    reason = "each test binary imports a different part of the support"
)]
pub use client::{Client, at, find, lsp_range, position_of};

/// A server on in-process pipes, served by the library on a thread.
pub fn start() -> Client {
    let (server_in, client_out) = std::io::pipe().expect("a pipe");
    let (client_in, server_out) = std::io::pipe().expect("a pipe");
    std::thread::spawn(move || syncdef_lsp::serve(server_in, server_out));
    Client::new(client_out, client_in)
}

/// A shipped definition: its path, `file://` URI and text.
pub fn catalog(relative: &str) -> (PathBuf, String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../catalog")
        .join(relative);
    let path = std::fs::canonicalize(&path).expect("the catalog definition exists");
    let text = std::fs::read_to_string(&path).expect("readable");
    let uri = format!("file://{}", path.display());
    (path, uri, text)
}
