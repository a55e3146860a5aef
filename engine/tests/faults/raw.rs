//! A raw HTTP/1.1 server on loopback for the faults wiremock cannot make: a connection that
//! hangs after reading the request, and one reset after reading it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the server does with the next connection's request.
#[derive(Clone, Copy, Debug)]
pub enum Fault {
    /// Read the request, then never answer.
    Hang,
    /// Read the request, then reset the connection (RST, not FIN).
    Reset,
}

/// Serves faults in order, then answers every later request with a success.
pub struct RawServer {
    port: u16,
    requests: Arc<Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl RawServer {
    pub async fn start(faults: Vec<Fault>) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        let task = tokio::spawn(async move {
            let mut faults = faults.into_iter();
            while let Ok((stream, _)) = listener.accept().await {
                let fault = faults.next();
                let seen = Arc::clone(&seen);
                tokio::spawn(serve(stream, fault, seen));
            }
        });
        RawServer {
            port,
            requests,
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The request heads received, in order.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(mut stream: TcpStream, fault: Option<Fault>, seen: Arc<Mutex<Vec<String>>>) {
    let Some(head) = read_request(&mut stream).await else {
        return;
    };
    if let Ok(mut s) = seen.lock() {
        s.push(head);
    }
    match fault {
        Some(Fault::Hang) => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
        Some(Fault::Reset) => {
            // Linger 0 turns the close into a reset.
            let _ = stream.set_zero_linger();
            drop(stream);
        }
        None => {
            let body = r#"{"id": 7, "success": true, "errors": [], "Customer": {"Id": "7", "SyncToken": "0"}}"#;
            let answer = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
            let _ = stream.shutdown().await;
        }
    }
}

/// The request head (and its body read past), or `None` when the client went away.
async fn read_request(stream: &mut TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let end = loop {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
    let length = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())
                .flatten()
        })
        .unwrap_or(0);
    while buf.len() < end + length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Some(head)
}
