#![cfg(not(target_arch = "wasm32"))]
//! Every real result file in tests/corpus (copied from public repositories; sources and licenses
//! in tests/corpus/SOURCES.md) imports, or is refused with a clear message: a compact dump of what
//! was imported (or the refusal) is compared with its snapshot in tests/snapshots/, and detection
//! by content alone must agree with detection by name.
//!
//! Update the snapshots after an intended change with `INSTA_UPDATE=always cargo test --test import_corpus`
//! and review the diff.

use runlens::import::{detect, detect_by_content, dump, import_bytes, HEAD_BYTES};
use std::path::{Path, PathBuf};

/// Folders whose files are covered (each format's importer adds its folder).
const FOLDERS: &[&str] = &[
    "cloudwatch",
    "folio",
    "gatling",
    "jmeter-aggregate-history",
    "jmeter-csv",
    "jmeter-statistics-json",
    "jmeter-xml",
    "k6",
    "locust",
    "opensearch-cat-indices",
];

fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut out = Vec::new();
    for folder in FOLDERS {
        for e in std::fs::read_dir(root.join(folder)).unwrap() {
            out.push(e.unwrap().path());
        }
    }
    out.sort();
    out
}

fn snapshot_name(p: &Path) -> String {
    let folder = p.parent().unwrap().file_name().unwrap().to_string_lossy();
    format!("{folder}__{}", p.file_name().unwrap().to_string_lossy())
}

#[test]
fn every_corpus_file_imports_or_is_refused_clearly() {
    let all = files();
    assert!(!all.is_empty());
    for path in all {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let text = match import_bytes(&name, &bytes) {
            Ok(imp) => dump::summary(&imp),
            Err(e) => format!("refused: {:?}\n{e}\n", e.kind),
        };
        insta::assert_snapshot!(snapshot_name(&path), text);
    }
}

#[test]
fn detection_by_content_agrees_with_detection_by_name() {
    for path in files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let head = &bytes[..bytes.len().min(HEAD_BYTES)];
        let by_name = detect(&name, head);
        assert_eq!(detect_by_content(head).ok_or(String::new()), by_name.clone().map_err(|_| String::new()), "{name}");
        assert!(by_name.is_ok(), "{name}: {by_name:?}");
    }
}
