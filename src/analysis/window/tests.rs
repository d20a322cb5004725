//! Window statistics against a brute-force recount of the raw samples whose start falls in it.

use super::*;
use crate::bundle::{Timeline, Transaction, TransactionTimeline};
use crate::import::common::samples::nearest_rank;
use proptest::prelude::*;

/// (label, start ms after origin, elapsed ms, failed)
type Row = (usize, i64, u64, bool);

const ORIGIN_MS: i64 = 1_700_000_003_000;

/// A timeline built the plain way: every distinct value, every bucket of 10 s.
fn timeline_of(rows: &[Row], labels: usize) -> Timeline {
    let first = rows.iter().map(|r| ORIGIN_MS + r.1).min().unwrap_or(ORIGIN_MS);
    let last = rows.iter().map(|r| ORIGIN_MS + r.1).max().unwrap_or(ORIGIN_MS);
    let (interval_s, start_ms, buckets) = crate::bundle::interval_for(first, last);
    let w = interval_s as i64 * 1000;
    let bucket = |r: &Row| ((ORIGIN_MS + r.1 - start_ms) / w) as usize;
    let transactions = (0..labels)
        .map(|l| {
            let mine: Vec<&Row> = rows.iter().filter(|r| r.0 == l).collect();
            let mut values: Vec<f64> = mine.iter().map(|r| r.2 as f64).collect();
            values.sort_by(f64::total_cmp);
            values.dedup();
            let mut t = TransactionTimeline {
                name: format!("t{l}"),
                samples: vec![0; buckets as usize],
                errors: vec![0; buckets as usize],
                sum_ms: vec![0.0; buckets as usize],
                cells: vec![vec![]; buckets as usize],
                exact: true,
                values_ms: values.clone(),
                ..Default::default()
            };
            for r in &mine {
                let b = bucket(r);
                t.samples[b] += 1;
                t.errors[b] += r.3 as u64;
                t.sum_ms[b] += r.2 as f64;
                let i = values.iter().position(|v| *v == r.2 as f64).unwrap() as u64;
                match t.cells[b].chunks_exact_mut(2).find(|p| p[0] == i) {
                    Some(p) => p[1] += 1,
                    None => t.cells[b].extend([i, 1]),
                }
            }
            for c in &mut t.cells {
                let mut pairs: Vec<[u64; 2]> = c.chunks_exact(2).map(|p| [p[0], p[1]]).collect();
                pairs.sort();
                *c = pairs.concat();
            }
            t
        })
        .collect();
    Timeline { start_ms, origin_ms: first, interval_s, buckets, users: vec![], transactions, causes: vec![] }
}

fn run_of(rows: &[Row], labels: usize) -> Run {
    Run {
        id: "r".into(),
        label: "r".into(),
        transactions: (0..labels).map(|l| Transaction { name: format!("t{l}"), ..Default::default() }).collect(),
        timeline: Some(timeline_of(rows, labels)),
        ..Default::default()
    }
}

proptest! {
    #[test]
    fn window_statistics_equal_a_recount_of_the_raw_rows(
        rows in prop::collection::vec((0usize..3, 0i64..900_000, 0u64..3_000, any::<bool>()), 1..400),
        from in 0u32..900, len in 1u32..900,
    ) {
        let run = run_of(&rows, 3);
        let tl = run.timeline.clone().unwrap();
        let (cut, applied) = window_run(&run, from as f64, (from + len) as f64).unwrap();
        // Brute force: rows whose start (test time) is inside the snapped window.
        let first = rows.iter().map(|r| r.1).min().unwrap();
        let inside = |r: &&Row| {
            let t = (r.1 - first) as f64 / 1000.0;
            t >= applied.from_s && t < applied.to_s
        };
        prop_assert!(applied.to_s - applied.from_s <= len as f64 + tl.interval_s as f64);
        let mut total = 0;
        for (l, t) in cut.transactions.iter().enumerate() {
            let mut mine: Vec<u64> = rows.iter().filter(inside).filter(|r| r.0 == l).map(|r| r.2).collect();
            mine.sort();
            let errors = rows.iter().filter(inside).filter(|r| r.0 == l && r.3).count() as u64;
            total += mine.len() as u64;
            prop_assert_eq!(t.samples, Some(mine.len() as u64));
            prop_assert_eq!(t.errors, Some(errors));
            if mine.is_empty() {
                prop_assert_eq!(t.p95_ms, None);
                continue;
            }
            let sorted: Vec<(f64, u64)> = mine.iter().map(|v| (*v as f64, 1)).collect();
            let n = mine.len() as u64;
            // nearest rank, by its definition: sorted[ceil(p·n/100) − 1]
            let rank = |p: u64| mine[((p * n).div_ceil(100)).max(1) as usize - 1] as f64;
            prop_assert_eq!(t.median_ms, Some(rank(50)));
            prop_assert_eq!(t.p90_ms, Some(rank(90)));
            prop_assert_eq!(t.p95_ms, Some(rank(95)));
            prop_assert_eq!(t.p99_ms, Some(rank(99)));
            prop_assert_eq!(t.p99_ms, Some(nearest_rank(&sorted, n, 99.0)));
            prop_assert_eq!(t.min_ms, Some(mine[0] as f64));
            prop_assert_eq!(t.max_ms, mine.last().map(|v| *v as f64));
            let mean = mine.iter().sum::<u64>() as f64 / n as f64;
            prop_assert!((t.mean_ms.unwrap() - mean).abs() < 1e-9 * mean.max(1.0));
        }
        prop_assert_eq!(applied.samples, total);
    }
}

