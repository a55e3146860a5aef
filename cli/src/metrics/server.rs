//! The HTTP side of `--metrics`: `GET /metrics` (the registry in the text exposition format)
//! and `GET /healthz` (200 or 503 with the reason), served by hyper on a thread and runtime
//! of their own, so that a worker stuck in a request still gets its 503.

use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{ALLOW, CONTENT_TYPE, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;

use super::Metrics;
use crate::failure::Failure;

/// What Prometheus is told the exposition is (`prometheus-client` writes `OpenMetrics` text).
const EXPOSITION: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Listens on `address` now (so that a port in use is a usage error before the sync starts),
/// then serves `metrics` from a thread of its own until the process ends. Returns the address
/// listened on (the port chosen when `--metrics` asked for port 0).
pub fn start(address: SocketAddr, metrics: Arc<Metrics>) -> Result<SocketAddr, Failure> {
    let listener = TcpListener::bind(address)
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| {
            Failure::usage(format!(
                "--metrics {address}: cannot listen there ({e}); give a free address and port, \
                 or port 0 for any free port"
            ))
        })?;
    let bound = listener.local_addr().map_err(|e| {
        Failure::usage(format!(
            "--metrics {address}: cannot read the address listened on ({e})"
        ))
    })?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .map_err(|e| Failure::usage(format!("cannot start the metrics server: {e}")))?;
    std::thread::Builder::new()
        .name("metrics".to_owned())
        .spawn(move || runtime.block_on(accept(listener, metrics)))
        .map_err(|e| Failure::usage(format!("cannot start the metrics server: {e}")))?;
    // On a terminal, `sync` draws bars and logs nothing: the address is said there anyway.
    if tracing::dispatcher::has_been_set() {
        tracing::info!(address = %bound, "serving metrics on http://{bound}/metrics and health on /healthz");
    } else {
        eprintln!("syncdef: serving metrics on http://{bound}/metrics and health on /healthz");
    }
    Ok(bound)
}

/// Accepts connections until the process ends; a connection that fails ends alone.
async fn accept(listener: TcpListener, metrics: Arc<Metrics>) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!(%error, "the metrics server cannot listen");
            return;
        }
    };
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) => {
                // Out of file descriptors and the like: the next accept may work.
                tracing::warn!(%error, "the metrics server could not accept a connection");
                continue;
            }
        };
        let metrics = Arc::clone(&metrics);
        tokio::spawn(async move {
            let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                let answer = answer(&metrics, request.method(), request.uri().path());
                async move { Ok::<_, Infallible>(answer) }
            });
            if let Err(error) = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await
            {
                tracing::debug!(%error, "a metrics connection ended early");
            }
        });
    }
}

/// The answer to `method path`.
fn answer(metrics: &Metrics, method: &Method, path: &str) -> Response<Full<Bytes>> {
    if method != Method::GET && method != Method::HEAD {
        let mut response = text(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET and HEAD\n".to_owned(),
        );
        response
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    match path {
        "/metrics" => match metrics.text() {
            Ok(body) => {
                let mut response = text(StatusCode::OK, body);
                response
                    .headers_mut()
                    .insert(CONTENT_TYPE, HeaderValue::from_static(EXPOSITION));
                response
            }
            Err(error) => text(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the metrics could not be written: {error}\n"),
            ),
        },
        "/healthz" => match metrics.health.verdict() {
            Ok(doing) => text(StatusCode::OK, format!("ok: {doing}\n")),
            Err(why) => text(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("unhealthy: {why}\n"),
            ),
        },
        _ => text(
            StatusCode::NOT_FOUND,
            "not found: this server has /metrics and /healthz\n".to_owned(),
        ),
    }
}

fn text(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
