//! A response as the engine keeps it: its status and headers, its body parsed as each reader
//! needs it, and the audit trail's masked view of that body, in one shared allocation. Every
//! push receives at least one answer, reads it, and records it; one allocation serves all
//! three.

use std::sync::OnceLock;

use bytes::Bytes;
use serde_json::Value as Json;

use crate::extract::ResponseBody;
use crate::transport::HttpResponse;

pub(crate) struct Received {
    /// Status and headers; its `body` is empty (moved to `body`).
    pub response: HttpResponse,
    pub body: ResponseBody,
    /// The body as the audit trail shows it (masked), made when first looked at.
    pub shown_body: OnceLock<Json>,
}

impl Received {
    pub fn new(mut response: HttpResponse) -> Self {
        let body = ResponseBody::new(std::mem::replace(&mut response.body, Bytes::new()));
        Received {
            response,
            body,
            shown_body: OnceLock::new(),
        }
    }
}
