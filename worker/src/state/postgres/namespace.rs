//! Several integration instances in one database: `schema=NAME` in the state's URL keeps an
//! instance's tables in a PostgreSQL schema of its own.
//!
//! An instance is one definition with its own server variables and tokens (a QuickBooks
//! company); its state (external ids, cursors, queue, request budget) is its own. A database
//! per instance works too, but an operator with hundreds of instances would rather run one
//! database: each instance's workers then name its schema, and every connection of theirs
//! looks up tables in it first (`search_path`), so the statements stay the same.

/// The URL without the `schema` parameter, and the schema it named.
///
/// # Errors
/// A schema name that is not a plain lowercase identifier: what to write instead.
pub(super) fn take_schema(url: &str) -> Result<(String, Option<String>), String> {
    let Some((base, query)) = url.split_once('?') else {
        return Ok((url.to_owned(), None));
    };
    let mut schema = None;
    let mut kept = form_urlencoded::Serializer::new(String::new());
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        if name == "schema" {
            schema = Some(checked(&value)?);
        } else {
            kept.append_pair(&name, &value);
        }
    }
    let query = kept.finish();
    let url = if query.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{query}")
    };
    Ok((url, schema))
}

/// A schema name PostgreSQL takes as written, without quotes: lowercase letters, digits and
/// `_`, not starting with a digit, at most 63 bytes, and not one of PostgreSQL's own.
fn checked(name: &str) -> Result<String, String> {
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    let starts_well = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_lowercase() || b == b'_');
    let reserved = name.starts_with("pg_") || name == "information_schema";
    if plain && starts_well && name.len() <= 63 && !reserved {
        Ok(name.to_owned())
    } else {
        Err(format!(
            "`schema={name}` is not a schema name syncdef uses: write lowercase letters, digits \
             and `_`, starting with a letter, at most 63 characters, not `pg_...` (for example \
             `schema=qbo_4620816365`)"
        ))
    }
}

/// The server options that make `schema` the first place every table is looked up and
/// created, after the URL's own `options`.
pub(super) fn search_path_option(existing: Option<&str>, schema: &str) -> String {
    let ours = format!("-c search_path={schema}");
    match existing {
        Some(options) if !options.trim().is_empty() => format!("{options} {ours}"),
        _ => ours,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_is_taken_out_of_the_url_and_the_rest_kept() {
        let (url, schema) =
            take_schema("postgres://u@h/db?schema=qbo_1&sslmode=require").expect("valid");
        assert_eq!(url, "postgres://u@h/db?sslmode=require");
        assert_eq!(schema.as_deref(), Some("qbo_1"));
        let (url, schema) = take_schema("postgres://u@h/db?schema=a").expect("valid");
        assert_eq!(
            (url.as_str(), schema.as_deref()),
            ("postgres://u@h/db", Some("a"))
        );
        let (url, schema) = take_schema("postgres://u@h/db").expect("none");
        assert_eq!((url.as_str(), schema), ("postgres://u@h/db", None));
    }

    #[test]
    fn a_schema_name_that_would_need_quotes_is_refused_with_an_example() {
        for bad in [
            "Qbo",
            "1qbo",
            "qbo-1",
            "qbo;drop",
            "",
            "pg_catalog",
            "information_schema",
        ] {
            let error = take_schema(&format!("postgres://u@h/db?schema={bad}")).expect_err(bad);
            assert!(error.contains("schema=qbo_4620816365"), "{bad}: {error}");
        }
        let long = "a".repeat(64);
        assert!(take_schema(&format!("postgres://h/db?schema={long}")).is_err());
    }

    #[test]
    fn the_search_path_follows_the_urls_own_options() {
        assert_eq!(search_path_option(None, "a"), "-c search_path=a");
        assert_eq!(
            search_path_option(Some("-c statement_timeout=5s"), "a"),
            "-c statement_timeout=5s -c search_path=a"
        );
    }
}
