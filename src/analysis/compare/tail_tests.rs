//! Known-answer tests of tail statistics (p99, max, min): judged by noise, or "not enough data".

use super::*;
use crate::analysis::noise::Rng;
use crate::analysis::tail::Tail;
use crate::bundle::{Histogram, Transaction};

/// A transaction from its samples (whole milliseconds): nearest-rank percentiles as the
/// importers compute them, and an exact histogram (one bucket per distinct value).
fn txn(samples: &[u32], with_histogram: bool) -> Transaction {
    let mut s = samples.to_vec();
    s.sort_unstable();
    let n = s.len();
    let rank = |q: f64| f64::from(s[((q * n as f64).ceil() as usize).clamp(1, n) - 1]);
    let mut h = Histogram::default();
    for v in &s {
        if h.upper_bounds_ms.last() == Some(&f64::from(*v)) {
            *h.counts.last_mut().unwrap() += 1;
        } else {
            h.upper_bounds_ms.push(f64::from(*v));
            h.counts.push(1);
        }
    }
    Transaction {
        name: "search".into(),
        samples: Some(n as u64),
        median_ms: Some(rank(0.5)),
        p90_ms: Some(rank(0.9)),
        p95_ms: Some(rank(0.95)),
        p99_ms: Some(rank(0.99)),
        min_ms: Some(f64::from(s[0])),
        max_ms: Some(f64::from(s[n - 1])),
        histogram: with_histogram.then_some(h),
        ..Default::default()
    }
}

/// `n` latencies of one distribution: 20–60 ms, and 5 % in a tail from 60 ms up: heavy (Pareto),
/// so that one run's maximum differs much from another's, or light (up to 300 ms).
fn draw(n: usize, seed: u64, heavy: bool) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let u = rng.uniform();
            let t = 1.0 - rng.uniform();
            let tail = if heavy { 60.0 / t.sqrt() } else { 60.0 + 240.0 * t };
            let v = if rng.uniform() < 0.05 { tail } else { 20.0 + 40.0 * u };
            v.min(100_000.0).round() as u32
        })
        .collect()
}

fn verdicts(a: &Transaction, b: &Transaction) -> Vec<(String, Verdict, String)> {
    let run = |id: &str, t: &Transaction| Run { id: id.into(), transactions: vec![t.clone()], ..Default::default() };
    let (ra, rb) = (run("a", a), run("b", b));
    compare(&[&ra, &rb], &Thresholds::default())
        .into_iter()
        .filter(|r| ["median", "p90", "p95", "p99", "max", "min"].contains(&&*r.metric))
        .map(|r| (r.metric.to_string(), r.cells[1].verdict, r.reason(1)))
        .collect()
}

fn verdict_of<'v>(v: &'v [(String, Verdict, String)], metric: &str) -> &'v (String, Verdict, String) {
    v.iter().find(|x| x.0 == metric).unwrap_or_else(|| panic!("no {metric}"))
}

#[test]
fn identical_samples_are_within_noise_for_every_tail_statistic() {
    for with_histogram in [true, false] {
        let t = txn(&draw(2000, 1, true), with_histogram);
        for (metric, verdict, reason) in verdicts(&t, &t) {
            assert_eq!(verdict, Verdict::WithinNoise, "{metric} ({with_histogram}): {reason}");
        }
    }
}

#[test]
fn the_issues_p99_of_312_samples_is_not_enough_data() {
    // An unchanged endpoint: p99 10 → 11 ms, 312 samples (p99 is the 4th largest).
    let mut a: Vec<u32> = vec![9; 300];
    a.extend([10; 12]);
    let mut b = a.clone();
    b[311] = 11;
    b[310] = 11;
    b[309] = 11;
    b[308] = 11;
    for with_histogram in [true, false] {
        let v = verdicts(&txn(&a, with_histogram), &txn(&b, with_histogram));
        let (_, verdict, reason) = verdict_of(&v, "p99");
        assert_eq!(*verdict, Verdict::NotEnoughData, "{reason}");
        assert!(reason.contains("3.1 in the baseline") && reason.contains("500 in a run"), "{reason}");
    }
    // The max rose by one sample's worth: noise by the exceedance test with histograms, and
    // a single sample without them.
    let with = verdicts(&txn(&a, true), &txn(&b, true));
    let (_, verdict, reason) = verdict_of(&with, "max");
    assert_eq!(*verdict, Verdict::WithinNoise, "{reason}");
    assert!(reason.contains("4 of the 312 samples here lie above the baseline's max"), "{reason}");
    let without = verdicts(&txn(&a, false), &txn(&b, false));
    let (_, verdict, reason) = verdict_of(&without, "max");
    assert_eq!(*verdict, Verdict::NotEnoughData, "{reason}");
    assert!(reason.contains("single sample"), "{reason}");
}

#[test]
fn a_real_shift_of_the_tail_is_found() {
    let base = draw(5000, 7, false);
    // The same test where the slowest 3 % got three times slower: the median stays.
    let mut cand = draw(5000, 8, false);
    let mut order: Vec<usize> = (0..cand.len()).collect();
    order.sort_by_key(|i| std::cmp::Reverse(cand[*i]));
    for i in order.into_iter().take(150) {
        cand[i] *= 3;
    }
    let v = verdicts(&txn(&base, true), &txn(&cand, true));
    for metric in ["p99", "max"] {
        let (_, verdict, reason) = verdict_of(&v, metric);
        assert_eq!(*verdict, Verdict::Regressed, "{metric}: {reason}");
    }
    assert!(verdict_of(&v, "p99").2.contains("bootstrap"), "{:?}", verdict_of(&v, "p99"));
    assert!(verdict_of(&v, "max").2.contains("exact exceedance test"), "{:?}", verdict_of(&v, "max"));
    assert!(!verdict_of(&v, "median").1.is_beyond_noise(), "{:?}", verdict_of(&v, "median"));
}

#[test]
fn two_draws_of_one_distribution_rarely_alarm_in_the_tail() {
    // 40 pairs of independent runs of the same test: a 95 % judgement alarms about 5 % of the
    // time at most (less, since the threshold must be passed too).
    let mut alarms = [0; 3];
    for seed in 0..40 {
        let v = verdicts(&txn(&draw(3000, 100 + seed, true), true), &txn(&draw(3000, 200 + seed, true), true));
        for (k, metric) in ["p99", "max", "min"].into_iter().enumerate() {
            alarms[k] += usize::from(verdict_of(&v, metric).1.is_beyond_noise());
        }
    }
    assert!(alarms.iter().all(|a| *a <= 4), "beyond-noise verdicts of p99, max, min in 40 null pairs: {alarms:?}");
}

#[test]
fn tail_rule_counts_samples_beyond_the_percentile() {
    // p99 of 600 samples has 6 beyond it: judged (here by its threshold, without histograms).
    let (a, mut b) = (draw(600, 3, false), draw(600, 3, false));
    b.iter_mut().for_each(|x| *x *= 2);
    let v = verdicts(&txn(&a, false), &txn(&b, false));
    assert_eq!(verdict_of(&v, "p99").1, Verdict::Regressed, "{:?}", verdict_of(&v, "p99"));
    assert_eq!(Tail::Quantile(0.99).samples_needed(), Some(500.0));
}
