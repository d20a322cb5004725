//! Histories: a corpus history's first night against its last, and `--history`'s change points.

use super::*;

/// A history from the corpus (tests/corpus/SOURCES.md): its first night against its last.
#[test]
fn a_corpus_history_first_against_last() {
    let history = format!(
        "{}/../tests/corpus/jmeter-aggregate-history/ballerina-h1_h1_passthrough-nightly-summary.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let d = setup(&[
        ("tput.toml", "[[fail]]\nwhen = \"throughput < -5%\"\n"),
        ("lat.toml", "[[fail]]\nwhen = \"latency > 10 s\"\n"),
    ]);
    let first = format!("{history}#first");
    let last = format!("{history}#last");
    let o = runlens(d.path(), &["compare", &first, &last, "--criteria", "tput.toml"]);
    assert_eq!(code(&o), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("HTTP Request · throughput: 5,510/s → 3,743/s (−32.1%)"), "{}", text(&o.stdout));
    assert_eq!(code(&runlens(d.path(), &["compare", "-q", &first, &last, "--criteria", "lat.toml"])), Some(0));
}

#[test]
fn history_lists_its_change_points_and_leaves_the_exit_code_alone() {
    // The example history: search shifts +12% at nightly-26; checkout at nightly-31, annotated as
    // an expected change; a one-night spike in browse is no change point.
    let history = Path::new(env!("CARGO_MANIFEST_DIR")).join("../public/examples/nightly-history.json");
    let h = history.to_str().unwrap();
    let dir = TempDir::new().unwrap();
    let (base, cand) = (format!("{h}#nightly-24"), format!("{h}#nightly-25"));
    let plain = runlens(dir.path(), &["compare", &base, &cand, "--format", "json"]);
    let with = runlens(dir.path(), &["compare", &base, &cand, "--format", "json", "--history", h]);
    assert_eq!(code(&with), code(&plain), "{}", text(&with.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&with.stdout).unwrap();
    let shifts = doc["history"]["shifts"].as_array().unwrap();
    let found: Vec<(&str, &str, &str)> = shifts
        .iter()
        .map(|s| (s["metric"].as_str().unwrap(), s["run_id"].as_str().unwrap(), s["kind"].as_str().unwrap()))
        .collect();
    assert!(found.contains(&("p95 of search", "nightly-26", "regression")), "{found:?}");
    assert!(found.contains(&("p95 of checkout", "nightly-31", "expected")), "{found:?}");
    assert!(found.iter().all(|f| !f.0.contains("browse")), "a one-night spike is no shift: {found:?}");
    assert_eq!(doc["history"]["runs"], 40);
    let md = runlens(dir.path(), &["compare", &base, &cand, "--format", "markdown", "--history", h]);
    let md = text(&md.stdout);
    assert!(md.contains("**Persistent shifts over the 40 runs of"), "{md}");
    assert!(md.contains("- p95 of search · shifted \\+13"), "{md}");
}
