#![cfg(not(target_arch = "wasm32"))]
//! The hand-made import fixtures (tests/fixtures/import, sources in each folder's README) are
//! recognised by their content alone, whatever they are called, and import without warnings.
//! Their figures are checked in the importers' unit tests.

use runlens::import::{detect_by_content, import, Format, HEAD_BYTES};
use std::path::Path;

#[test]
fn fixtures_are_recognised_by_content_and_import() {
    let expected = [
        ("k6/console-classic.txt", Format::K6Console),
        ("k6/console-compact-v1.txt", Format::K6Console),
        ("k6/console-full-v1.txt", Format::K6Console),
        ("k6/handlesummary-compact.json", Format::K6Summary),
        ("k6/handlesummary-docs-reference.json", Format::K6Summary),
        ("k6/machine-readable-compact.json", Format::K6Summary),
        ("k6/summary-export-compact.json", Format::K6SummaryExport),
        ("k6/points-docs.ndjson", Format::K6Json),
        ("k6/points-v2-envelope.ndjson", Format::K6Json),
        ("gatling/stats-groups.js", Format::GatlingStats),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import");
    let mut listed: Vec<String> = Vec::new();
    for dir in ["k6", "gatling"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name != "README.md" {
                listed.push(format!("{dir}/{name}"));
            }
        }
    }
    listed.sort();
    let mut names: Vec<String> = expected.iter().map(|(n, _)| n.to_string()).collect();
    names.sort();
    assert_eq!(listed, names, "every fixture is listed here");
    for (path, format) in expected {
        let bytes = std::fs::read(root.join(path)).unwrap();
        assert_eq!(detect_by_content(&bytes[..bytes.len().min(HEAD_BYTES)]), Some(format), "{path}");
        let imp = import("upload.bin", &bytes[..], None, &mut |_, _| {}).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(imp.warnings.is_empty(), "{path}: {:?}", imp.warnings);
        assert_eq!(imp.bundle.runs.len(), 1, "{path}");
    }
}
