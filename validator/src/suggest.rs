//! Did-you-mean suggestions for unknown names (paths, entries, modules, codes).

/// The candidate closest to `input`, if one is close enough to be a likely typo.
///
/// Case differences count as near misses (`accounts` for `Accounts`). Ties keep the first
/// candidate, so callers pass candidates in document order for stable output.
#[must_use]
pub fn did_you_mean<'a, I, S>(input: &str, candidates: I) -> Option<S>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str> + 'a,
{
    let lowered = input.to_lowercase();
    let mut best: Option<(f64, S)> = None;
    for candidate in candidates {
        let name = candidate.as_ref();
        if name == input {
            continue;
        }
        let score = strsim::normalized_damerau_levenshtein(&lowered, &name.to_lowercase());
        if score >= threshold(input.chars().count())
            && best.as_ref().is_none_or(|(b, _)| score > *b)
        {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, s)| s)
}

/// Short names need a closer match: one edit in a four-letter word is already a quarter of it.
fn threshold(len: usize) -> f64 {
    match len {
        0..=3 => 0.66,
        4..=8 => 0.7,
        _ => 0.75,
    }
}

/// `"did you mean `x`?"` when there is a suggestion.
#[must_use]
pub fn hint<'a, I, S>(input: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str> + 'a,
{
    did_you_mean(input, candidates).map(|s| format!("did you mean `{}`?", s.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let modules = ["Accounts", "Invoices", "Orders"];
        assert_eq!(did_you_mean("Acounts", modules), Some("Accounts"));
        assert_eq!(did_you_mean("invoices", modules), Some("Invoices"));
        assert_eq!(did_you_mean("Payments", modules), None);
        assert_eq!(did_you_mean("SD40", ["SD401", "SD402"]), Some("SD401"));
    }
}
