//! "Did you mean" suggestions for misspelt names.

/// The candidate closest to `input`, if it is close enough to be a plausible typo.
///
/// A case-insensitive match always wins (`Name` for `name`); otherwise the best
/// Jaro-Winkler score of at least 0.8, a threshold that catches transpositions and missing
/// letters without proposing unrelated names.
pub(crate) fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = input.to_lowercase();
    let mut best: Option<(&'a str, f64)> = None;
    for candidate in candidates {
        if candidate.to_lowercase() == lower {
            return Some(candidate);
        }
        let score = strsim::jaro_winkler(&lower, &candidate.to_lowercase());
        if score >= 0.8 && best.is_none_or(|(_, s)| score > s) {
            best = Some((candidate, score));
        }
    }
    best.map(|(candidate, _)| candidate)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn suggests_case_fixes_and_typos_but_not_noise() {
        let names = ["name", "code", "createdAt", "updatedAt"];
        assert_eq!(did_you_mean("Name", names), Some("name"));
        assert_eq!(did_you_mean("updatedat", names), Some("updatedAt"));
        assert_eq!(did_you_mean("updateAt", names), Some("updatedAt"));
        assert_eq!(did_you_mean("xyz", names), None);
    }
}
