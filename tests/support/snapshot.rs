//! The snapshot harness of the import tests, one for both: `tests/import_corpus.rs` (real files in
//! tests/corpus/) and `tests/import_fixtures.rs` (small shapes in tests/fixtures/import/). Each
//! file is imported under its own name, and what was imported (`dump::summary`) or the refusal is
//! the text of the snapshot `<folder>__<file>`; detection by content must agree with detection by
//! name. The caller asserts the snapshot (`insta` names the `.snap` file after the calling test
//! file), e.g.
//! `for (name, text) in snapshot::texts(&files, Loader::NoWarning) { insta::assert_snapshot!(name, text) }`.

use runlens::bundle;
use runlens::import::common::dump;
use runlens::import::{detect, detect_by_content, import_bytes, HEAD_BYTES};
use std::path::{Path, PathBuf};

/// The files of `root`'s `folders` (of every folder when `None`), READMEs left out, sorted.
pub fn files(root: &Path, folders: Option<&[&str]>) -> Vec<PathBuf> {
    let dirs: Vec<PathBuf> = match folders {
        Some(names) => names.iter().map(|f| root.join(f)).collect(),
        None => std::fs::read_dir(root).unwrap().map(|d| d.unwrap().path()).collect(),
    };
    let mut out = Vec::new();
    for dir in dirs {
        for f in std::fs::read_dir(dir).unwrap() {
            let p = f.unwrap().path();
            if p.file_name().is_some_and(|n| n != "README.md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// `<folder>__<file>`: the snapshot's name.
pub fn name(path: &Path) -> String {
    let folder = path.parent().unwrap().file_name().unwrap().to_string_lossy();
    format!("{folder}__{}", path.file_name().unwrap().to_string_lossy())
}

/// Whether what is imported must be a bundle the loader accepts without a warning (fixtures), or
/// may give warnings (real files: some tools' percentiles are out of order).
#[derive(Clone, Copy, PartialEq, Eq)]
#[allow(dead_code, reason = "each test file uses one variant")]
pub enum Loader {
    NoWarning,
    MayWarn,
}

/// The snapshot text of one file: the dump of what was imported, or the refusal.
pub fn text(path: &Path, loader: Loader) -> String {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let bytes = std::fs::read(path).unwrap();
    match import_bytes(&name, &bytes) {
        Ok(imp) => {
            let json = serde_json::to_string(&imp.bundle).unwrap();
            let loaded = bundle::load_bundle_str(&name, &json).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(loader == Loader::MayWarn || loaded.warnings.is_empty(), "{name}: {:?}", loaded.warnings);
            dump::summary(&imp)
        }
        Err(e) => format!("refused: {:?}\n{e}\n", e.kind),
    }
}

/// Each file's snapshot name and text.
pub fn texts(files: &[PathBuf], loader: Loader) -> impl Iterator<Item = (String, String)> + '_ {
    files.iter().map(move |p| (name(p), text(p, loader)))
}

/// Every file is recognised by its name, and by its content alone as the same format (a paste
/// has no name).
pub fn detection_agrees(files: &[PathBuf]) {
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let head = &bytes[..bytes.len().min(HEAD_BYTES)];
        let by_name = detect(&name, head);
        assert!(by_name.is_ok(), "{name}: {by_name:?}");
        assert_eq!(detect_by_content(head).ok_or(String::new()), by_name.map_err(|_| String::new()), "{name}");
        assert_eq!(detect("pasted text", head).ok(), detect_by_content(head), "{name}");
    }
}
