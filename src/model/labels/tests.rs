//! Tests of label rules: the matcher on hand-made and corpus labels, merges against brute force
//! over the concatenated samples, timelines merged bucket by bucket.

use super::*;
use crate::bundle::{
    CauseTimeline, Histogram, LabelRule, LabelRuleKind, Run, Timeline, Transaction, TransactionTimeline,
};

fn rule(kind: LabelRuleKind, pattern: &str, to: Option<&str>) -> LabelRule {
    LabelRule { kind, pattern: pattern.into(), to: to.map(str::to_string) }
}

#[test]
fn ids_uuids_and_long_hex_collapse_words_stay() {
    for (label, want) in [
        ("GET /users/123", "GET /users/{id}"),
        ("GET /users/123/orders/7?page=2", "GET /users/{id}/orders/{id}?page={id}"),
        ("DELETE /items/550e8400-e29b-41d4-a716-446655440000", "DELETE /items/{id}"),
        ("/doc/550E8400-E29B-41D4-A716-446655440000/x", "/doc/{id}/x"),
        ("/obj/5f2b6c1e9d3a4b0012ab34cd", "/obj/{id}"),
        ("/api/v2/item42", "/api/v2/item42"),
        ("/hex/deadbeefcafe", "/hex/deadbeefcafe"),
        ("HP-0", "HP-{id}"),
        ("Query ehr_id #3", "Query ehr_id #{id}"),
        ("né 12 ü", "né {id} ü"),
        ("", ""),
        ("login", "login"),
    ] {
        assert_eq!(collapse_ids(label), want, "{label}");
    }
    // A UUID glued to a word is not a UUID.
    assert_eq!(collapse_ids("x550e8400-e29b-41d4-a716-446655440000"), "x550e8400-e29b-41d4-a716-{id}");
}

#[test]
fn rules_apply_in_order_and_includes_in_a_row_are_alternatives() {
    use LabelRuleKind::*;
    let rules = Rules::new(&[
        rule(Ids, "", None),
        rule(Rename, "GET /users/{id}*", Some("user")),
        rule(Include, "user", None),
        rule(Include, "search?", None),
        rule(Exclude, "searchX", None),
    ]);
    assert_eq!(rules.map("GET /users/9"), Some("user".into()));
    assert_eq!(rules.map("GET /users/9/orders"), Some("user".into()));
    assert_eq!(rules.map("search1"), Some("search1".into()));
    assert_eq!(rules.map("searchX"), None);
    assert_eq!(rules.map("login"), None);
    // An exact label with glob characters matches itself.
    let lit = Rules::new(&[rule(Rename, "a*[b]?", Some("c"))]);
    assert_eq!(lit.map("a*[b]?"), Some("c".into()));
    // Unusable rules are skipped, and say why.
    let bad = [rule(Rename, "a", None), rule(Include, "", None)];
    assert!(bad.iter().all(|r| problem(r).is_some()));
    assert!(Rules::new(&bad).is_empty());
}

/// Nearest rank over the samples themselves, as the definition says: sorted[⌈p·n/100⌉ − 1].
fn brute_percentile(samples: &[u32], p: f64) -> f64 {
    let mut s = samples.to_vec();
    s.sort_unstable();
    let rank = ((p / 100.0 * s.len() as f64).ceil() as usize).max(1);
    f64::from(s[rank - 1])
}

/// A transaction of `samples` with a histogram of every distinct value.
fn txn(name: &str, samples: &[u32], errors: u64) -> Transaction {
    let mut distinct: Vec<u32> = samples.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let n = samples.len() as f64;
    Transaction {
        name: name.into(),
        samples: Some(samples.len() as u64),
        errors: Some(errors),
        mean_ms: Some(samples.iter().map(|v| f64::from(*v)).sum::<f64>() / n),
        min_ms: distinct.first().map(|v| f64::from(*v)),
        max_ms: distinct.last().map(|v| f64::from(*v)),
        throughput_run_per_s: Some(n / 10.0),
        histogram: Some(Histogram {
            upper_bounds_ms: distinct.iter().map(|v| f64::from(*v)).collect(),
            counts: distinct.iter().map(|d| samples.iter().filter(|v| *v == d).count() as u64).collect(),
        }),
        percentiles: [("p75".to_string(), 0.0)].into_iter().collect(),
        ..Default::default()
    }
}

