//! End-to-end tests of the command line's one spelling per concept (docs/configuration.md,
//! "Command-line conventions"), read from the help of every command and subcommand; and of the
//! former spellings, which still work and say what replaces them.

use std::collections::BTreeMap;

use crate::common;

use common::{fixture, syncdef};

/// One option as `--help` shows it.
#[derive(Debug, Default)]
struct Shown {
    /// The value's name (`NAME` of `--entry <NAME>`), if it takes one.
    value: Option<String>,
    /// The help text, lines joined, without the possible values and the default.
    help: String,
    /// The possible values listed.
    values: Vec<String>,
}

/// One command's help: its usage line, its positional arguments and its options.
#[derive(Debug, Default)]
struct Help {
    usage: String,
    arguments: Vec<String>,
    options: BTreeMap<String, Shown>,
}

/// The names listed under `Commands:` (without `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every command and subcommand, as the words after `syncdef`, with its help.
fn every_command() -> Vec<(Vec<String>, String)> {
    let mut found = Vec::new();
    let mut pending = vec![Vec::<String>::new()];
    while let Some(path) = pending.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let run = syncdef(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        for name in subcommands(&run.stdout) {
            let mut child = path.clone();
            child.push(name);
            pending.push(child);
        }
        if !path.is_empty() {
            found.push((path, run.stdout));
        }
    }
    found.sort();
    found
}

/// Reads the `Usage:`, `Arguments:` and `Options:` sections of a long help.
fn parse(text: &str) -> Help {
    let mut help = Help::default();
    let mut current: Option<String> = None;
    let mut section = "";
    for line in text.lines() {
        if let Some(usage) = line.strip_prefix("Usage: ") {
            usage.clone_into(&mut help.usage);
            continue;
        }
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            current = None;
            continue;
        }
        let trimmed = line.trim();
        let header = line.len() - line.trim_start().len() <= 6 && !trimmed.is_empty();
        match section {
            "Arguments:" if header => help.arguments.push(trimmed.to_owned()),
            "Options:" if header && trimmed.starts_with('-') => {
                let flag_and_value = trimmed.rsplit(", ").next().unwrap_or(trimmed);
                let (flag, value) = match flag_and_value.split_once(' ') {
                    Some((flag, value)) => (flag, Some(value.trim_matches(['<', '>']).to_owned())),
                    None => (flag_and_value.trim_end_matches("..."), None),
                };
                help.options.insert(
                    flag.to_owned(),
                    Shown {
                        value,
                        ..Shown::default()
                    },
                );
                current = Some(flag.to_owned());
            }
            "Options:" => {
                let Some(shown) = current.as_ref().and_then(|f| help.options.get_mut(f)) else {
                    continue;
                };
                if let Some(value) = trimmed.strip_prefix("- ") {
                    let name = value.split(':').next().unwrap_or(value);
                    shown.values.push(name.to_owned());
                } else if let Some(list) = trimmed
                    .strip_prefix("[possible values: ")
                    .and_then(|l| l.strip_suffix(']'))
                {
                    shown.values.extend(list.split(", ").map(str::to_owned));
                } else if !trimmed.is_empty()
                    && !trimmed.starts_with('[')
                    && trimmed != "Possible values:"
                    && shown.values.is_empty()
                {
                    if !shown.help.is_empty() {
                        shown.help.push(' ');
                    }
                    shown.help.push_str(trimmed);
                }
            }
            _ => {}
        }
    }
    help
}

/// Every command's help, by command path (`sync status`): read once for all the tests, as it
/// takes a process per command.
fn every_help() -> &'static [(String, Help)] {
    static HELPS: std::sync::LazyLock<Vec<(String, Help)>> = std::sync::LazyLock::new(|| {
        every_command()
            .into_iter()
            .map(|(path, text)| (path.join(" "), parse(&text)))
            .collect()
    });
    &HELPS
}

