//! Texts with `{name}` placeholders (a lookup's and a pull's query parameters): split into
//! literal text and placeholder names; each reader decides which names it knows.

/// A piece of a text with placeholders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece<'t> {
    /// Literal text.
    Text(&'t str),
    /// The name between `{` and `}`.
    Placeholder(&'t str),
}

/// The pieces of `text`.
///
/// # Errors
/// A `{` that is not closed, named by its byte offset.
pub(crate) fn pieces(text: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            out.push(Piece::Text(&rest[..open]));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("`{{` at {} is not closed", text.len() - rest.len() + open))?;
        out.push(Piece::Placeholder(&after[..close]));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    Ok(out)
}
