//! The real result files the tests read: `tests/corpus` (copies kept in the repository, with
//! their sources and licenses) and, on a machine that has it, `../shared/corpus`.

use std::path::{Path, PathBuf};

/// Every tool's folder in the corpora.
pub const FOLDERS: &[&str] = &[
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

/// Every file in these tool folders (`jmeter-csv`, `k6`, …) of both corpora, as its name and its
/// path, in order of path within each corpus. A folder missing from a corpus that exists fails.
pub fn files(folders: &[&str]) -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for dir in [root.join("tests/corpus"), root.join("../shared/corpus")].iter().filter(|d| d.is_dir()) {
        let mut paths: Vec<PathBuf> = folders
            .iter()
            .flat_map(|f| std::fs::read_dir(dir.join(f)).unwrap_or_else(|e| panic!("{}/{f}: {e}", dir.display())))
            .map(|e| e.expect("a corpus folder reads").path())
            .collect();
        paths.sort();
        out.extend(paths.into_iter().map(|p| (p.file_name().unwrap_or_default().to_string_lossy().into_owned(), p)));
    }
    out
}
