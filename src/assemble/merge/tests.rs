//! Distributions read back from transactions, and `Values::add_repeated`.

use super::*;
use crate::import::common::samples::{Sample, Values};

fn stats_of(values: &[u64]) -> LabelStats {
    let mut l = LabelStats { name: "x".into(), ..Default::default() };
    for (i, v) in values.iter().enumerate() {
        l.add(&Sample { elapsed_ms: Some(*v), start_ms: Some(1_000 + i as i64), ..Default::default() });
    }
    l
}

#[test]
fn repeated_values_equal_values_added_one_by_one() {
    let data: Vec<f64> = vec![3.0, 3.0, 5000.0, 1.5, 4095.0, 4096.0, 1.5, 0.0, 7.25];
    let (mut one, mut rep) = (Values::default(), Values::default());
    data.iter().for_each(|v| one.add_f64(*v));
    for (v, c) in one.sorted() {
        rep.add_repeated(v, c);
    }
    assert_eq!(rep.sorted(), one.sorted());
    assert_eq!(rep.summary(&[50.0, 99.0]), one.summary(&[50.0, 99.0]));
    let (mut ints, mut irep) = (Values::default(), Values::default());
    (0..3000u64).for_each(|i| ints.add_int(i % 301 * 17));
    ints.sorted().into_iter().for_each(|(v, c)| irep.add_repeated(v, c));
    assert_eq!(irep.summary(&[95.0]), ints.summary(&[95.0]));
}

#[test]
fn a_histogram_of_every_value_is_exact_and_a_bucketed_one_is_not() {
    let few = stats_of(&(0..2000).map(|i| 100 + i % 200).collect::<Vec<_>>()).to_transaction((None, None));
    let d = dist::of(&few, None).unwrap();
    assert!(d.exact);
    assert_eq!(d.count(), 2000);
    let many = stats_of(&(0..2000).map(|i| 100 + i % 700).collect::<Vec<_>>()).to_transaction((None, None));
    let d = dist::of(&many, None).unwrap();
    assert!(!d.exact, "700 distinct values are bucketed");
    let mut summary = few.clone();
    summary.histogram = None;
    assert_eq!(dist::of(&summary, None), None, "a summary has no distribution");
}

#[test]
fn two_generators_add_up_to_one() {
    let all: Vec<u64> = (0..1000).map(|i| (i * 37) % 180 + 20).collect();
    type Rows = Vec<(usize, u64)>;
    let (a, b): (Rows, Rows) = all.iter().copied().enumerate().partition(|(i, _)| i % 3 == 0);
    let run_of = |v: &[(usize, u64)]| {
        let mut l = LabelStats { name: "x".into(), ..Default::default() };
        for (i, e) in v {
            l.add(&Sample {
                elapsed_ms: Some(*e),
                start_ms: Some(1_000 * *i as i64),
                errors: u64::from(i % 10 == 0),
                ..Default::default()
            });
        }
        let w = (l.first_start_ms, l.last_end_ms);
        Run {
            id: "r".into(),
            start: w.0.map(civil::iso_utc),
            end: w.1.map(civil::iso_utc),
            transactions: vec![l.to_transaction(w)],
            ..Default::default()
        }
    };
    let (ra, rb) = (run_of(&a), run_of(&b));
    let m = samples(&[("a.jtl", &ra), ("b.jtl", &rb)]);
    let want = run_of(&all.iter().copied().enumerate().collect::<Vec<_>>());
    assert_eq!(m.transactions, want.transactions);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
}

/// A run of one label whose samples are `values` (one a second from `t0` ms), with its timeline
/// (1 s buckets, every value) when `timeline` is set.
fn run_with(values: &[u64], t0: i64, timeline: bool) -> Run {
    let mut l = LabelStats { name: "x".into(), ..Default::default() };
    for (i, v) in values.iter().enumerate() {
        l.add(&Sample { elapsed_ms: Some(*v), start_ms: Some(t0 + 1000 * i as i64), ..Default::default() });
    }
    let w = (l.first_start_ms, l.last_end_ms);
    let tl = timeline.then(|| {
        let mut distinct: Vec<f64> = values.iter().map(|v| *v as f64).collect();
        distinct.sort_by(f64::total_cmp);
        distinct.dedup();
        let cell = |v: u64| vec![distinct.iter().position(|d| *d == v as f64).unwrap() as u64, 1];
        crate::bundle::Timeline {
            start_ms: t0,
            origin_ms: t0,
            interval_s: 1,
            buckets: values.len() as u32,
            transactions: vec![crate::bundle::TransactionTimeline {
                name: "x".into(),
                samples: vec![1; values.len()],
                errors: vec![0; values.len()],
                exact: true,
                cells: values.iter().map(|v| cell(*v)).collect(),
                values_ms: distinct.clone(),
                ..Default::default()
            }],
            ..Default::default()
        }
    });
    Run {
        id: "r".into(),
        start: w.0.map(civil::iso_utc),
        end: w.1.map(civil::iso_utc),
        transactions: vec![l.to_transaction(w)],
        timeline: tl,
        ..Default::default()
    }
}