#[test]
fn every_command_spells_each_concept_one_way() {
    let helps = every_help();
    let names: Vec<&str> = helps.iter().map(|(name, _)| name.as_str()).collect();
    for expected in [
        "lint",
        "push",
        "pull",
        "sync",
        "sync status",
        "auth login",
        "rules",
    ] {
        assert!(names.contains(&expected), "{expected} not in {names:?}");
    }
    // The dry run is a flag, not a command of its own.
    assert!(!names.contains(&"dry-run"), "{names:?}");
    for (name, help) in helps {
        for (flag, shown) in &help.options {
            assert_ne!(
                flag, "--definition",
                "{name}: the definition is an argument"
            );
            assert_ne!(flag, "--sample", "{name}: a record is --record");
            assert!(
                !flag.contains("entr") || flag == "--entry",
                "{name}: {flag}: an entry is --entry"
            );
            if flag == "--entry" {
                assert_eq!(shown.value.as_deref(), Some("NAME"), "{name}: {flag}");
            }
            assert_ne!(
                shown.value.as_deref(),
                Some("DEFINITION"),
                "{name}: {flag} takes a definition"
            );
        }
    }
}

#[test]
fn every_command_with_a_definition_takes_it_first() {
    let helps: BTreeMap<&str, &Help> = every_help().iter().map(|(n, h)| (n.as_str(), h)).collect();
    let required = ["push", "pull", "sync", "auth login"];
    // Beside `--state`, the definition only says where the state is.
    let optional = ["sync status", "sync resolve", "sync reset-cursor"];
    for name in required.iter().chain(&optional) {
        let help = &helps[*name];
        let shown = if required.contains(name) {
            "<DEFINITION>"
        } else {
            "[DEFINITION]"
        };
        assert_eq!(help.arguments, [shown], "{name}: {help:?}");
        assert!(help.usage.contains(shown), "{name}: {}", help.usage);
    }
    for (name, help) in helps {
        let takes_one = help.arguments.iter().any(|a| a.contains("DEFINITION"));
        assert!(
            takes_one == (required.contains(&name) || optional.contains(&name)),
            "{name} takes a definition: {takes_one}"
        );
    }
}

#[test]
fn color_is_on_every_command_and_format_on_every_one_that_prints_a_report() {
    let helps = every_help();
    let color = &helps[0].1.options["--color"];
    assert_eq!(color.values, ["auto", "always", "never"]);
    for (name, help) in helps {
        let Some(this) = help.options.get("--color") else {
            panic!("{name} has no --color");
        };
        assert_eq!(
            (&this.help, &this.values, &this.value),
            (&color.help, &color.values, &color.value),
            "{name}"
        );
    }
    let reports = ["lint", "push", "sync", "sync status", "rules"];
    for (name, help) in helps {
        let format = help.options.get("--format");
        assert_eq!(
            format.is_some(),
            reports.contains(&name.as_str()),
            "{name}: --format {format:?}"
        );
        if let Some(format) = format {
            assert_eq!(format.value.as_deref(), Some("FORMAT"), "{name}");
            assert_eq!(format.values[..2], ["human", "json"], "{name}");
        }
    }
}

#[test]
fn since_reads_and_says_the_same_wherever_it_is() {
    let helps = every_help();
    let since: Vec<(&str, &Shown)> = helps
        .iter()
        .filter_map(|(name, help)| Some((name.as_str(), help.options.get("--since")?)))
        .collect();
    let names: Vec<&str> = since.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, ["pull", "sync"]);
    assert_eq!(since[0].1.value.as_deref(), Some("WHEN"));
    assert_eq!(
        (&since[0].1.help, &since[0].1.value),
        (&since[1].1.help, &since[1].1.value)
    );
    // One syntax: the same value is refused with the same words by both.
    let definition = "definitions/tests/fixtures/quickbooks-online.yaml";
    let pull = syncdef(&[
        "pull",
        definition,
        "--entry",
        "Account",
        "--since",
        "yesterday",
    ]);
    let sync = syncdef(&[
        "sync",
        definition,
        "--platform",
        "http://127.0.0.1:9",
        "--entry",
        "Account",
        "--since",
        "yesterday",
    ]);
    assert_eq!((pull.code, sync.code), (2, 2));
    let reason = |stderr: &str| stderr.lines().next().unwrap_or_default().to_owned();
    assert_eq!(reason(&pull.stderr), reason(&sync.stderr));
    assert!(
        pull.stderr.contains("2026-11-20T16:02:44Z"),
        "{}",
        pull.stderr
    );
}

