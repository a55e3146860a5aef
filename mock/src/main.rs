//! `syncdef-mock`: a billing platform and a QuickBooks Online company on loopback, for a first
//! sync without accounts anywhere (docs/getting-started.md).

use std::path::PathBuf;
use std::process::ExitCode;

use syncdef_mock::platform::{Platform, Records};
use syncdef_mock::quickbooks::{Limits, QuickBooks};
use syncdef_mock::{PLATFORM_PORT, QUICKBOOKS_PORT, loopback};

const USAGE: &str = "usage: syncdef-mock [--records DIR] [--platform-port N] [--quickbooks-port N]
                    [--limit REQUESTS/SECONDS [--concurrency N] [--latency-ms MS]]

Serves the platform records of DIR (default: the repository's catalog/records) as a billing
platform on 127.0.0.1:8700, and an empty QuickBooks Online company on 127.0.0.1:8701, until
Ctrl-C. A record edited in DIR meanwhile is served as edited at the next request.

With --limit each company (realm) admits at most REQUESTS in any SECONDS and --concurrency
(default 10) at once, answers 429 over them, answers every request after --latency-ms (default
0), and GET /stats on the QuickBooks port tells what each company admitted and refused.";

struct Options {
    records: PathBuf,
    platform_port: u16,
    quickbooks_port: u16,
    limit: Option<String>,
    concurrency: String,
    latency_ms: String,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        // The shipped records, wherever the command is run from.
        records: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../catalog/records")),
        platform_port: PLATFORM_PORT,
        quickbooks_port: QUICKBOOKS_PORT,
        limit: None,
        concurrency: "10".to_owned(),
        latency_ms: "0".to_owned(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            return Err(String::new());
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let port = || {
            value
                .parse::<u16>()
                .map_err(|_| format!("{flag} takes a port number, not `{value}`"))
        };
        match flag.as_str() {
            "--records" => options.records = PathBuf::from(&value),
            "--platform-port" => options.platform_port = port()?,
            "--quickbooks-port" => options.quickbooks_port = port()?,
            "--limit" => options.limit = Some(value),
            "--concurrency" => options.concurrency = value,
            "--latency-ms" => options.latency_ms = value,
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(options)
}

fn listener(port: u16, what: &str) -> Result<std::net::TcpListener, String> {
    loopback(port).map_err(|e| {
        format!("cannot listen on 127.0.0.1:{port} for the {what}: {e}; choose another port with --{what}-port N")
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            if message.is_empty() {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            eprintln!("syncdef-mock: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let started = async {
        let limits = options
            .limit
            .as_deref()
            .map(|rate| Limits::parse(rate, &options.concurrency, &options.latency_ms))
            .transpose()?;
        let records = Records::load(&options.records).map_err(|e| e.to_string())?;
        let platform_listener = listener(options.platform_port, "platform")?;
        let quickbooks_listener = listener(options.quickbooks_port, "quickbooks")?;
        // Records edited while it runs are served as edited: no restart, and the company's
        // books stay as the syncs left them.
        let platform = Platform::watch(&options.records, platform_listener)
            .await
            .map_err(|e| e.to_string())?;
        let quickbooks = match limits {
            Some(limits) => QuickBooks::start_limited(quickbooks_listener, limits).await,
            None => QuickBooks::start(quickbooks_listener).await,
        };
        Ok::<_, String>((records, platform, quickbooks))
    };
    let (records, platform, quickbooks) = match started.await {
        Ok(started) => started,
        Err(message) => {
            eprintln!("syncdef-mock: {message}");
            return ExitCode::from(2);
        }
    };
    println!(
        "billing platform: {} ({} accounts, {} invoices from {})",
        platform.uri(),
        records.count("accounts"),
        records.count("invoices"),
        options.records.display()
    );
    println!(
        "QuickBooks Online: {} (every company id has its own books)",
        quickbooks.base_url("<company id>")
    );
    println!("Ctrl-C to stop; the company forgets everything when it stops.");
    if let Err(e) = tokio::signal::ctrl_c().await {
        eprintln!("syncdef-mock: cannot wait for Ctrl-C: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
