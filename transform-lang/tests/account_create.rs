//! The benchmark's account-create template gives, record for record, the output of the
//! equivalent jq program (`benches/data/account-create.jq`, outputs recorded in
//! `accounts-200.expected.jsonl` with `jq -c -f`).

use syncdef_transform::{Settings, Template, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/");

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{DATA}{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn account_create_matches_jq() {
    let template =
        Template::compile_str(&read("account-create.json"), &Settings::default()).unwrap();
    let inputs = read("accounts-200.jsonl");
    let expected = read("accounts-200.expected.jsonl");
    let mut n = 0;
    for (line, (input, want)) in inputs.lines().zip(expected.lines()).enumerate() {
        let record = Value::from_json_str(input).unwrap();
        let out = template.apply(&record).unwrap().to_json_compact();
        assert_eq!(out, want, "record on line {}", line + 1);
        n += 1;
    }
    assert_eq!(n, 200);
}

#[test]
fn one_compiled_template_serves_many_threads() {
    let template =
        Template::compile_str(&read("account-create.json"), &Settings::default()).unwrap();
    let inputs = read("accounts-200.jsonl");
    let expected = read("accounts-200.expected.jsonl");
    let pairs: Vec<(&str, &str)> = inputs.lines().zip(expected.lines()).collect();
    std::thread::scope(|s| {
        for chunk in pairs.chunks(50) {
            let template = &template;
            s.spawn(move || {
                for (input, want) in chunk {
                    let record = Value::from_json_str(input).unwrap();
                    assert_eq!(template.apply(&record).unwrap().to_json_compact(), *want);
                }
            });
        }
    });
}
