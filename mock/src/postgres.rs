//! [`PgServer`]: a real PostgreSQL server for tests, in a temporary directory.
//!
//! Tests of the PostgreSQL state and of several workers on one queue need the real server
//! (`FOR UPDATE SKIP LOCKED`, transactions, advisory locks); a fake would only test itself.
//! The server runs from Debian's binaries (`initdb`, `pg_ctl`, `createdb`), listens only on a
//! unix socket inside its directory, trusts local connections, and is stopped and removed when
//! the value is dropped. Without the binaries, [`PgServer::start`] fails with how to install
//! them: the tests that need it fail rather than pass without testing anything.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

/// The superuser `initdb` creates; connections as it are trusted on the socket.
const USER: &str = "syncdef";

/// The user the server runs as when the tests run as root (PostgreSQL refuses root).
const UNPRIVILEGED: &str = "nobody";

/// A running PostgreSQL server, stopped and removed on drop.
#[derive(Debug)]
pub struct PgServer {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_root: bool,
    databases: AtomicU32,
    /// Whether it also listens on loopback TCP with TLS (`start_with_tls`).
    tls: bool,
}

impl PgServer {
    /// Creates a cluster in a new temporary directory and starts it.
    ///
    /// # Errors
    /// What is missing or what failed, with how to fix it (install Debian's `postgresql`).
    pub fn start() -> Result<Self, String> {
        Self::start_as(None)
    }

    /// A server shared by the tests of this process that run at the same time, started by the
    /// first of them and stopped when the last lets go of it. For tests that only need a
    /// database of their own ([`PgServer::database`]): creating a cluster costs a second and a
    /// half of CPU, a database a tenth of that. A test that stops, restarts or reconfigures its
    /// server, or reads its log for what it did, starts its own.
    ///
    /// # Errors
    /// As [`PgServer::start`].
    pub fn shared() -> Result<Arc<Self>, String> {
        static SHARED: Mutex<Weak<PgServer>> = Mutex::new(Weak::new());
        // A test that panicked while starting one left nothing half-made behind the lock.
        let mut slot = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(server) = slot.upgrade() {
            return Ok(server);
        }
        let server = Arc::new(Self::start()?);
        *slot = Arc::downgrade(&server);
        Ok(server)
    }

    /// Like [`PgServer::start`], and also listening on `127.0.0.1` with TLS, presenting the
    /// PEM certificate `certificate` and its private key `key` (a certificate for
    /// `localhost`): [`PgServer::tcp_database`] gives URLs that reach it.
    ///
    /// # Errors
    /// As [`PgServer::start`]; also when the files cannot be written.
    pub fn start_with_tls(certificate: &str, key: &str) -> Result<Self, String> {
        Self::start_as(Some((certificate, key)))
    }

    fn start_as(tls: Option<(&str, &str)>) -> Result<Self, String> {
        let on_path = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .unwrap_or_default();
        let bin = server_bin_dir(&on_path, Path::new(DEBIAN_ROOT))?;
        let dir = private_dir()?;
        let as_root = running_as_root();
        let port = free_port()?;
        let server = PgServer {
            bin,
            dir,
            port,
            as_root,
            databases: AtomicU32::new(0),
            tls: tls.is_some(),
        };
        if let Some((certificate, key)) = tls {
            server.write_private("server.crt", certificate)?;
            server.write_private("server.key", key)?;
        }
        if as_root {
            run(Command::new("chown")
                .arg("-R")
                .arg(UNPRIVILEGED)
                .arg(&server.dir))?;
        }
        let data = server.dir.join("data");
        server.server_command("initdb", |c| {
            c.arg("-D")
                .arg(&data)
                .args(["-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"])
        })?;
        if server.tls {
            Self::tls_only_over_tcp(&data)?;
        }
        server.run_server()?;
        Ok(server)
    }

