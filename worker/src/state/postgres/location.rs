//! How a PostgreSQL location is shown: never with its password.

/// `url` with any password replaced by `***` (in the user part and in a `password=` query
/// parameter), for messages, logs and `sync status`.
pub fn shown_location(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let (authority_end, _) = rest
        .char_indices()
        .find(|(_, c)| matches!(c, '/' | '?'))
        .unwrap_or((rest.len(), ' '));
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _password)) => format!("{name}:***@{host}"),
            None => format!("{user}@{host}"),
        },
        None => authority.to_owned(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((name, _)) if name.eq_ignore_ascii_case("password") => {
                        format!("{name}=***")
                    }
                    _ => pair.to_owned(),
                })
                .collect::<Vec<_>>()
                .join("&");
            format!("{path}?{query}")
        }
        None => tail.to_owned(),
    };
    if scheme.is_empty() {
        format!("{authority}{tail}")
    } else {
        format!("{scheme}://{authority}{tail}")
    }
}

#[cfg(test)]
mod tests {
    use super::shown_location;

    #[test]
    fn passwords_are_never_shown() {
        assert_eq!(
            shown_location("postgres://sync:s3cret@db.example.com:5432/syncdef"),
            "postgres://sync:***@db.example.com:5432/syncdef"
        );
        assert_eq!(
            shown_location("postgresql://sync@db/x?password=s3cret&sslmode=disable"),
            "postgresql://sync@db/x?password=***&sslmode=disable"
        );
        assert_eq!(
            shown_location("postgres://sync@localhost/x?host=/tmp/s"),
            "postgres://sync@localhost/x?host=/tmp/s"
        );
    }
}
