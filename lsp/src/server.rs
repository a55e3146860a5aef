//! The server loop: reads the client's messages, keeps the documents, lints them when they
//! settle, answers requests. One thread does the work; a second only reads the input.

use std::collections::HashMap;
use std::io::{self, BufReader, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, LogMessage,
    Notification as _, PublishDiagnostics,
};
use lsp_types::{
    Diagnostic, DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    InitializeResult, LogMessageParams, MessageType, PublishDiagnosticsParams, ServerInfo, Url,
};
use serde_json::Value;

use crate::debounce::Debounce;
use crate::document::Document;
use crate::transport::{self, Incoming};
use crate::{analysis, capabilities, diagnostics, requests};

/// How the server was told to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `exit` after `shutdown`, as LSP asks (exit status 0).
    Clean,
    /// `exit` without `shutdown`, or the input ended first (exit status 1, as LSP asks).
    WithoutShutdown,
}

/// The longest a document must stay unchanged before it is linted again (a document whose
/// lint is quick waits less: see [`Debounce`]).
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// Serves one client speaking LSP on `input` and `output` until it sends `exit` or closes the
/// input.
///
/// # Errors
/// Only when `output` cannot be written or `input` fails (the client is gone).
pub fn serve(input: impl Read + Send + 'static, output: impl Write) -> io::Result<Exit> {
    let incoming = spawn_reader(input);
    let mut server = Server {
        out: output,
        phase: Phase::Uninitialized,
        documents: HashMap::new(),
        published: HashMap::new(),
        elsewhere: HashMap::new(),
        debounce: Debounce::new(DEBOUNCE),
    };
    server.run(&incoming)
}

/// Frames read ahead of the one being handled, at most. A client writing faster than the
/// server answers then waits on its pipe instead of growing the server's queue without bound
/// (a stream of 16,000 requests once held all of them decoded at once).
const READ_AHEAD: usize = 64;

/// Reads frames on a thread of its own, so that waiting for input never delays a due lint.
fn spawn_reader(input: impl Read + Send + 'static) -> Receiver<io::Result<Incoming>> {
    let (sender, receiver) = mpsc::sync_channel(READ_AHEAD);
    std::thread::spawn(move || {
        let mut input = transport::Reader::new(BufReader::new(input));
        loop {
            let frame = input.read();
            let last = !matches!(frame, Ok(Some(_)));
            let sent = match frame {
                Ok(Some(incoming)) => sender.send(Ok(incoming)),
                Ok(None) => break,
                Err(e) => sender.send(Err(e)),
            };
            if last || sent.is_err() {
                break;
            }
        }
    });
    receiver
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Uninitialized,
    Running,
    ShutDown,
}

struct Server<W: Write> {
    out: W,
    phase: Phase,
    documents: HashMap<Url, Document>,
    /// The diagnostics last published for each document (hover shows their rule).
    published: HashMap<Url, Vec<Diagnostic>>,
    /// For each document, the other files its last lint published findings for (the
    /// description an overlay extends), to clear them when they are gone.
    elsewhere: HashMap<Url, Vec<Url>>,
    debounce: Debounce,
}

