use super::*;
use crate::bundle::{load_bundle, split::split};
use serde_json::{json, Value};

fn generated(runs: usize) -> Value {
    let runs: Vec<Value> = (0..runs)
        .map(|r| {
            let txs: Vec<Value> = (0..30)
                .map(|i| {
                    let b = 10.0 + i as f64 + r as f64;
                    json!({"name": format!("tx {i} \"q\" \\ [{r}]"), "samples": 100, "errors": i % 3, "median_ms": b, "p90_ms": b * 1.5, "max_ms": b * 3.0,
                           "histogram": {"upper_bounds_ms": [b, b * 2.0, b * 4.0], "counts": [50, 40, 10]}})
                })
                .collect();
            json!({"id": format!("run-{r}"), "label": format!("Run {r} — é"), "transactions": txs})
        })
        .collect();
    json!({"format": "runlens-bundle", "version": 1, "report": {"title": "Generated", "notes": ["runs: [1, 2]"]}, "runs": runs,
           "comparisons": [{"baseline": "run-0", "candidates": ["run-5"]}]})
}

/// The threads' load equals the one-pass load, result for result (bundle and warnings, or the
/// error), for 2 to 4 groups.
fn assert_same(text: &str) {
    let one = load_bundle("b.json", text.as_bytes());
    for groups in 2..5 {
        assert_eq!(load_bundle_threads("b.json", text.as_bytes(), groups), one, "{groups} groups");
    }
}

/// Whether the split path itself (no fallback) loads the text.
fn splits_cleanly(text: &str) -> bool {
    let cut = split(text.as_bytes(), 2).unwrap();
    let later: Option<Vec<Vec<Run>>> = cut.parts.iter().map(|(first, p)| load_runs(p, *first)).collect();
    let (Some(later), Some(head)) = (later, parse_head(&cut.head)) else { return false };
    let ids: Vec<String> = later.iter().flatten().map(|r| r.id.clone()).collect();
    finish_head("b.json", head, &ids).is_some()
}

#[test]
fn every_example_loads_as_in_one_pass() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") && !p.ends_with("index.json") {
            assert_same(&std::fs::read_to_string(&p).unwrap());
        }
    }
}

#[test]
fn a_clean_bundle_takes_the_split_path_and_loads_as_in_one_pass() {
    let mut v = generated(9);
    // Warnings in the head are fine: unknown fields anywhere around the runs, a run warned about.
    v["generator"] = json!({"name": "x"});
    v["runs"][0]["transactions"][0]["p90_ms"] = json!(1.0);
    v["runs"][1]["extra"] = json!(true);
    let text = v.to_string();
    assert!(splits_cleanly(&text));
    assert_same(&text);
    let loaded = load_bundle_threads("b.json", text.as_bytes(), 3).unwrap();
    assert_eq!(loaded.bundle.runs.len(), 9);
    let paths: Vec<&str> = loaded.warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(paths, ["generator", "runs[1].extra", "runs[0].transactions[0].p90_ms"]);
}

#[test]
fn anything_odd_in_a_later_group_falls_back_to_one_pass() {
    type Edit = Box<dyn Fn(&mut Value)>;
    let edits: Vec<(&str, Edit)> = vec![
        ("a warning", Box::new(|v| v["runs"][7]["transactions"][3]["p90_ms"] = json!(1.0))),
        ("an unknown field", Box::new(|v| v["runs"][8]["x"] = json!([1]))),
        ("a wrong type", Box::new(|v| v["runs"][6]["transactions"][2]["samples"] = json!("many"))),
        ("a duplicate id across groups", Box::new(|v| v["runs"][8]["id"] = json!("run-1"))),
        ("an empty id", Box::new(|v| v["runs"][7]["id"] = json!(" "))),
        ("a comparison with a missing run", Box::new(|v| v["comparisons"][0]["candidates"][0] = json!("run-x"))),
    ];
    for (what, edit) in edits {
        let mut v = generated(9);
        edit(&mut v);
        let text = serde_json::to_string_pretty(&v).unwrap();
        assert!(!splits_cleanly(&text), "{what}");
        assert_same(&text);
    }
    // Text that is not JSON after the runs, and a cut through a string.
    let text = generated(9).to_string();
    assert_same(&format!("{text} x"));
    assert_same(&text[..text.len() - 1]);
}

#[test]
fn too_many_runs_are_refused_as_in_one_pass() {
    let mut v = generated(2);
    let one = v["runs"][0].clone();
    v["runs"] = Value::Array(
        (0..=crate::limits::MAX_RUNS)
            .map(|i| {
                let mut r = one.clone();
                r["id"] = json!(format!("r{i}"));
                r
            })
            .collect(),
    );
    v["comparisons"] = json!([]);
    let text = v.to_string();
    let err = load_bundle_threads("b.json", text.as_bytes(), 2).unwrap_err();
    assert_eq!(err.kind, crate::bundle::LoadErrorKind::TooLarge);
    assert_same(&text);
}
