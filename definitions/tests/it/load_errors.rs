//! Every refusal of the loaders, rendered with <file:line:column> (insta snapshots).

use std::path::Path;

use syncdef_definitions::load::{LoadOptions, load_path};
use syncdef_definitions::{LoadError, LoadErrorKind};

/// Loads a fixture of `tests/fixtures/load` that must fail, named as the user would see it.
fn error(name: &str) -> LoadError {
    error_with(name, &LoadOptions::default())
}

fn error_with(name: &str, options: &LoadOptions) -> LoadError {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/load");
    // Run from the fixture directory's name so snapshots do not depend on the checkout path.
    let path = dir.join(name);
    match load_path(&path, options) {
        Ok(_) => panic!("{name} loaded but must be refused"),
        Err(mut err) => {
            let relative = format!("fixtures/load/{name}");
            let source = syncdef_definitions::SourceFile::new(relative, err.source.text());
            err.source = std::sync::Arc::new(source);
            err
        }
    }
}

macro_rules! refused {
    ($test:ident, $file:literal, $kind:ident) => {
        #[test]
        fn $test() {
            let err = error($file);
            assert_eq!(err.kind, LoadErrorKind::$kind, "{}", err.render());
            insta::assert_snapshot!(err.render());
        }
    };
}

refused!(json_missing_comma, "json-missing-comma.json", Syntax);
refused!(json_duplicate_key, "json-duplicate-key.json", DuplicateKey);
refused!(json_empty, "json-empty.json", EmptyDocument);
refused!(json_too_deep, "json-too-deep.json", TooDeep);
refused!(
    json_newline_in_string,
    "json-newline-in-string.json",
    Syntax
);
refused!(json_lone_surrogate, "json-lone-surrogate.json", Syntax);
refused!(json_single_quotes, "json-single-quotes.json", Syntax);
refused!(json_trailing_comma, "json-trailing-comma.json", Syntax);
refused!(json_trailing_content, "json-trailing-content.json", Syntax);
refused!(json_unclosed, "json-unclosed.json", Syntax);
refused!(json_bad_number, "json-bad-number.json", Syntax);
refused!(json_multibyte_column, "json-multibyte-column.json", Syntax);
refused!(non_utf8, "latin1.json", InvalidUtf8);
refused!(yaml_duplicate_key, "yaml-duplicate-key.yaml", DuplicateKey);
refused!(yaml_syntax, "yaml-syntax.yaml", Syntax);
refused!(
    yaml_two_documents,
    "yaml-two-documents.yaml",
    MultipleDocuments
);
refused!(yaml_empty, "yaml-empty.yaml", EmptyDocument);
refused!(yaml_complex_key, "yaml-complex-key.yaml", NonStringKey);
refused!(yaml_billion_laughs, "yaml-billion-laughs.yaml", AliasBomb);
refused!(
    yaml_unknown_anchor,
    "yaml-unknown-anchor.yaml",
    UnknownAnchor
);
refused!(yaml_too_deep, "yaml-too-deep.yaml", TooDeep);
refused!(yaml_bad_indent, "yaml-bad-indent.yaml", Syntax);
refused!(yaml_unclosed_quote, "yaml-unclosed-quote.yaml", Syntax);
refused!(yaml_tab_indent, "yaml-tab-indent.yaml", Syntax);
refused!(yaml_mixed_block, "yaml-mixed-block.yaml", Syntax);

#[test]
fn missing_file_is_an_io_error() {
    let Err(err) = load_path(
        Path::new("no/such/definition.yaml"),
        &LoadOptions::default(),
    ) else {
        panic!("a missing file loaded")
    };
    assert_eq!(err.kind, LoadErrorKind::Io);
    assert!(err.span.is_none());
    assert!(
        err.render()
            .starts_with("no/such/definition.yaml: error[io]: cannot read the file")
    );
}

#[test]
fn alias_limits_are_configurable() {
    let strict = LoadOptions {
        max_aliases: 3,
        ..LoadOptions::default()
    };
    let err = error_with("yaml-billion-laughs.yaml", &strict);
    assert_eq!(err.kind, LoadErrorKind::AliasBomb);
    // The fourth alias use is the one refused: `b: &b [*a,*a,*a,*a` on line 2.
    assert_eq!(
        err.location(),
        "fixtures/load/yaml-billion-laughs.yaml:2:17"
    );
}

#[test]
fn depth_limit_is_configurable() {
    let deep = LoadOptions {
        max_depth: 400,
        ..LoadOptions::default()
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/load");
    assert!(load_path(&dir.join("json-too-deep.json"), &deep).is_ok());
    assert!(load_path(&dir.join("yaml-too-deep.yaml"), &deep).is_ok());
}

#[test]
fn errors_are_miette_diagnostics() {
    use miette::Diagnostic;
    let err = error("json-duplicate-key.json");
    assert_eq!(
        err.code().map(|c| c.to_string()).as_deref(),
        Some("syncdef::load::duplicate-key")
    );
    let labels: Vec<_> = err.labels().into_iter().flatten().collect();
    assert_eq!(labels.len(), 2);
    assert!(err.source_code().is_some());
}