impl<W: Write> Server<W> {
    fn run(&mut self, incoming: &Receiver<io::Result<Incoming>>) -> io::Result<Exit> {
        loop {
            let next = match self.debounce.next() {
                Some(due) => incoming.recv_timeout(due.saturating_duration_since(Instant::now())),
                None => incoming.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match next {
                Ok(Ok(frame)) => {
                    if let Some(exit) = self.handle(frame)? {
                        return Ok(exit);
                    }
                }
                Ok(Err(e)) => return Err(e),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(Exit::WithoutShutdown),
            }
            for uri in self.debounce.take_due(Instant::now()) {
                self.lint(&uri)?;
            }
        }
    }

    fn handle(&mut self, frame: Incoming) -> io::Result<Option<Exit>> {
        match frame {
            Incoming::Malformed { code, message, id } => {
                transport::write_error(&mut self.out, &id, code, &message)?;
            }
            Incoming::Skipped {
                bytes,
                start,
                found,
            } => self.log_skipped(bytes, &start, found)?,
            Incoming::Message(Message::Request(request)) => self.request(request)?,
            Incoming::Message(Message::Notification(notification)) => {
                if notification.method == "exit" {
                    return Ok(Some(if self.phase == Phase::ShutDown {
                        Exit::Clean
                    } else {
                        Exit::WithoutShutdown
                    }));
                }
                if self.phase == Phase::Running {
                    self.notification(notification)?;
                }
            }
            // The server sends no requests, so no response is awaited.
            Incoming::Message(Message::Response(_)) => {}
        }
        Ok(None)
    }

    fn request(&mut self, request: Request) -> io::Result<()> {
        let Request { id, method, params } = request;
        let response = match (self.phase, method.as_str()) {
            (Phase::Uninitialized, "initialize") => {
                self.phase = Phase::Running;
                Response::new_ok(id, initialize_result())
            }
            (Phase::Uninitialized, _) => error(
                id,
                ErrorCode::ServerNotInitialized,
                "the server is not initialized: send `initialize` first".to_owned(),
            ),
            (Phase::Running, "initialize") => error(
                id,
                ErrorCode::InvalidRequest,
                "the server is already initialized".to_owned(),
            ),
            (Phase::Running, "shutdown") => {
                self.phase = Phase::ShutDown;
                Response::new_ok(id, Value::Null)
            }
            (Phase::Running, _) => self.answer(id, &method, params),
            (Phase::ShutDown, _) => error(
                id,
                ErrorCode::InvalidRequest,
                format!("`{method}` after `shutdown`: only `exit` is expected now"),
            ),
        };
        self.send(&Message::Response(response))
    }

    /// Answers a request of the running server; a bug in a feature answers with an error
    /// instead of ending the server.
    fn answer(&self, id: RequestId, method: &str, params: Value) -> Response {
        let documents = &self.documents;
        let published = &self.published;
        let answered = catch_unwind(AssertUnwindSafe(|| {
            requests::answer(method, params, documents, published)
        }));
        match answered {
            Ok(Ok(result)) => Response::new_ok(id, result),
            Ok(Err(failure)) => error(id, failure.code, failure.message),
            Err(_) => error(
                id,
                ErrorCode::InternalError,
                format!("`{method}` failed inside the server; the server keeps running"),
            ),
        }
    }

    fn notification(&mut self, notification: Notification) -> io::Result<()> {
        let Notification { method, params } = notification;
        match method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(params) {
                    let d = p.text_document;
                    let uri = d.uri.clone();
                    let doc = Document::new(d.uri, d.version, d.language_id, d.text);
                    self.documents.insert(uri.clone(), doc);
                    self.debounce.cancel(&uri);
                    self.lint(&uri)?;
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(params) {
                    let uri = p.text_document.uri;
                    if let Some(doc) = self.documents.get_mut(&uri) {
                        doc.apply(p.text_document.version, p.content_changes);
                        self.debounce.changed(uri, Instant::now());
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(params) {
                    let uri = p.text_document.uri;
                    self.documents.remove(&uri);
                    self.debounce.forget(&uri);
                    self.published.remove(&uri);
                    self.publish(uri, Vec::new(), None)?;
                }
            }
            // `initialized`, `didSave`, `$/cancelRequest`, `$/setTrace`...: nothing to do
            // (every request is answered before the next is read).
            _ => {}
        }
        Ok(())
    }

    /// Lints the document's current text and publishes the findings, then keeps the definition
    /// the lint loaded for the editor features (a text that does not load keeps the last one
    /// that did). A lint that fails inside the validator publishes nothing new and keeps the
    /// server running.
    fn lint(&mut self, uri: &Url) -> io::Result<()> {
        let Some(doc) = self.documents.get(uri) else {
            return Ok(());
        };
        let version = doc.version;
        // A large text's last definition (its tree and its text) goes before the lint builds
        // the next one, so that the two are never held at once; completion keeps what it
        // offered from it (`Document::vocabulary`).
        if doc.text().len() > analysis::SMALL_TEXT {
            doc.forget_definition();
        }
        let started = Instant::now();
        let Ok(linted) = catch_unwind(AssertUnwindSafe(|| diagnostics::lint(doc))) else {
            return Ok(());
        };
        self.debounce.linted(uri, started.elapsed());
        if let Some(definition) = linted.definition {
            doc.remember(version, Arc::new(definition));
        }
        self.published.insert(uri.clone(), linted.findings.clone());
        self.publish(uri.clone(), linted.findings, Some(version))?;
        self.publish_elsewhere(uri, linted.elsewhere)
    }

    /// Publishes the findings a document's lint located in other files (the vendor's
    /// description an overlay extends), and clears those it published there before and no
    /// longer finds. A file open in the editor keeps its own lint's findings.
    fn publish_elsewhere(
        &mut self,
        uri: &Url,
        elsewhere: Vec<(Url, Vec<Diagnostic>)>,
    ) -> io::Result<()> {
        let now: Vec<Url> = elsewhere.iter().map(|(u, _)| u.clone()).collect();
        let before = self
            .elsewhere
            .insert(uri.clone(), now.clone())
            .unwrap_or_default();
        for gone in before.into_iter().filter(|u| !now.contains(u)) {
            if !self.documents.contains_key(&gone) {
                self.publish(gone, Vec::new(), None)?;
            }
        }
        for (file, found) in elsewhere {
            if !self.documents.contains_key(&file) {
                self.publish(file, found, None)?;
            }
        }
        Ok(())
    }

    fn publish(
        &mut self,
        uri: Url,
        diagnostics: Vec<Diagnostic>,
        version: Option<i32>,
    ) -> io::Result<()> {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.send(&Message::Notification(Notification::new(
            PublishDiagnostics::METHOD.to_owned(),
            params,
        )))
    }

    /// Tells the client's log (`window/logMessage`, a warning) what input was skipped to
    /// find the next frame.
    fn log_skipped(&mut self, bytes: u64, start: &str, found: bool) -> io::Result<()> {
        let until = if found {
            "up to the next Content-Length header"
        } else {
            "up to the end of the input"
        };
        let params = LogMessageParams {
            typ: MessageType::WARNING,
            message: format!("syncdef: skipped {bytes} bytes that were no frame, {until}: {start}"),
        };
        self.send(&Message::Notification(Notification::new(
            LogMessage::METHOD.to_owned(),
            params,
        )))
    }

    fn send(&mut self, message: &Message) -> io::Result<()> {
        transport::write(&mut self.out, message)
    }
}

fn initialize_result() -> InitializeResult {
    InitializeResult {
        capabilities: capabilities::server(),
        server_info: Some(ServerInfo {
            name: "syncdef".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    }
}

fn error(id: RequestId, code: ErrorCode, message: String) -> Response {
    Response::new_err(id, code as i32, message)
}
