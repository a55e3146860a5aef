//! TLS to the database, as the connection URL asks for it (`sslmode`, `sslrootcert`).
//!
//! The modes are libpq's, read so that a URL that works with `psql` means the same here, with
//! one difference that is on the safe side: whenever TLS is used the server's certificate is
//! verified (its chain to a trusted root and the host name), because an unverified channel to
//! the state would let anyone on the path read the external ids and mark records as pushed.
//!
//! | `sslmode` | here |
//! |---|---|
//! | absent, `disable`, `allow`, `prefer` | no TLS (a unix socket or a trusted network) |
//! | `require`, `verify-ca`, `verify-full` | TLS, the certificate verified against the roots |
//!
//! The roots are the Mozilla set (what a managed database's public certificate chains to),
//! plus the certificates of the PEM file `sslrootcert` names (a private CA, a self-signed
//! server).

use std::sync::Arc;

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tokio_postgres_rustls::MakeRustlsConnect;

/// A connection URL made ready for the client: the parameters only this module reads are
/// taken out, and the TLS connector to use, if any.
pub(super) struct Prepared {
    /// The URL the client parses (`sslmode` as it knows it, no `sslrootcert`).
    pub url: String,
    /// The connector when TLS is asked for.
    pub tls: Option<MakeRustlsConnect>,
}

/// Reads `sslmode` and `sslrootcert` from `url`.
///
/// # Errors
/// An unknown `sslmode`, or a root certificate file that cannot be read or holds no
/// certificate: what is wrong and what to write instead.
pub(super) fn prepare(url: &str) -> Result<Prepared, String> {
    let Some((base, query)) = url.split_once('?') else {
        return Ok(Prepared {
            url: url.to_owned(),
            tls: None,
        });
    };
    let mut mode = None;
    let mut root_file = None;
    let mut kept = form_urlencoded::Serializer::new(String::new());
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        match &*name {
            "sslmode" => mode = Some(value.into_owned()),
            "sslrootcert" => root_file = Some(value.into_owned()),
            _ => {
                kept.append_pair(&name, &value);
            }
        }
    }
    let verified = match mode.as_deref() {
        None | Some("disable" | "allow" | "prefer") => false,
        Some("require" | "verify-ca" | "verify-full") => true,
        Some(other) => {
            return Err(format!(
                "`sslmode={other}` is not a PostgreSQL TLS mode: write `sslmode=require` (or \
                 verify-full) for TLS with the server's certificate verified, or leave it out"
            ));
        }
    };
    if verified {
        kept.append_pair("sslmode", "require");
    } else if mode.is_some() {
        kept.append_pair("sslmode", "disable");
    }
    let query = kept.finish();
    let url = if query.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{query}")
    };
    let tls = if verified {
        Some(connector(root_file.as_deref())?)
    } else {
        None
    };
    Ok(Prepared { url, tls })
}

/// A connector that trusts the Mozilla roots and the certificates of `root_file`.
fn connector(root_file: Option<&str>) -> Result<MakeRustlsConnect, String> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(file) = root_file {
        for certificate in read_certificates(file)? {
            roots.add(certificate).map_err(|e| {
                format!("`sslrootcert={file}`: a certificate in it cannot be used as a root: {e}")
            })?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// The PEM certificates of `file`; at least one.
fn read_certificates(file: &str) -> Result<Vec<CertificateDer<'static>>, String> {
    let text = std::fs::read(file)
        .map_err(|e| format!("`sslrootcert={file}`: cannot read the file: {e}"))?;
    let certificates: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&text)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("`sslrootcert={file}`: not a PEM certificate file: {e}"))?;
    if certificates.is_empty() {
        return Err(format!(
            "`sslrootcert={file}` holds no certificate: give the PEM file of the CA that signed \
             the server's certificate (`-----BEGIN CERTIFICATE-----`)"
        ));
    }
    Ok(certificates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_mode_or_with_a_plain_one_there_is_no_tls() {
        for url in [
            "postgres://u@db/x",
            "postgres://u@db/x?port=5433",
            "postgres://u@db/x?sslmode=disable",
            "postgres://u@db/x?sslmode=prefer&port=5433",
        ] {
            let prepared = prepare(url).expect(url);
            assert!(prepared.tls.is_none(), "{url}");
        }
        assert_eq!(
            prepare("postgres://u@db/x?sslmode=prefer&port=5433")
                .expect("url")
                .url,
            "postgres://u@db/x?port=5433&sslmode=disable"
        );
    }

    #[test]
    fn every_verifying_mode_is_tls_and_the_root_file_stays_here() {
        for mode in ["require", "verify-ca", "verify-full"] {
            let prepared =
                prepare(&format!("postgres://u@db/x?sslmode={mode}&port=1")).expect(mode);
            assert!(prepared.tls.is_some(), "{mode}");
            assert_eq!(prepared.url, "postgres://u@db/x?port=1&sslmode=require");
        }
    }

    #[test]
    fn a_wrong_mode_or_root_file_says_what_to_write() {
        let error = prepare("postgres://u@db/x?sslmode=verify")
            .err()
            .expect("refused");
        assert!(error.contains("sslmode=require"), "{error}");
        let error = prepare("postgres://u@db/x?sslmode=require&sslrootcert=/no/such.pem")
            .err()
            .expect("refused");
        assert!(error.contains("cannot read"), "{error}");
        let dir = tempfile::tempdir().expect("dir");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").expect("write");
        let error = prepare(&format!(
            "postgres://u@db/x?sslmode=require&sslrootcert={}",
            empty.display()
        ))
        .err()
        .expect("refused");
        assert!(error.contains("holds no certificate"), "{error}");
    }
}
