//! The rules set in the `syncdef.toml` files that governed a lint run, for
//! [`super::SarifOptions::configured`].

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use crate::codes::Rule;
use crate::config::{RuleSettings, find_config_file};
use crate::report::LintReport;

/// The rules set in `explicit` (`--config`) when given, else in the nearest `syncdef.toml` of
/// each of `report`'s files. A file that cannot be read or is invalid adds nothing: the run
/// already reports it as a path that could not be linted.
#[must_use]
pub fn configured_rules(report: &LintReport, explicit: Option<&RuleSettings>) -> BTreeSet<Rule> {
    if let Some(settings) = explicit {
        return settings.configured_rules();
    }
    let files: HashSet<_> = report
        .files
        .iter()
        .filter_map(|file| find_config_file(Path::new(file.source.name())))
        .collect();
    files
        .iter()
        .filter_map(|file| RuleSettings::load(file).ok())
        .flat_map(|settings| settings.configured_rules())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_settings_give_their_rules() {
        let settings = RuleSettings::parse(
            "ignore = [\"SD704\"]\n[rules]\nSD402 = \"off\"\n[per-file-ignores]\n\"a/**\" = [\"SD109\"]\n",
            Path::new("syncdef.toml"),
        )
        .expect("valid settings");
        let codes: Vec<&str> = configured_rules(&LintReport::default(), Some(&settings))
            .into_iter()
            .map(Rule::code)
            .collect();
        let mut expected = vec!["SD109", "SD402", "SD704"];
        expected.sort_unstable();
        let mut codes = codes;
        codes.sort_unstable();
        assert_eq!(codes, expected);
    }
}