#[test]
fn merged_histograms_give_the_percentiles_of_the_concatenated_samples() {
    // Seeded pseudo-random parts of different sizes and ranges.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % m) as u32
    };
    for round in 0..20 {
        let parts: Vec<Vec<u32>> = (0..2 + round % 3)
            .map(|i: u32| (0..1 + next(200)).map(|_| 10 * i + next(50 + 40 * u64::from(i))).collect())
            .collect();
        let all: Vec<u32> = parts.concat();
        let ts: Vec<Transaction> =
            parts.iter().enumerate().map(|(i, s)| txn(&format!("/u/{i}"), s, i as u64)).collect();
        let run = Run { transactions: ts, ..Default::default() };
        let out = apply(&run, &Rules::new(&[rule(LabelRuleKind::Ids, "", None)]));
        assert_eq!(out.transactions.len(), 1);
        let m = &out.transactions[0];
        assert_eq!(m.name, "/u/{id}");
        assert_eq!(m.samples, Some(all.len() as u64));
        assert_eq!(m.errors, Some((0..parts.len() as u64).sum()));
        for (got, p) in [(m.median_ms, 50.0), (m.p90_ms, 90.0), (m.p95_ms, 95.0), (m.p99_ms, 99.0)] {
            assert_eq!(got, Some(brute_percentile(&all, p)), "p{p} round {round}");
        }
        assert_eq!(m.percentiles.get("p75"), Some(&brute_percentile(&all, 75.0)));
        let mean = all.iter().map(|v| f64::from(*v)).sum::<f64>() / all.len() as f64;
        assert!((m.mean_ms.unwrap() - mean).abs() < 1e-9 * mean.max(1.0));
        assert_eq!(m.min_ms, all.iter().min().map(|v| f64::from(*v)));
        assert_eq!(m.max_ms, all.iter().max().map(|v| f64::from(*v)));
        assert!((m.throughput_run_per_s.unwrap() - all.len() as f64 / 10.0).abs() < 1e-9);
        assert!(m.note.as_deref().unwrap_or_default().contains("histograms"));
    }
}

#[test]
fn without_histograms_percentiles_are_weighted_and_say_so() {
    let t = |name: &str, n: u64, p95: f64| Transaction {
        name: name.into(),
        samples: Some(n),
        p95_ms: Some(p95),
        ..Default::default()
    };
    let run =
        Run { transactions: vec![t("a 1", 10, 100.0), t("b", 5, 7.0), t("a 2", 30, 200.0)], ..Default::default() };
    let out = apply(&run, &Rules::new(&[rule(LabelRuleKind::Ids, "", None)]));
    let names: Vec<&str> = out.transactions.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a {id}", "b"]);
    assert_eq!(out.transactions[0].p95_ms, Some((10.0 * 100.0 + 30.0 * 200.0) / 40.0));
    assert_eq!(out.transactions[0].mean_ms, None);
    assert!(out.transactions[0].note.as_deref().unwrap_or_default().contains("not exact"));
    assert_eq!(out.transactions[1], run.transactions[1]);
}

