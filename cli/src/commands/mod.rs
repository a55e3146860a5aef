//! One module per subcommand.

mod alive;
pub mod auth;
pub mod completions;
pub mod dry_run;
pub mod explain;
pub mod lint;
mod lint_sarif;
pub mod lsp;
pub mod new;
pub mod pull;
pub mod push;
pub mod reliability;
pub mod rules;
pub mod schema;
pub mod sync;
pub mod tokens;
pub mod transform;

use std::io;
use std::path::Path;

use syncdef_definitions::Definition;
use syncdef_engine::Engine;
use syncdef_validator::output::{OutputFormat, RenderOptions, render};
use syncdef_validator::{LintReport, RuleSettings};

use crate::failure::Failure;

/// A `NAME=VALUE` argument (`--var realmId=123`, `--related Customer=58`), parsed one way by
/// every command that takes one.
pub fn name_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!("expected NAME=VALUE, found `{text}`")),
    }
}

/// Reads a file, or standard input for `-`, as bytes.
pub fn read_input(path: &Path, what: &str) -> Result<Vec<u8>, Failure> {
    // Bounded: an input of 1 GiB or more is refused before it is read whole.
    if path.as_os_str() == "-" {
        return syncdef_definitions::load::read_stream(io::stdin().lock()).map_err(|e| {
            Failure::usage(format!("cannot read the {what} from standard input: {e}"))
        });
    }
    syncdef_definitions::load::read_file(path)
        .map_err(|e| Failure::usage(format!("cannot read the {what} {}: {e}", path.display())))
}

/// The name a path is shown under in messages.
pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

/// Reads and loads a definition; a file that cannot be loaded is a usage error (exit 2).
pub fn read_definition(path: &Path) -> Result<Definition, Failure> {
    Definition::load_path(path)
        .map_err(|e| Failure::usage(format!("{}: {}", display_name(path), e.message)))
}

/// The `syncdef.toml` of the definition at `path`: `config` when given, else the nearest one
/// at or above the definition's directory, found as `syncdef lint` finds it (from the current
/// directory for standard input). Without one, the defaults. An invalid file is a usage error
/// (exit 2), as in `lint`.
pub fn settings_for(path: &Path, config: Option<&Path>) -> Result<RuleSettings, Failure> {
    let found = match config {
        Some(file) => RuleSettings::load(file).map(Some),
        None if path.as_os_str() == "-" => RuleSettings::discover(Path::new(".")),
        None => RuleSettings::discover(path),
    };
    found
        .map(Option::unwrap_or_default)
        .map_err(|e| Failure::usage(e.to_string()))
}

/// Loads `definition` into an engine with its `syncdef.toml` `settings`: their rule levels for
/// the lint that guards the load, their `[retry]` and `[rate-limit]` over the definition's. A
/// definition with lint errors is refused (exit 1), its diagnostics printed so the user sees
/// what to fix without running `lint`: on stderr as a human report, or, when the command's
/// output is `json`, as the lint's JSON document on stdout, so that a program reading stdout
/// gets the refusal it can parse.
pub fn load_engine(
    definition: &Definition,
    name: &str,
    settings: &RuleSettings,
    json: bool,
) -> Result<Engine, Failure> {
    let diagnostics = syncdef_validator::lint_definition(definition, settings, true);
    let limits = syncdef_transform::Limits::default();
    match Engine::load_linted(definition, diagnostics, settings.push(), &limits) {
        Ok(loaded) => Ok(loaded.engine),
        Err(refused) => {
            if !refused.diagnostics.is_empty() {
                let report = LintReport::from_diagnostics(refused.diagnostics.clone());
                if json {
                    print!(
                        "{}",
                        render(&report, OutputFormat::Json, &RenderOptions::default())
                    );
                } else {
                    eprint!(
                        "{}",
                        render(&report, OutputFormat::Human, &RenderOptions::default())
                    );
                }
            }
            Err(Failure::findings(format!("{name}: {refused}")))
        }
    }
}
