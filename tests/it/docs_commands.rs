//! The docs' runnable blocks, run as written with the built `syncdef` (CONTRIBUTING.md, "Docs
//! that run"). Each document runs in its own temporary copy of `catalog/`, so the state files
//! and outputs its commands write stay out of the checkout; blocks marked `mock` run against
//! the local platform and QuickBooks company of `syncdef-mock`, started here on free ports.

use crate::common;
#[path = "../docs_support/mod.rs"]
mod docs_support;

use docs_support::{Block, Runner, Step, copy_tree, runnable_blocks, steps};
use std::path::Path;

use syncdef_mock::platform::Platform;
use syncdef_mock::quickbooks::QuickBooks;
use syncdef_mock::{PLATFORM_PORT, QUICKBOOKS_PORT, loopback};

/// The Markdown files whose runnable blocks are run: the README, the catalog's, every doc.
fn documents() -> Vec<String> {
    let root = common::root();
    let mut docs = vec!["README.md".to_owned(), "catalog/README.md".to_owned()];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).expect("the docs directory");
        for entry in entries {
            let path = entry.expect("a docs entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let relative = path.strip_prefix(&root).expect("under the root");
                docs.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    docs.sort();
    docs
}

/// The local systems, running until dropped, and a runner pointed at them.
struct LocalSystems {
    platform: Platform,
    quickbooks: QuickBooks,
    runtime: tokio::runtime::Runtime,
}

impl LocalSystems {
    /// The platform serving `records` as `syncdef-mock` does (edits served as made), and an
    /// empty QuickBooks company.
    fn start(records: &Path) -> LocalSystems {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        let (platform, quickbooks) = runtime.block_on(async {
            (
                Platform::watch(records, loopback(0).expect("a port"))
                    .await
                    .expect("the records"),
                QuickBooks::start(loopback(0).expect("a port")).await,
            )
        });
        LocalSystems {
            platform,
            quickbooks,
            runtime,
        }
    }

    /// Sends the documented default addresses to where these systems listen.
    fn redirect(&self, runner: &mut Runner) {
        let address = |uri: &str| uri.trim_start_matches("http://").to_owned();
        runner.substitute(
            format!("127.0.0.1:{PLATFORM_PORT}"),
            address(&self.platform.uri()),
        );
        runner.substitute(
            format!("127.0.0.1:{QUICKBOOKS_PORT}"),
            address(&self.quickbooks.uri()),
        );
    }
}

/// A reader following one document: a fresh copy of the catalog to run its blocks in, and the
/// local systems when a block needs them, serving the copy's records.
struct Reader {
    dir: tempfile::TempDir,
    runner: Runner,
    systems: Option<LocalSystems>,
}

impl Reader {
    fn new(needs_mock: bool) -> Reader {
        let dir = tempfile::tempdir().expect("a temporary directory");
        copy_tree(&common::root().join("catalog"), &dir.path().join("catalog")).expect("a copy");
        let mut runner = Runner::new(env!("CARGO_BIN_EXE_syncdef"), dir.path());
        // Each document gets empty books, as a reader starting `syncdef-mock` gets them.
        let records = dir.path().join("catalog/records");
        let systems = needs_mock.then(|| LocalSystems::start(&records));
        if let Some(systems) = &systems {
            systems.redirect(&mut runner);
        }
        Reader {
            dir,
            runner,
            systems,
        }
    }

    /// Runs `blocks` in order; the failures, by place.
    fn run(&mut self, blocks: &[Block]) -> Vec<String> {
        blocks
            .iter()
            .filter_map(|block| self.runner.run_block(block).err())
            .collect()
    }
}

fn blocks_of(doc: &str) -> Vec<Block> {
    let text = std::fs::read_to_string(common::root().join(doc)).expect("a doc");
    runnable_blocks(doc, &text)
}

#[test]
fn every_runnable_block_of_the_docs_runs_as_written() {
    let mut failures = Vec::new();
    let mut commands = 0;
    for doc in documents() {
        let blocks = blocks_of(&doc);
        if blocks.is_empty() {
            continue;
        }
        for block in &blocks {
            commands += steps(block).map_or(0, |s| {
                s.iter().filter(|s| matches!(s, Step::Run(_))).count()
            });
        }
        let mut reader = Reader::new(blocks.iter().any(|b| b.needs_mock));
        failures.extend(reader.run(&blocks));
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    // The README's examples and the whole getting-started guide at least.
    assert!(commands >= 12, "only {commands} documented commands ran");
}

/// The guide's push and sync reached the local company: one customer from the pushes, then
/// the platform's two accounts and two invoices from the sync, each created once.
#[test]
fn the_getting_started_guide_pushes_and_syncs_the_shipped_records() {
    let doc = "docs/getting-started.md";
    let blocks = blocks_of(doc);
    assert!(
        blocks.iter().filter(|b| b.needs_mock).count() >= 4,
        "the guide lost its push and sync blocks"
    );
    let mut reader = Reader::new(true);
    let failures = reader.run(&blocks);
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    let Some(systems) = reader.systems.take() else {
        unreachable!("started for the guide")
    };
    let quickbooks = &systems.quickbooks;
    assert_eq!(quickbooks.count("123", "Customer"), 1);
    assert_eq!(quickbooks.count("4620816365", "Customer"), 2);
    assert_eq!(quickbooks.count("4620816365", "Invoice"), 2);
    // "Edit a record under `catalog/records` (its `updatedAt` must move forward), and the next
    // sync updates only that record": the guide's last block again, after the edit.
    let record = reader
        .dir
        .path()
        .join("catalog/records/account-acme-eur.json");
    let text = std::fs::read_to_string(&record).expect("the record");
    let edited = text
        .replacen("\"Acme Trading Ltd\"", "\"Acme Trading Group\"", 1)
        .replacen("2026-11-20T16:02:44Z", "2026-11-27T09:00:00Z", 1);
    assert_ne!(
        text, edited,
        "the shipped account record changed: update this test"
    );
    std::fs::write(&record, edited).expect("the edit");
    let last = blocks
        .iter()
        .rev()
        .find(|b| b.needs_mock)
        .expect("a sync block");
    let failures = reader.run(std::slice::from_ref(last));
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    let customers = quickbooks.objects("4620816365", "Customer");
    let names: Vec<&str> = customers
        .iter()
        .filter_map(|c| c["DisplayName"].as_str())
        .collect();
    assert_eq!(customers.len(), 2, "the edit created a customer: {names:?}");
    assert!(names.contains(&"Acme Trading Group"), "{names:?}");
    assert_eq!(quickbooks.count("4620816365", "Invoice"), 2);
    drop(systems.runtime);
}

/// The runner is what makes these tests fail: a documented command that breaks must fail the
/// block, at its place.
mod runner {
    use super::*;

    fn block(lines: &[&str]) -> Block {
        let text = format!("intro\n\n```sh runnable\n{}\n```\n", lines.join("\n"));
        let mut blocks = runnable_blocks("doc.md", &text);
        assert_eq!(blocks.len(), 1);
        blocks.remove(0)
    }

    fn run(block: &Block) -> Result<Vec<docs_support::Ran>, String> {
        let dir = tempfile::tempdir().expect("a temporary directory");
        copy_tree(&common::root().join("catalog"), &dir.path().join("catalog")).expect("a copy");
        Runner::new(env!("CARGO_BIN_EXE_syncdef"), dir.path()).run_block(block)
    }

    #[test]
    fn a_broken_command_fails_its_block_at_its_line() {
        let broken = block(&[
            "syncdef lint catalog/quickbooks-online/definition.yaml",
            "# a comment",
            "syncdef push --dry-run catalog/quickbooks-online/definition.yaml \\",
            "  --entry NoSuchEntry --record catalog/records/account-acme-eur.json",
        ]);
        let failure = run(&broken).expect_err("an unknown entry exits 2");
        assert!(failure.starts_with("doc.md:6: "), "{failure}");
        assert!(failure.contains("exited 2, the docs say 0"), "{failure}");
    }

    #[test]
    fn a_former_spelling_fails_its_block_with_the_note() {
        let former = block(&["syncdef rules", "syncdef rules --json"]);
        let failure = run(&former).expect_err("--json is a former spelling");
        assert!(failure.starts_with("doc.md:5: "), "{failure}");
        assert!(failure.contains("use `--format json`"), "{failure}");
    }

    #[test]
    fn a_documented_exit_status_is_checked_both_ways() {
        let promised = block(&["syncdef lint catalog/no-such-file.yaml   # exits 2"]);
        assert!(run(&promised).is_ok());
        let wrong = block(&["syncdef lint catalog/quickbooks-online/definition.yaml # exits 1"]);
        let failure = run(&wrong).expect_err("the lint is clean");
        assert!(failure.contains("exited 0, the docs say 1"), "{failure}");
    }

    #[test]
    fn lines_a_shell_would_interpret_differently_are_refused() {
        for line in [
            "syncdef lint catalog/ | head",
            "cargo run -p syncdef-mock",
            "syncdef lint $HOME/x.yaml",
            "syncdef lint catalog/ && echo done",
        ] {
            assert!(steps(&block(&[line])).is_err(), "{line}");
        }
    }

    #[test]
    fn words_exports_and_redirections_are_read_as_a_shell_reads_them() {
        let read = steps(&block(&[
            "export A=1 B='two words'",
            "syncdef transform --template \"t.json\" --input-lines x\\ y.jsonl > out.jsonl",
        ]))
        .expect("runnable");
        assert_eq!(
            read[0],
            Step::Export(vec![
                ("A".to_owned(), "1".to_owned()),
                ("B".to_owned(), "two words".to_owned())
            ])
        );
        let Step::Run(invocation) = &read[1] else {
            panic!("a command: {read:?}");
        };
        assert_eq!(
            invocation.args,
            [
                "transform",
                "--template",
                "t.json",
                "--input-lines",
                "x y.jsonl"
            ]
        );
        assert_eq!(invocation.stdout_to.as_deref(), Some("out.jsonl"));
        assert_eq!(invocation.place, "doc.md:5");
    }

    #[test]
    fn only_marked_blocks_are_found() {
        let text = "```sh\nsyncdef lint broken\n```\n```sh runnable mock\nsyncdef rules\n```\n";
        let blocks = runnable_blocks("doc.md", text);
        assert_eq!(blocks.len(), 1);
        assert!(blocks[0].needs_mock);
        assert_eq!(blocks[0].lines, ["syncdef rules"]);
        assert_eq!(blocks[0].first_line, 5);
    }

    #[test]
    fn a_redirected_output_lands_in_the_working_directory() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let redirected = block(&["syncdef rules > rules.txt"]);
        Runner::new(env!("CARGO_BIN_EXE_syncdef"), dir.path())
            .run_block(&redirected)
            .expect("runs");
        let written = std::fs::read_to_string(dir.path().join("rules.txt")).expect("written");
        assert!(written.contains("SD"), "{written}");
    }
}
