#[test]
fn probe() {
    let paths: Vec<std::path::PathBuf> = std::env::var("PROBE")
        .unwrap()
        .split(',')
        .map(Into::into)
        .collect();
    let r = syncdef_validator::lint_paths(&paths, &Default::default());
    print!(
        "{}",
        syncdef_validator::output::render(
            &r,
            syncdef_validator::output::OutputFormat::Human,
            &Default::default()
        )
    );
    for e in &r.errors {
        println!("ERR {e}");
    }
}
