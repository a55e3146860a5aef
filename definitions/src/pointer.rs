//! RFC 6901 JSON pointers: the address every diagnostic carries next to its line and column.

use std::borrow::Cow;

/// Escapes one reference token (`~` becomes `~0`, `/` becomes `~1`).
#[must_use]
pub fn escape(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Unescapes one reference token (`~1` becomes `/`, then `~0` becomes `~`, in that order as the
/// RFC requires).
#[must_use]
pub fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Appends `/token` (escaped) to a pointer being built.
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&escape(token));
}

/// Appends `/index` to a pointer being built.
pub fn push_index(pointer: &mut String, index: usize) {
    use std::fmt::Write;
    let _ = write!(pointer, "/{index}");
}

/// The pointer made of `tokens` (each escaped).
#[must_use]
pub fn join<'a>(tokens: impl IntoIterator<Item = &'a str>) -> String {
    let mut pointer = String::new();
    for t in tokens {
        push(&mut pointer, t);
    }
    pointer
}

/// The unescaped tokens of a pointer, or `None` if it is neither empty nor starts with `/`.
/// A URI fragment form (`#/components/...`) is accepted too, as `$ref`s write it.
#[must_use]
pub fn tokens(pointer: &str) -> Option<impl Iterator<Item = Cow<'_, str>>> {
    let pointer = pointer.strip_prefix('#').unwrap_or(pointer);
    let rest = match pointer {
        "" => None,
        p => Some(p.strip_prefix('/')?),
    };
    Some(rest.into_iter().flat_map(|r| r.split('/')).map(unescape))
}

/// Splits a pointer into its parent and its last (still escaped) token.
#[must_use]
pub fn split_last(pointer: &str) -> Option<(&str, &str)> {
    let pointer = pointer.strip_prefix('#').unwrap_or(pointer);
    let slash = pointer.rfind('/')?;
    Some((&pointer[..slash], &pointer[slash + 1..]))
}

/// An array index token: decimal digits, no leading zero (RFC 6901 section 4).
#[must_use]
pub fn array_index(token: &str) -> Option<usize> {
    let valid = !token.is_empty()
        && token.bytes().all(|b| b.is_ascii_digit())
        && (token == "0" || !token.starts_with('0'));
    if valid { token.parse().ok() } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_special_characters() {
        let p = join(["paths", "/v3/company/{realmId}/customer", "a~b"]);
        assert_eq!(p, "/paths/~1v3~1company~1{realmId}~1customer/a~0b");
        let back: Vec<_> = tokens(&p).unwrap().collect();
        assert_eq!(back, ["paths", "/v3/company/{realmId}/customer", "a~b"]);
    }

    #[test]
    fn unescape_order_matters() {
        assert_eq!(unescape("~01"), "~1");
    }

    #[test]
    fn rejects_relative_pointers_and_bad_indices() {
        assert!(tokens("paths").is_none());
        assert_eq!(tokens("").unwrap().count(), 0);
        assert_eq!(tokens("#/a").unwrap().count(), 1);
        assert_eq!(array_index("01"), None);
        assert_eq!(array_index("10"), Some(10));
        assert_eq!(array_index("-"), None);
    }
}