    /// Starts the cluster's server process.
    fn run_server(&self) -> Result<(), String> {
        let mut options = format!("-p {} -k {} -c fsync=off", self.port, self.dir.display());
        if self.tls {
            let (crt, key) = (self.dir.join("server.crt"), self.dir.join("server.key"));
            options.push_str(&format!(
                " -c listen_addresses=127.0.0.1 -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
                crt.display(),
                key.display()
            ));
        } else {
            options.push_str(" -c listen_addresses=''");
        }
        let (data, log) = (self.dir.join("data"), self.dir.join("server.log"));
        self.server_command("pg_ctl", |c| {
            c.arg("-D")
                .arg(&data)
                .args(["-o", &options, "-l"])
                .arg(&log)
                .args(["-w", "start"])
        })?;
        Ok(())
    }

    /// Stops the server as an operator's restart does (`pg_ctl stop -m fast`: every session
    /// is ended, open transactions roll back), leaves it down for `down`, and starts it again
    /// with the same data: what clients see of a restart or a failover.
    ///
    /// # Errors
    /// `pg_ctl`'s output when stopping or starting fails.
    pub fn restart(&self, down: std::time::Duration) -> Result<(), String> {
        let data = self.dir.join("data");
        self.server_command("pg_ctl", |c| {
            c.arg("-D").arg(&data).args(["-m", "fast", "-w", "stop"])
        })?;
        std::thread::sleep(down);
        self.run_server()
    }

    /// Creates a new, empty database and returns its `postgres://` URL (over the unix socket).
    ///
    /// # Errors
    /// `createdb`'s output when it fails.
    pub fn database(&self) -> Result<String, String> {
        let name = self.create_database()?;
        Ok(self.url(&name))
    }

    /// Creates a new, empty database; its name.
    fn create_database(&self) -> Result<String, String> {
        let name = format!("test{}", self.databases.fetch_add(1, Ordering::SeqCst));
        self.server_command("createdb", |c| {
            c.arg("-h")
                .arg(&self.dir)
                .args(["-p", &self.port.to_string(), "-U", USER, &name])
        })?;
        Ok(name)
    }

    /// Creates a new, empty database and returns its URL over loopback TCP
    /// (`postgres://syncdef@localhost:PORT/NAME`), for a server started with TLS.
    ///
    /// # Errors
    /// `createdb`'s output when it fails.
    pub fn tcp_database(&self) -> Result<String, String> {
        let name = self.create_database()?;
        Ok(format!("postgres://{USER}@localhost:{}/{name}", self.port))
    }

    /// Makes every TCP connection use TLS (`hostssl` instead of `host` in `pg_hba.conf`): a
    /// client that connects at all over TCP spoke TLS.
    fn tls_only_over_tcp(data: &Path) -> Result<(), String> {
        let path = data.join("pg_hba.conf");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let rules: String = text
            .lines()
            .map(|line| match line.strip_prefix("host ") {
                Some(rest) => format!("hostssl {rest}\n"),
                None => format!("{line}\n"),
            })
            .collect();
        std::fs::write(&path, rules).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Writes `text` to `name` in the server's directory, readable by its owner only (the
    /// server refuses a key others can read).
    fn write_private(&self, name: &str, text: &str) -> Result<(), String> {
        use std::os::unix::fs::OpenOptionsExt;
        let path = self.dir.join(name);
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        std::io::Write::write_all(&mut file, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// The URL of database `name` of this server.
    pub fn url(&self, name: &str) -> String {
        format!(
            "postgres://{USER}@localhost/{name}?host={}&port={}",
            self.dir.display(),
            self.port
        )
    }

    /// The server's log, for a failing test's message.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default()
    }

    /// Runs one of the server's programs, as the unprivileged user when the tests run as root.
    fn server_command(
        &self,
        program: &str,
        args: impl FnOnce(&mut Command) -> &mut Command,
    ) -> Result<Output, String> {
        let path = self.bin.join(program);
        let mut command = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", UNPRIVILEGED, "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        // The cluster's directory is the working directory: `nobody` may not read the tests'.
        command.current_dir(&self.dir);
        run(args(&mut command))
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let stopped = self.server_command("pg_ctl", |c| {
            c.arg("-D")
                .arg(&data)
                .args(["-m", "immediate", "-w", "stop"])
        });
        if let Err(error) = stopped {
            eprintln!("stopping the test PostgreSQL server: {error}");
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Where Debian installs the server's programs, one directory per major version.
const DEBIAN_ROOT: &str = "/usr/lib/postgresql";

/// Where `initdb` and `pg_ctl` are: in a directory of `on_path`, else in Debian's
/// `<debian_root>/<n>/bin` (newest first), which Debian leaves off `PATH`.
fn server_bin_dir(on_path: &[PathBuf], debian_root: &Path) -> Result<PathBuf, String> {
    let mut debian: Vec<PathBuf> = std::fs::read_dir(debian_root)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path().join("bin")))
                .collect()
        })
        .unwrap_or_default();
    debian.sort_by_key(|p| std::cmp::Reverse(version_of(p)));
    on_path
        .iter()
        .cloned()
        .chain(debian)
        .find(|dir| {
            ["initdb", "pg_ctl", "createdb"]
                .iter()
                .all(|p| dir.join(p).is_file())
        })
        .map(|dir| dir.canonicalize().unwrap_or(dir))
        .ok_or_else(|| {
            "the PostgreSQL tests need a PostgreSQL server's programs (initdb, pg_ctl, createdb), \
             found neither on PATH nor in /usr/lib/postgresql/*/bin; install them \
             (Debian: `apt-get install postgresql`) or put their directory on PATH"
                .to_owned()
        })
}

/// The major version in `/usr/lib/postgresql/<n>/bin`, for choosing the newest.
fn version_of(bin: &Path) -> u32 {
    bin.parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A new directory under the system's temporary directory, private to this process.
fn private_dir() -> Result<PathBuf, String> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "syncdef-pg-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir(&dir).map_err(|e| {
        format!(
            "cannot create the test server's directory {}: {e}",
            dir.display()
        )
    })?;
    Ok(dir)
}

