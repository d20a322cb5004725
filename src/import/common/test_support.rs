//! Helpers shared by the importers' unit tests: files of the crate, one-run imports, lookups.

use crate::bundle::{Run, Transaction};
use crate::import::{import_bytes, Format};

/// A file of the crate (`tests/fixtures/…`, `tests/corpus/…`).
pub fn file(path: &str) -> Vec<u8> {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// Imports a file that must give one run: its format, the run and the warnings as text.
pub fn import_run(name: &str, bytes: &[u8]) -> (Format, Run, Vec<String>) {
    let imp = import_bytes(name, bytes).unwrap_or_else(|e| panic!("{e}"));
    let warnings = imp.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(imp.bundle.runs.len(), 1, "{name}");
    (imp.format, imp.bundle.runs.into_iter().next().unwrap(), warnings)
}

pub fn kpi(run: &Run, name: &str) -> Option<f64> {
    run.kpis.iter().find(|k| k.name == name).map(|k| k.value)
}

pub fn txn<'a>(run: &'a Run, name: &str) -> &'a Transaction {
    run.transactions
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no transaction {name:?} in {:?}", run.transactions))
}
