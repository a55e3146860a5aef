//! A raw HTTP/1.1 server on loopback for the faults wiremock cannot make: a connection that
//! hangs after reading the request, one reset after reading it, and a connection that never
//! opens ([`Unopened`]).

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
    /// Answer 429 Too Many Requests with `Retry-After: 0`.
    Throttle,
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
        RawServer::serve(listener, faults)
    }

    fn serve(listener: TcpListener, faults: Vec<Fault>) -> RawServer {
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

/// A listening port whose connections never open: its accept queue is full, so Linux drops
/// further SYNs (it does not refuse them) and `connect` waits until the client gives up. Nothing
/// can be sent on such a connection, which is what a connect timeout means.
pub struct Unopened {
    listener: TcpListener,
    /// Client ends of the connections that fill the queue (kept open so that they stay queued).
    fillers: Vec<std::net::TcpStream>,
}

impl Unopened {
    pub fn start() -> Unopened {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind("127.0.0.1:0".parse().expect("an address"))
            .expect("bind");
        // The kernel queues backlog + 1 established connections that nobody accepted.
        let listener = socket.listen(1).expect("listen");
        let addr = listener.local_addr().expect("addr");
        let mut fillers = Vec::new();
        // Connect until one hangs: that one proves the queue is full (and is abandoned).
        for _ in 0..8 {
            match std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(100)) {
                Ok(stream) => fillers.push(stream),
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                    return Unopened { listener, fillers };
                }
                Err(e) => panic!("filling the accept queue: {e}"),
            }
        }
        panic!(
            "8 connections were accepted by a listener that never accepts: the kernel does not bound its accept queue, so connect cannot be made to hang this way"
        );
    }

    pub fn url(&self) -> String {
        format!(
            "http://127.0.0.1:{}",
            self.listener.local_addr().expect("addr").port()
        )
    }

    /// Starts accepting: the queued connections are taken off (before this returns, so the
    /// next `connect` is accepted at once), then every request is answered with a success.
    pub async fn open(self) -> RawServer {
        for _ in &self.fillers {
            let _ = self.listener.accept().await.expect("a queued connection");
        }
        RawServer::serve(self.listener, Vec::new())
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
        Some(Fault::Throttle) => {
            let answer = "HTTP/1.1 429 Too Many Requests\r\nretry-after: 0\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
            let _ = stream.write_all(answer.as_bytes()).await;
            let _ = stream.shutdown().await;
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
