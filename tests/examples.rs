//! The example bundles in public/examples: each loads without errors or warnings, round-trips
//! (load, serialize, load: equal), and is listed in public/examples/index.json.
#![cfg(not(target_arch = "wasm32"))]

use runlens::bundle::{load_bundle_str, Loaded};
use std::path::Path;

fn examples() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.file_name().unwrap() != "index.json")
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    out
}

fn load(name: &str, text: &str) -> Loaded {
    load_bundle_str(name, text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_example_loads_cleanly_and_round_trips() {
    let all = examples();
    assert!(all.len() >= 4, "expected the four seed examples, found {}", all.len());
    for (name, text) in all {
        let first = load(&name, &text);
        assert!(first.warnings.is_empty(), "{name}: warnings {:?}", first.warnings);
        let written = serde_json::to_string_pretty(&first.bundle).unwrap();
        let second = load(&name, &written);
        assert_eq!(first.bundle, second.bundle, "{name} changed in a round trip");
    }
}

#[test]
fn index_lists_every_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("index.json")).unwrap()).unwrap();
    let listed: Vec<&str> = index.as_array().unwrap().iter().map(|e| e["file"].as_str().unwrap()).collect();
    for (name, _) in examples() {
        assert!(listed.contains(&name.as_str()), "{name} is not listed in index.json");
    }
}

/// An entry's `view` (the view its card opens on) is a view's URL slug.
#[test]
fn index_views_are_view_slugs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("index.json")).unwrap()).unwrap();
    let views: Vec<&str> = index.as_array().unwrap().iter().filter_map(|e| e.get("view")?.as_str()).collect();
    assert!(views.contains(&"timeline"), "the JTL + CloudWatch + docker demo opens on Timeline: {views:?}");
    for v in views {
        assert!(runlens::urlstate::View::from_slug(v).is_some(), "{v} is not a view");
    }
}

/// The nightly history is `support::history`'s (`UPDATE_EXAMPLES=1` writes it), and its change
/// points are the shifts it was made with: search 12 % slower from night 26, checkout 15 % from
/// night 31 (expected, by its annotation); neither browse's one-night spike nor the excluded night.
#[test]
fn the_nightly_history_is_generated_and_its_shifts_are_the_known_ones() {
    use runlens::analysis::changepoint::history::{history_shifts, ShiftKind};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples/nightly-history.json");
    let want = support::history::nightly_history();
    if std::env::var_os("UPDATE_EXAMPLES").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), want, "run UPDATE_EXAMPLES=1 cargo test --test examples");
    let loaded = load("nightly-history.json", &want);
    let runs: Vec<&runlens::bundle::Run> = loaded.bundle.runs.iter().collect();
    let shifts = history_shifts(&runs, None, &Default::default());
    let got: Vec<(String, &str, ShiftKind)> =
        shifts.iter().map(|s| (s.metric.clone(), s.run_id.as_str(), s.kind)).collect();
    let want = [
        ("median of search", "nightly-26", ShiftKind::Regression),
        ("p95 of search", "nightly-26", ShiftKind::Regression),
        ("median of checkout", "nightly-31", ShiftKind::Expected),
        ("p95 of checkout", "nightly-31", ShiftKind::Expected),
    ];
    let want: Vec<(String, &str, ShiftKind)> = want.iter().map(|(m, r, k)| (m.to_string(), *r, *k)).collect();
    assert_eq!(got, want, "{:#?}", shifts.iter().map(|s| s.sentence()).collect::<Vec<_>>());
}
