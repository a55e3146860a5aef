//! Local stand-ins for the two systems a sync talks to, so that a first push and a first
//! sync run on one machine from the files shipped in the repository:
//!
//! - [`platform::Platform`]: a billing platform serving the records of `catalog/records`;
//! - [`quickbooks::QuickBooks`]: a QuickBooks Online company, empty at start, answering the
//!   catalog's QuickBooks definition.
//!
//! Both listen on loopback only (the engine and the platform client accept plain http there
//! and nowhere else). `cargo run -p syncdef-mock` starts both; docs/getting-started.md walks
//! through a first sync against them. They are test doubles: enough of each API for the
//! catalog's QuickBooks definition and `syncdef sync`, nothing more.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod platform;
pub mod postgres;
pub mod quickbooks;
pub mod throttle;
pub mod watched;

use std::net::TcpListener;

/// The platform's port when none is given; docs/getting-started.md uses it.
pub const PLATFORM_PORT: u16 = 8700;

/// The QuickBooks company's port when none is given; docs/getting-started.md uses it.
pub const QUICKBOOKS_PORT: u16 = 8701;

/// Binds `127.0.0.1:port` (0 picks a free port), ready for [`platform::Platform::start`] or
/// [`quickbooks::QuickBooks::start`].
pub fn loopback(port: u16) -> std::io::Result<TcpListener> {
    TcpListener::bind(("127.0.0.1", port))
}
