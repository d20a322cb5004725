//! Tests of the compact timeline encoding: hand-worked steps, the plain form where steps would not
//! read back bit for bit, every malformed step refused, and any transaction read back as written.

use super::*;
use proptest::prelude::*;
use serde_json::{json, Value};

fn written(t: &TransactionTimeline) -> Value {
    serde_json::to_value(t).unwrap()
}

fn read(v: Value) -> Result<TransactionTimeline, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}

fn sample() -> TransactionTimeline {
    TransactionTimeline {
        name: "a".into(),
        samples: vec![3, 0, 1],
        errors: vec![1, 0, 0],
        // 10 + 2·15 = 40; 0; 31.
        sum_ms: vec![40.0, 0.0, 31.0],
        values_ms: vec![10.0, 12.0, 15.0, 20.0, 30.0, 31.0],
        exact: true,
        cells: vec![vec![0, 1, 2, 2], vec![], vec![5, 1]],
        ..Default::default()
    }
}

#[test]
fn steps_as_worked_by_hand() {
    let t = sample();
    let want = json!({
        "name": "a", "errors": [1, 0, 0], "value_steps": [10, 2, 3, 5, 10, 1], "exact": true,
        "cell_steps": [[0, 2, -1], [], [5]]
    });
    assert_eq!(written(&t), want);
    assert_eq!(read(want).unwrap(), t);
}

#[test]
fn the_plain_form_is_still_read() {
    let t = sample();
    let plain = json!({
        "name": "a", "samples": [3, 0, 1], "errors": [1, 0, 0], "sum_ms": [40.0, 0.0, 31.0],
        "values_ms": [10.0, 12.0, 15.0, 20.0, 30.0, 31.0], "exact": true,
        "cells": [[0, 1, 2, 2], [], [5, 1]]
    });
    assert_eq!(read(plain).unwrap(), t);
}

#[test]
fn what_the_cells_do_not_give_is_written() {
    // A sample without a response time (samples > the cells' counts), a sum that is not the
    // cells' (its last bit differs), fractional and negative-zero values.
    let mut t = sample();
    t.samples[1] = 1;
    t.sum_ms[2] = f64::from_bits(31f64.to_bits() + 1);
    let w = written(&t);
    assert_eq!(w["samples"], json!([3, 1, 1]));
    assert_eq!(w["sum_ms"].as_array().unwrap().len(), 3);
    assert!(w.get("cell_steps").is_some() && w.get("cells").is_none());
    assert_eq!(read(w).unwrap(), t);
    for v in [0.5, -0.0] {
        let mut f = sample();
        f.values_ms[0] = v;
        f.sum_ms[0] = v + 30.0;
        let w = written(&f);
        assert!(w.get("values_ms").is_some() && w.get("value_steps").is_none(), "{v}");
        assert_eq!(read(w).unwrap(), f);
    }
    // No sums at all: written as an empty list, not derived on reading.
    let mut n = sample();
    n.sum_ms.clear();
    let w = written(&n);
    assert_eq!(w["sum_ms"], json!([]));
    assert_eq!(read(w).unwrap(), n);
}

#[test]
fn cells_out_of_canonical_form_are_written_plain() {
    for cells in
        [vec![vec![2, 1, 0, 1], vec![], vec![]], vec![vec![0, 0], vec![], vec![]], vec![vec![0], vec![], vec![]]]
    {
        let mut t = sample();
        t.cells = cells.clone();
        let w = written(&t);
        assert_eq!(w["cells"], json!(cells));
        assert!(w.get("cell_steps").is_none());
        assert_eq!(read(w).unwrap(), t);
    }
}

