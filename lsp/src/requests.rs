//! Requests of the running server, by method: each reads its parameters, finds its document
//! and hands both to its feature module.

use std::collections::HashMap;

use lsp_server::ErrorCode;
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, References,
    Request as _,
};
use lsp_types::{
    CodeActionParams, CompletionParams, Diagnostic, DocumentSymbolParams, DocumentSymbolResponse,
    GotoDefinitionParams, HoverParams, ReferenceParams, Url,
};
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

/// The result of request `method` with `params`; `null` for a document that is not open.
///
/// # Errors
/// An unknown method, or parameters that do not fit the method.
pub fn answer(
    method: &str,
    params: Value,
    documents: &Documents,
    published: &HashMap<Url, Vec<Diagnostic>>,
) -> Result<Value, Failure> {
    let result = match method {
        Completion::METHOD => {
            let p: CompletionParams = read(method, params)?;
            let at = p.text_document_position;
            open(documents, &at.text_document.uri)
                .map(|doc| to_json(crate::completion::complete(doc, at.position)))
        }
        HoverRequest::METHOD => {
            let p: HoverParams = read(method, params)?;
            let at = p.text_document_position_params;
            let uri = &at.text_document.uri;
            let found = published.get(uri).map_or(&[][..], Vec::as_slice);
            open(documents, uri)
                .and_then(|doc| crate::hover::hover(doc, at.position, found))
                .map(to_json)
        }
        References::METHOD => {
            let p: ReferenceParams = read(method, params)?;
            let at = p.text_document_position;
            open(documents, &at.text_document.uri)
                .and_then(|doc| {
                    crate::references::references(doc, at.position, p.context.include_declaration)
                })
                .map(to_json)
        }
        GotoDefinition::METHOD => {
            let p: GotoDefinitionParams = read(method, params)?;
            let at = p.text_document_position_params;
            open(documents, &at.text_document.uri)
                .and_then(|doc| crate::definition::definition(doc, at.position))
                .map(to_json)
        }
        DocumentSymbolRequest::METHOD => {
            let p: DocumentSymbolParams = read(method, params)?;
            open(documents, &p.text_document.uri)
                .map(|doc| to_json(DocumentSymbolResponse::Nested(crate::symbols::symbols(doc))))
        }
        CodeActionRequest::METHOD => {
            let p: CodeActionParams = read(method, params)?;
            open(documents, &p.text_document.uri).map(|doc| {
                to_json(crate::code_actions::code_actions(
                    doc,
                    &p.context.diagnostics,
                ))
            })
        }
        _ => {
            return Err(Failure {
                code: ErrorCode::MethodNotFound,
                message: format!("`{method}` is not a request this server answers"),
            });
        }
    };
    Ok(result.unwrap_or(Value::Null))
}

fn open<'d>(documents: &'d Documents, uri: &Url) -> Option<&'d Document> {
    documents.get(uri)
}

/// LSP types always serialize; `null` is the answer should one ever not.
fn to_json(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The parameters of `method`, or an `InvalidParams` failure naming what did not fit.
fn read<P: DeserializeOwned>(method: &str, params: Value) -> Result<P, Failure> {
    serde_json::from_value(params).map_err(|e| Failure {
        code: ErrorCode::InvalidParams,
        message: format!("invalid parameters of `{method}`: {e}"),
    })
}
