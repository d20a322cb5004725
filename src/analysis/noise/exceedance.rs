//! An exact test for a change of a run's maximum (or minimum): how many of one run's samples lie
//! beyond the other run's extreme, and how likely that many is if both runs drew from the same
//! distribution.
//!
//! A maximum is one sample, so no interval of its change means much. What does: when the
//! candidate's maximum rose from a to b, count the candidate's samples above a (k of them). If
//! the two runs' samples were exchangeable (the same distribution, no change), every way of
//! placing the pooled N = n_a + n_b samples is equally likely, and "the k largest of the pooled
//! samples all belong to the candidate" has probability C(n_b, k) / C(N, k) (hypergeometric).
//! That is the one-sided p-value; the two-sided one, doubled, is compared with 0.05 as the
//! intervals' 95 % is. A maximum that fell is the same test with the runs' roles swapped; a
//! minimum mirrors it (samples below the other run's minimum).
//!
//! Samples are counted from the runs' histograms: only buckets wholly beyond the extreme count
//! (a bucket holds values in (previous bound, its bound]), so bucketed histograms can only
//! understate k, never invent an exceedance.

use super::cdf::Cdf;
use crate::bundle::Histogram;

/// The result of the test: `count` of `of` samples of one run lie beyond the other run's extreme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Exceedance {
    pub count: u64,
    /// Samples of the run they were counted in.
    pub of: u64,
    /// Two-sided p-value.
    pub p: f64,
}

/// Which extreme a test is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extreme {
    Max,
    Min,
}

/// The test of the change of `extreme` from `base` (its histogram and stated extreme) to `this`.
/// None when a histogram cannot be read or the extremes are equal (no change to test).
pub fn extreme_change(extreme: Extreme, base: (&Histogram, f64), this: (&Histogram, f64)) -> Option<Exceedance> {
    let (ca, cb) = (Cdf::new(base.0)?, Cdf::new(this.0)?);
    let (a, b) = (base.1, this.1);
    if !(a.is_finite() && b.is_finite()) || a == b {
        return None;
    }
    // The run whose samples went beyond the other's extreme, and that extreme.
    let outward = match extreme {
        Extreme::Max => b > a,
        Extreme::Min => b < a,
    };
    let (beyond_run, limit) = if outward { (this.0, a) } else { (base.0, b) };
    let count = match extreme {
        Extreme::Max => above(beyond_run, limit),
        Extreme::Min => below(beyond_run, limit),
    };
    let of = if outward { cb.n } else { ca.n };
    Some(Exceedance { count, of, p: (2.0 * all_from(count, of, ca.n + cb.n)).min(1.0) })
}

/// Samples in buckets wholly above `limit`: their lower end (the previous bound) is at least it.
fn above(h: &Histogram, limit: f64) -> u64 {
    let lowers = std::iter::once(f64::NEG_INFINITY).chain(h.upper_bounds_ms.iter().copied());
    lowers.zip(&h.counts).filter(|(lower, _)| *lower >= limit).map(|(_, c)| *c).sum()
}

/// Samples in buckets wholly below `limit`: every value of the bucket is at most its bound.
fn below(h: &Histogram, limit: f64) -> u64 {
    h.upper_bounds_ms.iter().zip(&h.counts).filter(|(upper, _)| **upper < limit).map(|(_, c)| *c).sum()
}

/// C(n, k) / C(total, k): the chance that k given places of `total` all fall among `n` of them.
fn all_from(k: u64, n: u64, total: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    let mut p = 1.0;
    for i in 0..k {
        p *= (n - i) as f64 / (total - i) as f64;
        // Far below any significance level: the rest only makes it smaller.
        if p < 1e-300 {
            return 0.0;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(values: &[(f64, u64)]) -> Histogram {
        Histogram {
            upper_bounds_ms: values.iter().map(|v| v.0).collect(),
            counts: values.iter().map(|v| v.1).collect(),
        }
    }

    #[test]
    fn identical_runs_have_nothing_to_test() {
        let h = hist(&[(10.0, 300), (11.0, 12)]);
        assert_eq!(extreme_change(Extreme::Max, (&h, 11.0), (&h, 11.0)), None);
    }

    #[test]
    fn one_sample_beyond_the_baseline_max_is_noise() {
        // 312 samples each; the candidate's largest is one step above the baseline's.
        let a = hist(&[(10.0, 300), (11.0, 12)]);
        let b = hist(&[(10.0, 300), (11.0, 11), (12.0, 1)]);
        let e = extreme_change(Extreme::Max, (&a, 11.0), (&b, 12.0)).unwrap();
        assert_eq!((e.count, e.of), (1, 312));
        // One of the pooled 624 largest is the candidate's half the time: p = 2 × 312/624.
        assert!((e.p - 1.0).abs() < 1e-12, "{e:?}");
    }

    #[test]
    fn a_shifted_tail_is_found() {
        let a = hist(&[(10.0, 300), (11.0, 12)]);
        let b = hist(&[(10.0, 290), (11.0, 12), (40.0, 10)]);
        let e = extreme_change(Extreme::Max, (&a, 11.0), (&b, 40.0)).unwrap();
        assert_eq!(e.count, 10);
        // C(312, 10) / C(624, 10) ≈ 2^-10, doubled.
        let expected = 2.0 * (0..10).map(|i| (312.0 - i as f64) / (624.0 - i as f64)).product::<f64>();
        assert!((e.p - expected).abs() < 1e-15 && e.p < 0.01, "{e:?}");
    }

    #[test]
    fn a_max_that_fell_counts_the_baseline_samples_above_the_new_max() {
        let a = hist(&[(10.0, 290), (40.0, 10)]);
        let b = hist(&[(10.0, 300)]);
        let e = extreme_change(Extreme::Max, (&a, 40.0), (&b, 10.0)).unwrap();
        assert_eq!((e.count, e.of), (10, 300));
    }

    #[test]
    fn a_bucket_that_straddles_the_limit_does_not_count() {
        // Buckets (10, 20] and (20, 30]: baseline max 15 lies inside the first.
        let a = hist(&[(10.0, 50), (20.0, 5)]);
        let b = hist(&[(10.0, 50), (20.0, 3), (30.0, 2)]);
        assert_eq!(extreme_change(Extreme::Max, (&a, 15.0), (&b, 30.0)).unwrap().count, 2);
    }

    #[test]
    fn a_lower_minimum_counts_samples_below_the_baseline_minimum() {
        let a = hist(&[(5.0, 20), (10.0, 100)]);
        let b = hist(&[(1.0, 8), (5.0, 12), (10.0, 100)]);
        let e = extreme_change(Extreme::Min, (&a, 5.0), (&b, 1.0)).unwrap();
        assert_eq!((e.count, e.of), (8, 120));
        assert!(e.p < 0.05);
    }

    #[test]
    fn unreadable_histograms_give_no_test() {
        let bad = Histogram { upper_bounds_ms: vec![1.0, 2.0], counts: vec![1] };
        let good = hist(&[(1.0, 5)]);
        assert_eq!(extreme_change(Extreme::Max, (&bad, 2.0), (&good, 1.0)), None);
    }
}