#[test]
fn an_exact_timeline_makes_a_bucketed_histogram_merge_exactly() {
    // 400 distinct values per generator: the histograms are in buckets, the timelines exact.
    let a: Vec<u64> = (0..400).map(|i| 1000 + i * 3).collect();
    let b: Vec<u64> = (0..400).map(|i| 1001 + i * 3).collect();
    let t0 = 1_700_000_000_000;
    let (ra, rb) = (run_with(&a, t0, true), run_with(&b, t0, true));
    assert!(!dist::histogram_is_exact(&ra.transactions[0], &dist::of(&ra.transactions[0], None).unwrap().pairs));
    let m = samples(&[("a", &ra), ("b", &rb)]);
    let all: Vec<u64> = a.iter().chain(&b).copied().collect();
    let mut sorted = all.clone();
    sorted.sort();
    let rank = |p: f64| sorted[((p * sorted.len() as f64 / 100.0).ceil() as usize).max(1) - 1] as f64;
    let t = &m.transactions[0];
    assert_eq!(
        (t.median_ms, t.p90_ms, t.p95_ms, t.p99_ms),
        (Some(rank(50.0)), Some(rank(90.0)), Some(rank(95.0)), Some(rank(99.0)))
    );
    assert!(!m.warnings.iter().any(|w| w.message.contains("histogram bucket")), "{:?}", m.warnings);
    // Without timelines the same merge is within a bucket, and says so.
    let (ha, hb) = (run_with(&a, t0, false), run_with(&b, t0, false));
    let m = samples(&[("a", &ha), ("b", &hb)]);
    assert!(m.warnings.iter().any(|w| w.message.contains("histogram bucket")));
    let p95 = m.transactions[0].p95_ms.unwrap();
    assert!((p95 - rank(95.0)).abs() <= rank(95.0) * 0.032, "{p95} vs {}", rank(95.0));
}

#[test]
fn a_run_of_two_generators_merges_their_timelines() {
    let t0 = 1_700_000_000_000;
    let parts = vec![
        crate::assemble::group::Part { source: "a.jtl".into(), run: run_with(&[5, 6, 7], t0, true) },
        crate::assemble::group::Part { source: "b.jtl".into(), run: run_with(&[6, 9], t0 + 2000, true) },
    ];
    let spec = crate::assemble::group::RunSpec { id: "r".into(), ..Default::default() };
    let (run, warnings) = crate::assemble::group::merge_runs(&spec, parts);
    assert!(warnings.is_empty(), "{warnings:?}");
    let tl = run.timeline.expect("merged timeline");
    assert_eq!(tl.buckets, 4);
    let x = &tl.transactions[0];
    assert_eq!(x.samples, vec![1, 1, 2, 1]);
    assert_eq!(x.values_ms, vec![5.0, 6.0, 7.0, 9.0]);
    assert_eq!(x.cells[2], vec![1, 1, 2, 1], "bucket 2 holds a 7 (index 2) and a 6 (index 1)");
    assert_eq!(run.transactions[0].samples, Some(5));
}

#[test]
fn a_run_of_one_file_keeps_its_timeline_without_copying_it() {
    // A run's timeline can be megabytes (a 1M-row JTL's: 6 MB), made in a worker whose memory
    // keeps its largest size: a run of one file takes its timeline as it is (decision 0062).
    let t0 = 1_700_000_000_000;
    let run = run_with(&[5, 6, 7], t0, true);
    let before = run.timeline.as_ref().map(|t| t.transactions.as_ptr());
    let spec = crate::assemble::group::RunSpec { id: "r".into(), ..Default::default() };
    let group = crate::assemble::group::Group {
        run: Some(spec),
        files: vec![crate::assemble::group::File {
            name: "a.jtl".into(),
            bundle: crate::bundle::Bundle { runs: vec![run], ..crate::assemble::group::bundle_around_runs() },
        }],
    };
    let options = crate::assemble::group::Options::default();
    let (bundle, warnings) = crate::assemble::group::bundle_of(None, vec![group], &options).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let after = bundle.runs[0].timeline.as_ref().map(|t| t.transactions.as_ptr());
    assert_eq!(after, before, "the same timeline, moved through the merge and out of the workspace");
    assert_eq!(bundle.runs[0].timeline.as_ref().unwrap().transactions[0].samples, vec![1, 1, 1]);
}
