//! What every fuzz target checks: an input goes through a loader or an importer and then through
//! everything the views do with what loaded (workspace, comparison, tables, exports, chart text).
//! Nothing may panic; a refusal must name the file and say something. `tests/bad_input.rs`
//! includes this file to replay the kept crashing inputs under plain `cargo test`.

use runlens::bundle::{Bundle, LoadError};
use runlens::import::{import, Format};
use runlens::model::{Section, Workspace};
use runlens::tables::{self, RowFilter};

/// A refusal must name the file and say what is wrong.
fn check_error(e: &LoadError, name: &str) {
    let shown = e.to_string();
    assert!(shown.starts_with(name), "the message names the file: {shown}");
    assert!(!e.message.trim().is_empty(), "the message says something: {shown}");
}

/// The bundle loader on raw bytes (what a dropped `.json` or `.json.gz` gets).
pub fn check_bundle(data: &[u8]) {
    match runlens::bundle::load_bundle("fuzzed.json", data) {
        Ok(loaded) => show_everything(loaded.bundle, loaded.warnings),
        Err(e) => check_error(&e, "fuzzed.json"),
    }
}

/// The import entry on raw bytes: detection by name and content, or the importer of `format`.
pub fn check_import(name: &str, data: &[u8], format: Option<Format>) {
    match import(name, data, format, &mut |_, _| {}) {
        Ok(imported) => show_everything(imported.bundle, imported.warnings),
        Err(e) => check_error(&e, name),
    }
}

/// The `import` target: the first byte picks a file name (so detection by name is fuzzed too),
/// the rest is the file.
pub fn check_import_target(data: &[u8]) {
    const NAMES: [&str; 6] =
        ["results.jtl", "statistics.json", "x_stats.csv", "bundle.json.gz", "simulation.log", "data"];
    match data.split_first() {
        Some((b, rest)) => check_import(NAMES[*b as usize % NAMES.len()], rest, None),
        None => check_import("data", data, None),
    }
}

/// Everything a view computes from a loaded bundle, twice loaded (as when the same file is dropped
/// twice, which renames run ids).
pub fn show_everything(bundle: Bundle, warnings: Vec<runlens::bundle::Warning>) {
    assert!(warnings.len() <= runlens::limits::MAX_WARNINGS + 1, "warnings are capped: {}", warnings.len());
    let mut ws = Workspace::default();
    ws.add("a", bundle.clone(), warnings);
    ws.add("b", bundle, vec![]);
    let ids = ws.default_selection();
    let _ = tables::runs_table(&ws, &ids.iter().filter_map(|id| ws.shared(id).cloned()).collect::<Vec<_>>());
    let runs: Vec<_> = ids.iter().filter_map(|id| ws.run(id)).collect();
    let labels: Vec<String> = runs.iter().map(|r| r.label.clone()).collect();
    let th = runlens::model::Thresholds::default();
    let rows = runlens::analysis::compare(&runs, &th);
    let filter = RowFilter { text: "a".into(), regressions_only: true };
    let mut all = vec![
        tables::latency_table(&rows, &labels, &RowFilter::default()),
        tables::latency_table(&rows, &labels, &filter),
    ];
    for s in [
        Section::Duration,
        Section::Kpi,
        Section::Transaction,
        Section::Resource,
        Section::Index,
        Section::Error,
        Section::Tenant,
    ] {
        all.push(tables::compare_table(&rows, &labels, s, &RowFilter::default()));
    }
    all.push(tables::tenants_table(&runs));
    let diff = runlens::analysis::config_diff(&runs);
    for group in ["Modules", "Infrastructure"] {
        all.push(tables::config_table(&diff, &labels, true, group));
    }
    for r in &runs {
        all.push(tables::indices_table(r));
        let _ = runlens::chart_text::chart_text(&r.label);
    }
    if let (Some((a, b)), Some(row)) = (runlens::analysis::grid_dims(&runs), rows.first()) {
        let _ = runlens::analysis::grid(&runs, row, (&a, &b), &th);
    }
    for t in &all {
        for c in 0..t.columns.len() {
            let _ = t.sorted(c, c % 2 == 0);
        }
        let _ = (tables::to_csv(t), tables::to_markdown(t), tables::to_confluence(t));
    }
    if let Some(saved) = ws.to_bundle() {
        let json = serde_json::to_string(&saved).expect("a loaded workspace serializes");
        if let Err(e) = runlens::bundle::load_bundle("saved", json.as_bytes()) {
            // Saving may only fail to load back where the limits say so.
            assert!(matches!(e.kind, runlens::bundle::LoadErrorKind::TooLarge), "a saved workspace loads back: {e}");
        }
    }
}
