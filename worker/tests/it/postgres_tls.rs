//! The PostgreSQL state over TLS: a real server (started here) that accepts TCP connections
//! only with TLS, presenting a certificate for `localhost` signed by a CA made here.

use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
use syncdef_mock::postgres::PgServer;
use syncdef_worker::state::State;
use syncdef_worker::{PostgresState, StateError};

/// A CA, and a server certificate and key for `localhost` it signed: (CA PEM, cert, key).
fn certificates() -> (String, String, String) {
    let ca_key = KeyPair::generate().expect("CA key");
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = params.self_signed(&ca_key).expect("CA");
    let issuer = rcgen::Issuer::from_params(&params, &ca_key);
    let key = KeyPair::generate().expect("server key");
    let server = CertificateParams::new(vec!["localhost".to_owned()])
        .expect("server params")
        .signed_by(&key, &issuer)
        .expect("server certificate");
    (ca.pem(), server.pem(), key.serialize_pem())
}

struct Rig {
    server: PgServer,
    dir: tempfile::TempDir,
    ca_file: String,
}

impl Rig {
    fn start() -> Rig {
        let (ca, certificate, key) = certificates();
        let server = PgServer::start_with_tls(&certificate, &key).unwrap_or_else(|e| panic!("{e}"));
        let dir = tempfile::tempdir().expect("dir");
        let ca_file = dir.path().join("ca.pem");
        std::fs::write(&ca_file, ca).expect("CA file");
        Rig {
            server,
            dir,
            ca_file: ca_file.display().to_string(),
        }
    }

    fn url(&self, query: &str) -> String {
        let url = self
            .server
            .tcp_database()
            .unwrap_or_else(|e| panic!("{e}\n{}", self.server.log()));
        format!("{url}?{query}")
    }
}

fn refused(url: &str) -> String {
    match PostgresState::open(url) {
        Ok(_) => panic!("{url} was accepted"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn with_the_servers_ca_the_state_works_over_tls() {
    let rig = Rig::start();
    let url = rig.url(&format!("sslmode=require&sslrootcert={}", rig.ca_file));
    let state = PostgresState::open(&url).unwrap_or_else(|e| panic!("{e}\n{}", rig.server.log()));
    state
        .set_cursor("Account", "2026-11-25T00:00:00Z", 1)
        .expect("written over TLS");
    drop(state);
    // verify-full means the same here (the host name is always checked).
    let again = rig.url(&format!("sslmode=verify-full&sslrootcert={}", rig.ca_file));
    let reopened = PostgresState::open(&again).expect("reopened");
    assert!(reopened.counts().expect("read").is_empty());
}

#[test]
fn a_certificate_no_trusted_root_signed_is_refused_with_what_to_do() {
    let rig = Rig::start();
    let error = refused(&rig.url("sslmode=require"));
    assert!(error.contains("certificate"), "{error}");
    assert!(error.contains("sslrootcert"), "{error}");
    drop(rig.dir);
}

#[test]
fn without_tls_a_server_that_requires_it_refuses_the_state() {
    let rig = Rig::start();
    let error = refused(&rig.url("sslmode=disable"));
    assert!(error.contains("no encryption"), "{error}");
}

#[test]
fn a_tls_url_never_shows_its_password() {
    let error = match PostgresState::open(
        "postgres://sync:s3cret@localhost:1/x?sslmode=require&sslrootcert=/no/such/ca.pem",
    ) {
        Ok(_) => panic!("opened"),
        Err(StateError::Backend { location, source }) => format!("{location} {source}"),
        Err(other) => other.to_string(),
    };
    assert!(!error.contains("s3cret"), "{error}");
    assert!(error.contains("cannot read the file"), "{error}");
}
