//! Requests of the running server, by method: each reads its parameters, finds its document
//! and hands both to its feature module.

use std::collections::HashMap;

use lsp_server::ErrorCode;
use lsp_types::{Diagnostic, Url};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::document::Document;

/// Why a request got an error response.
#[derive(Debug)]
pub struct Failure {
    /// The JSON-RPC error code.
    pub code: ErrorCode,
    /// What was wrong.
    pub message: String,
}

/// The open documents and the diagnostics last published for them.
pub type Documents = HashMap<Url, Document>;

/// The result of request `method` with `params`.
///
/// # Errors
/// An unknown method, or parameters that do not fit the method.
pub fn answer(
    method: &str,
    params: Value,
    documents: &Documents,
    published: &HashMap<Url, Vec<Diagnostic>>,
) -> Result<Value, Failure> {
    let _ = (&params, documents, published);
    Err(Failure {
        code: ErrorCode::MethodNotFound,
        message: format!("`{method}` is not a request this server answers"),
    })
}

/// The parameters of `method`, or an InvalidParams failure naming what did not fit.
#[allow(dead_code)]
fn params<P: DeserializeOwned>(method: &str, params: Value) -> Result<P, Failure> {
    serde_json::from_value(params).map_err(|e| Failure {
        code: ErrorCode::InvalidParams,
        message: format!("invalid parameters of `{method}`: {e}"),
    })
}
