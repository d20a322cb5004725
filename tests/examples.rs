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