#[test]
fn buckets_are_in_when_their_middle_is() {
    let rows: Vec<Row> = (0..100).map(|i| (0, i * 1000, 5, false)).collect();
    let tl = timeline_of(&rows, 1);
    // 100 s: 1 s buckets aligned on the epoch; origin is on a whole second here.
    assert_eq!(tl.interval_s, 1);
    assert_eq!(buckets_in(&tl, 10.0, 20.0), 10..20);
    assert_eq!(buckets_in(&tl, 10.4, 19.6), 10..20);
    assert_eq!(buckets_in(&tl, 10.6, 19.4), 11..19);
    assert_eq!(buckets_in(&tl, 500.0, 600.0), 0..0);
}

#[test]
fn a_run_without_timeline_is_judged_whole_and_shared() {
    let run = Arc::new(Run { id: "x".into(), ..Default::default() });
    let w = window_runs(std::slice::from_ref(&run), WindowSpec::Range { from_s: 0, to_s: 10 }, &[]);
    assert!(Arc::ptr_eq(&w.runs[0], &run));
    assert_eq!(w.outcomes, vec![Outcome::NoTimeline]);
}

#[test]
fn a_shift_moves_one_runs_window() {
    let rows: Vec<Row> = (0..100).map(|i| (0, i * 1000, i as u64, i % 10 == 0)).collect();
    let mut b = run_of(&rows, 1);
    b.id = "b".into();
    let runs = [Arc::new(run_of(&rows, 1)), Arc::new(b)];
    let spec = WindowSpec::Range { from_s: 10, to_s: 20 };
    let w = window_runs(&runs, spec, &[Shift { run: "b".into(), seconds: 30 }]);
    assert_eq!(w.runs[0].transactions[0].min_ms, Some(10.0));
    assert_eq!(w.runs[1].transactions[0].min_ms, Some(40.0));
    assert_eq!(w.runs[1].transactions[0].errors, Some(1));
    assert_eq!(w.runs[1].duration_s, Some(10.0));
}

#[test]
fn errors_follow_their_causes_into_the_window() {
    use crate::bundle::{CauseTimeline, ErrorEntry};
    let rows: Vec<Row> = (0..100).map(|i| (0, i * 1000, 5, i % 10 == 0)).collect();
    let mut run = run_of(&rows, 1);
    let tl = run.timeline.as_mut().unwrap();
    let cause = |message: &str, counts: Vec<u64>| CauseTimeline {
        transaction: "t0".into(),
        code: Some("500".into()),
        message: message.into(),
        counts,
    };
    tl.causes = vec![cause("boom", vec![0, 1, 10, 1, 50, 1, 90, 1]), cause("early", vec![0, 3])];
    let entry = |message: &str, n: u64| ErrorEntry {
        message: message.into(),
        count: Some(n),
        code: Some("500".into()),
        transaction: Some("t0".into()),
        ..Default::default()
    };
    run.errors =
        vec![entry("boom", 4), entry("early", 3), ErrorEntry { message: "run-wide".into(), ..Default::default() }];
    let (cut, _) = window_run(&run, 5.0, 60.0).unwrap();
    let boom = &cut.errors[0];
    assert_eq!((boom.count, boom.first_s, boom.last_s), (Some(2), Some(10.0), Some(51.0)));
    assert_eq!(cut.errors.len(), 2, "the cause outside the window leaves: {:?}", cut.errors);
    assert!(cut.errors[1].note.as_deref().unwrap().starts_with("Whole run"));
}