#[test]
fn every_command_that_sends_has_dry_run() {
    let helps: BTreeMap<&str, &Help> = every_help().iter().map(|(n, h)| (n.as_str(), h)).collect();
    for name in ["push", "pull", "sync"] {
        assert!(helps[name].options.contains_key("--dry-run"), "{name}");
    }
    assert_eq!(
        helps["push"].options["--responses"].value.as_deref(),
        Some("FILE")
    );
    assert_eq!(
        helps["push"].options["--responses"].help,
        helps["pull"].options["--responses"].help
    );
    assert_eq!(
        helps["push"].options["--record"].value.as_deref(),
        Some("FILE")
    );
    assert_eq!(
        helps["lint"].options["--record"].value.as_deref(),
        Some("ENTRY=FILE")
    );
}

/// Runs `old` and `new`: the same exit code and output, and on stderr the one-line note
/// `note` first for `old` only.
fn assert_former_spelling(old: &[&str], new: &[&str], note: &str) {
    let former = syncdef(old);
    let current = syncdef(new);
    assert_eq!(
        (former.code, &former.stdout),
        (current.code, &current.stdout),
        "{old:?}: {}",
        former.stderr
    );
    assert_eq!(
        former.stderr,
        format!("warning: {note}\n{}", current.stderr),
        "{old:?}"
    );
    assert!(
        !current.stderr.contains("deprecated"),
        "{new:?}: {}",
        current.stderr
    );
}

const QB: &str = "definitions/tests/fixtures/quickbooks-online.yaml";
const RECORD: &str = "tests/fixtures/dry_run/account.json";

#[test]
fn the_former_dry_run_command_still_runs_and_names_push_dry_run() {
    // The human report: the JSON one says how long the push took.
    let record = ["--entry", "Account", "--record", RECORD];
    let mut old = vec!["dry-run", QB];
    old.extend_from_slice(&record);
    let mut new = vec!["push", "--dry-run", QB];
    new.extend_from_slice(&record);
    assert_former_spelling(
        &old,
        &new,
        "`syncdef dry-run` is deprecated; use `syncdef push --dry-run`",
    );
}

#[test]
fn the_definition_flag_still_works_and_says_to_give_it_first() {
    let note = "`--definition FILE` is deprecated; give the definition as the first argument";
    let rest = ["--entry", "Account", "--record", RECORD, "--dry-run"];
    let mut old = vec!["push", "--definition", QB];
    old.extend_from_slice(&rest);
    let mut new = vec!["push", QB];
    new.extend_from_slice(&rest);
    assert_former_spelling(&old, &new, note);
    let missing = "no/such/definition.yaml";
    assert_former_spelling(
        &["sync", "status", &format!("--definition={missing}")],
        &["sync", "status", missing],
        note,
    );
}

#[test]
fn entries_still_works_and_says_to_use_entry() {
    // An entry the definition lacks stops the run before the platform is asked anything.
    let platform = "http://127.0.0.1:9";
    assert_former_spelling(
        &[
            "sync",
            QB,
            "--platform",
            platform,
            "--entries",
            "Nope,Account",
        ],
        &[
            "sync",
            QB,
            "--platform",
            platform,
            "--entry",
            "Nope",
            "--entry",
            "Account",
        ],
        "`--entries ENTRY,...` is deprecated; use `--entry NAME` (repeatable, or comma-separated)",
    );
}

#[test]
fn sample_still_works_and_says_to_use_record() {
    let definition = fixture("lint/valid.yaml");
    let sample = format!("Account={RECORD}");
    assert_former_spelling(
        &["lint", "--format", "json", &definition, "--sample", &sample],
        &["lint", "--format", "json", &definition, "--record", &sample],
        "`--sample ENTRY=FILE` is deprecated; use `--record ENTRY=FILE`",
    );
}

#[test]
fn color_is_accepted_before_and_after_the_command() {
    let mistakes = fixture("lint/mistakes.yaml");
    for args in [
        vec!["--color", "always", "lint", mistakes.as_str()],
        vec!["lint", mistakes.as_str(), "--color", "always"],
    ] {
        let run = syncdef(&args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        assert!(run.stdout.contains('\u{1b}'), "{args:?}: not coloured");
    }
}