#[test]
fn malformed_steps_are_refused_with_their_place() {
    let base = || json!({"name": "a", "errors": [0], "value_steps": [1, 1], "cell_steps": [[0]]});
    let cases: [(&str, Value, &str); 8] = [
        ("cell_steps", json!([[-1]]), "cell_steps[0][0]: a count"),
        ("cell_steps", json!([[0, -1, -1]]), "cell_steps[0][2]: a count"),
        ("cell_steps", json!([[1, 0]]), "cell_steps[0][1]: value indices must ascend"),
        ("cell_steps", json!([[i64::MAX, i64::MAX, 2]]), "cell_steps[0][2]: the value index overflows"),
        ("cell_steps", json!([[3]]), "points past the values"),
        ("cell_steps", json!([[0, -(i64::MAX), 1, -(i64::MAX), 1, -(i64::MAX)]]), "overflow `samples`"),
        ("value_steps", json!([1i64 << 53, 1]), "value_steps[1]: the value passes 2^53"),
        ("cells", json!([[0, 1]]), "not both"),
    ];
    for (field, value, want) in cases {
        let mut v = base();
        v[field] = value;
        if field == "cell_steps" && want.contains("overflow `samples`") {
            v["value_steps"] = json!([1, 1, 1]);
        }
        let e = read(v).unwrap_err();
        assert!(e.contains(want), "{field}: {e}");
    }
    let mut both = base();
    both["values_ms"] = json!([1.0]);
    assert!(read(both).unwrap_err().contains("not both"));
    let mut bare = base();
    bare.as_object_mut().unwrap().remove("cell_steps");
    assert!(read(bare).unwrap_err().contains("missing field `samples`"));
}

#[test]
fn a_bundle_with_a_bad_step_names_its_path() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/public/examples/apicurio-gatling-timeline.json");
    let b = crate::bundle::load_bundle_str("x.json", &std::fs::read_to_string(path).unwrap()).unwrap().bundle;
    let mut v: Value = serde_json::from_str(&crate::bundle::to_json(&b, false).unwrap()).unwrap();
    let t = &mut v["runs"][1]["timeline"]["transactions"][2];
    assert!(t.get("cell_steps").is_some(), "the writer writes steps");
    t["cell_steps"][0] = json!([-3]);
    let e = crate::bundle::load_bundle_str("x.json", &v.to_string()).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("runs[1].timeline.transactions[2]"), "{e:?}");
    assert!(e.message.contains("cell_steps[0][0]"), "{e:?}");
}

/// A bucket's (value index, count) pairs before they are sorted or not.
type Cell = Vec<(u64, u64)>;

fn transaction() -> impl Strategy<Value = TransactionTimeline> {
    let values = prop_oneof![
        prop::collection::btree_set(-1000i64..100_000, 0..12).prop_map(|s| s.into_iter().map(|v| v as f64).collect()),
        prop::collection::vec(any::<f64>().prop_filter("finite", |v| v.is_finite()), 0..12),
    ];
    let counts = prop_oneof![Just(1u64), 0u64..4, Just(u64::MAX)];
    let cell = prop::collection::vec((0u64..14, counts), 0..6);
    (values, prop::collection::vec(cell, 0..5), any::<bool>(), prop::collection::vec(0u64..3, 0..5)).prop_map(
        |(values_ms, raw, sorted, extra): (Vec<f64>, Vec<Cell>, bool, Vec<u64>)| {
            let cells: Vec<Vec<u64>> = raw
                .into_iter()
                .map(|mut c| {
                    if sorted {
                        c.sort_unstable();
                        c.dedup_by_key(|p| p.0);
                    }
                    c.into_iter().flat_map(|(i, n)| [i, n]).collect()
                })
                .collect();
            let derived = samples_of(&cells).unwrap_or_default();
            let samples = derived
                .iter()
                .zip(extra.iter().chain(std::iter::repeat(&0)))
                .map(|(a, b)| a.saturating_add(*b))
                .collect();
            let sum_ms = sums_of(&cells, &values_ms).unwrap_or_default();
            TransactionTimeline {
                name: "t".into(),
                samples,
                errors: vec![0; cells.len()],
                sum_ms,
                values_ms,
                cells,
                ..Default::default()
            }
        },
    )
}

proptest! {
    /// Whatever the model holds, the bundle gives it back bit for bit.
    #[test]
    fn any_transaction_reads_back_as_written(t in transaction()) {
        // A bundle carries finite numbers only (`wire::finite`); huge values times huge counts
        // are not.
        prop_assume!(t.sum_ms.iter().all(|v| v.is_finite()));
        let text = serde_json::to_string(&t).unwrap();
        let back: TransactionTimeline = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back.values_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), t.values_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
        prop_assert_eq!(back.sum_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), t.sum_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
        prop_assert_eq!(back, t);
    }
}