/// A port no one listens on now. The server listens on a unix socket only, whose name holds
/// the port inside the private directory, so the number cannot clash with anything.
fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("cannot pick a port for the test PostgreSQL server: {e}"))
}

fn run(command: &mut Command) -> Result<Output, String> {
    let output = command
        .output()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    if output.status.success() {
        Ok(output)
    } else {
        Err(format!(
            "{command:?} failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make_programs(dir: &Path) {
        std::fs::create_dir_all(dir).expect("dir");
        for program in ["initdb", "pg_ctl", "createdb"] {
            std::fs::write(dir.join(program), "").expect("program");
        }
    }

    #[test]
    fn tests_at_the_same_time_share_a_server_and_the_last_one_stops_it() {
        let first = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
        let second = PgServer::shared().expect("shared");
        assert!(Arc::ptr_eq(&first, &second));
        let (one, two) = (
            first.database().expect("db"),
            second.database().expect("db"),
        );
        assert_ne!(one, two, "each test has a database of its own");
        let dir = first.dir.clone();
        drop((first, second));
        assert!(!dir.exists(), "the last test stops and removes it");
        let next = PgServer::shared().expect("a new one");
        assert_ne!(next.dir, dir);
    }

    #[test]
    fn without_the_servers_programs_the_error_says_how_to_install_them() {
        let root = private_dir().expect("dir");
        let error = server_bin_dir(&[root.join("bin")], &root.join("postgresql"))
            .expect_err("nothing installed");
        assert!(error.contains("apt-get install postgresql"), "{error}");
        assert!(error.contains("initdb"), "{error}");
        std::fs::remove_dir_all(&root).expect("cleanup");
    }

    #[test]
    fn path_comes_first_then_debians_newest_version() {
        let root = private_dir().expect("dir");
        let debian = root.join("postgresql");
        make_programs(&debian.join("9/bin"));
        make_programs(&debian.join("15/bin"));
        let found = server_bin_dir(&[root.join("empty")], &debian).expect("Debian's");
        assert!(found.ends_with("15/bin"), "{}", found.display());
        make_programs(&root.join("local"));
        let found = server_bin_dir(&[root.join("local")], &debian).expect("PATH's");
        assert!(found.ends_with("local"), "{}", found.display());
        std::fs::remove_dir_all(&root).expect("cleanup");
    }
}