#[test]
fn corpus_labels_with_ids_merge_into_the_counts_of_their_rows() {
    for file in ["ehrbase-2022-05-13.jtl", "perfplugin-transactions.csv"] {
        let path = format!("{}/tests/corpus/jmeter-csv/{file}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        let imp = crate::import::import(&path, &bytes[..], None, &mut |_, _| {}).unwrap();
        let run = &imp.bundle.runs[0];
        let out = apply(run, &Rules::new(&[rule(LabelRuleKind::Ids, "", None)]));
        // Brute force from the rows: elapsed times per collapsed label.
        let mut rows = csv::Reader::from_reader(&bytes[..]);
        let head = rows.headers().unwrap().clone();
        let col = |n: &str| head.iter().position(|h| h == n).unwrap();
        let (label, elapsed) = (col("label"), col("elapsed"));
        let mut by: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
        let known: std::collections::HashSet<&str> = run.transactions.iter().map(|t| t.name.as_str()).collect();
        for r in rows.records().map(Result::unwrap) {
            if known.contains(&r[label]) {
                by.entry(collapse_ids(&r[label]).into_owned()).or_default().push(r[elapsed].parse().unwrap());
            }
        }
        assert!(out.transactions.len() < run.transactions.len(), "{file}: nothing merged");
        assert_eq!(out.transactions.len(), by.len(), "{file}");
        for t in &out.transactions {
            let s = &by[&t.name];
            assert_eq!(t.samples, Some(s.len() as u64), "{file} {}", t.name);
            if t.histogram.as_ref().is_some_and(|h| h.upper_bounds_ms.len() < 256) {
                assert_eq!(t.p95_ms, Some(brute_percentile(s, 95.0)), "{file} {}", t.name);
                assert_eq!(t.median_ms, Some(brute_percentile(s, 50.0)), "{file} {}", t.name);
            }
        }
    }
}

#[test]
fn timelines_merge_bucket_by_bucket_and_causes_follow_their_labels() {
    let tt = |name: &str, values: Vec<f64>, cells: Vec<Vec<u64>>| TransactionTimeline {
        name: name.into(),
        samples: cells.iter().map(|c| c.chunks(2).map(|p| p[1]).sum()).collect(),
        errors: vec![0, 1],
        values_ms: values,
        exact: true,
        cells,
        ..Default::default()
    };
    let cause = |t: &str, counts: Vec<u64>| CauseTimeline {
        transaction: t.into(),
        message: "m".into(),
        counts,
        ..Default::default()
    };
    let tl = Timeline {
        interval_s: 1,
        buckets: 2,
        transactions: vec![
            tt("/a/1", vec![5.0, 9.0], vec![vec![0, 2], vec![1, 1]]),
            tt("/b", vec![1.0], vec![vec![], vec![0, 3]]),
            tt("/a/2", vec![3.0, 9.0], vec![vec![0, 1, 1, 1], vec![]]),
        ],
        causes: vec![cause("/a/1", vec![1, 1]), cause("/a/2", vec![0, 2, 1, 3]), cause("/b", vec![1, 1])],
        ..Default::default()
    };
    let run = Run { timeline: Some(tl), ..Default::default() };
    let rules = Rules::new(&[rule(LabelRuleKind::Ids, "", None), rule(LabelRuleKind::Exclude, "/b", None)]);
    let out = apply(&run, &rules);
    let tl = out.usable_timeline().expect("still well formed");
    assert_eq!(tl.transactions.len(), 1);
    let a = &tl.transactions[0];
    assert_eq!(a.name, "/a/{id}");
    assert_eq!(a.values_ms, [3.0, 5.0, 9.0]);
    // Bucket 0: 5 ms ×2 (first), 3 ms ×1 and 9 ms ×1 (second); bucket 1: 9 ms ×1.
    assert_eq!(a.cells, [vec![0, 1, 1, 2, 2, 1], vec![2, 1]]);
    assert_eq!((a.samples.clone(), a.errors.clone(), a.exact), (vec![4, 1], vec![0, 2], true));
    assert_eq!(tl.causes.len(), 1);
    assert_eq!((tl.causes[0].transaction.as_str(), tl.causes[0].counts.clone()), ("/a/{id}", vec![0, 2, 1, 4]));
}

#[test]
fn ordered_keys_sort_as_total_cmp_and_come_back() {
    let mut v = vec![3.5, -0.0, 0.0, -2.0, f64::INFINITY, 1e-300, -1e300, 12.0, f64::NEG_INFINITY];
    let mut by_key = v.clone();
    by_key.sort_by_key(|x| merge::ordered(*x));
    v.sort_by(f64::total_cmp);
    assert_eq!(
        by_key.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        v.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    assert!(v.iter().all(|x| merge::from_ordered(merge::ordered(*x)).to_bits() == x.to_bits()));
}

#[test]
fn a_run_total_in_the_timeline_is_no_label_and_stays() {
    let entry = |name: &str, total: bool| TransactionTimeline {
        name: name.into(),
        samples: vec![3],
        errors: vec![1],
        total,
        ..Default::default()
    };
    let run = Run {
        timeline: Some(Timeline {
            interval_s: 1,
            buckets: 1,
            transactions: vec![entry("Aggregated", true), entry("Aggregated", false)],
            ..Default::default()
        }),
        ..Default::default()
    };
    let out = apply(&run, &Rules::new(&[rule(LabelRuleKind::Exclude, "Agg*", None)]));
    let tl = out.timeline.unwrap();
    assert_eq!(tl.transactions, [entry("Aggregated", true)], "the total stays, the transaction of its name goes");
}
