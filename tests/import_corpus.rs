#![cfg(not(target_arch = "wasm32"))]
//! Every real result file in tests/corpus (copied from public repositories; sources and licenses
//! in tests/corpus/SOURCES.md) imports, or is refused with a clear message: a compact dump of what
//! was imported (or the refusal) is compared with its snapshot in tests/snapshots/, and detection
//! by content alone must agree with detection by name.
//!
//! Update the snapshots after an intended change with `INSTA_UPDATE=always cargo test --test import_corpus`
//! and review the diff.

mod support;

use runlens::import::{detect, detect_by_content, detect_by_name, import_bytes, Format, HEAD_BYTES};
use std::path::{Path, PathBuf};
use support::snapshot;

/// Folders whose files are covered (each format's importer adds its folder to the support crate's list).
const FOLDERS: &[&str] = ::support::corpus::FOLDERS;

fn files() -> Vec<PathBuf> {
    snapshot::files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"), Some(FOLDERS))
}

#[test]
fn every_corpus_file_imports_or_is_refused_clearly() {
    let all = files();
    assert!(!all.is_empty());
    for (name, text) in snapshot::texts(&all, snapshot::Loader::MayWarn) {
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn detection_by_content_agrees_with_detection_by_name() {
    snapshot::detection_agrees(&files());
}

#[test]
fn a_name_of_another_tool_does_not_hide_what_the_content_clearly_is() {
    // Each file under each name that names a format: read as the named format where the content
    // passes that format's own tests, else as what the content is.
    let names = [
        "statistics.json",
        "stats.json",
        "global_stats.json",
        "stats.js",
        "simulation.log",
        "run_stats.csv",
        "run_stats_history.csv",
        "run_failures.csv",
        "run_exceptions.csv",
    ];
    let mut by_content = 0;
    for path in files() {
        let bytes = std::fs::read(&path).unwrap();
        let head = &bytes[..bytes.len().min(HEAD_BYTES)];
        let Some(content) = detect_by_content(head) else { continue };
        for name in names {
            let (named, got) = (detect_by_name(name).unwrap(), detect(name, head).unwrap());
            assert!(
                got == named || got == content,
                "{} as {name}: {got:?}, neither {named:?} nor {content:?}",
                path.display()
            );
            by_content += usize::from(got != named);
        }
    }
    assert!(by_content > 0);
    // JMeter's dashboard statistics saved under Gatling's name: read, not refused as a Gatling file.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let stats = std::fs::read(root.join("jmeter-statistics-json/artipie-bench-t1.json")).unwrap();
    let imp = import_bytes("stats.json", &stats).unwrap();
    assert_eq!((imp.format, imp.bundle.runs[0].transactions.len()), (Format::JmeterStatistics, 1));
}
