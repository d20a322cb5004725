//! A transaction's latency distribution read back from a bundle: every distinct value with its
//! count, when the bundle carries them (a histogram whose buckets each hold one value, or an exact
//! timeline), else the histogram's buckets, which merge within a bucket's width. The one reading
//! of transactions' distributions that both merges use: label rules' (`model::labels`) and the
//! load generators' (`assemble::merge`).

use crate::bundle::timeline_sum::{from_ordered, ordered};
use crate::bundle::{Histogram, Timeline, Transaction};
use crate::import::common::samples::nearest_rank;
use std::collections::BTreeMap;

/// (value, count) pairs in ascending order, and whether they are the samples' own values.
#[derive(Debug, Clone, PartialEq)]
pub struct Dist {
    pub pairs: Vec<(f64, u64)>,
    pub exact: bool,
}

impl Dist {
    pub fn count(&self) -> u64 {
        self.pairs.iter().map(|p| p.1).sum()
    }

    /// The nearest-rank `p`-th percentile.
    pub fn percentile(&self, p: f64) -> f64 {
        nearest_rank(&self.pairs, self.count(), p)
    }

    /// The distributions added: counts of one value summed (exact when every part is).
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a Dist>) -> Dist {
        // Inserted one by one: `collect` into a map would bring a sort of its own to the page.
        let mut counts: BTreeMap<u64, u64> = BTreeMap::new();
        let mut exact = true;
        for d in parts {
            exact &= d.exact;
            for (v, c) in &d.pairs {
                *counts.entry(ordered(*v)).or_default() += c;
            }
        }
        Dist { pairs: counts.into_iter().map(|(k, c)| (from_ordered(k), c)).collect(), exact }
    }

    /// As a histogram whose bounds are the values.
    pub fn to_histogram(&self) -> Histogram {
        Histogram {
            upper_bounds_ms: self.pairs.iter().map(|p| p.0).collect(),
            counts: self.pairs.iter().map(|p| p.1).collect(),
        }
    }
}

/// The percentile a `percentiles` key names ("p75" → 75, "p99.9" → 99.9).
pub fn percent_of(key: &str) -> Option<f64> {
    key.strip_prefix('p').and_then(crate::number::parse_f64).filter(|p| (0.0..=100.0).contains(p))
}

/// The distribution of `t`: from its timeline entry when that is exact, else from its histogram
/// (exact when `histogram_is_exact`), else `None` (a summary: nothing to merge samples with).
pub fn of(t: &Transaction, timeline: Option<&Timeline>) -> Option<Dist> {
    if let Some(d) = timeline.and_then(|tl| from_timeline(&t.name, tl)) {
        if t.samples.is_none_or(|n| d.count() <= n) {
            return Some(d);
        }
    }
    let h = t.histogram.as_ref()?;
    let ok = h.upper_bounds_ms.len() == h.counts.len()
        && !h.counts.is_empty()
        && h.upper_bounds_ms.iter().all(|b| b.is_finite() && *b >= 0.0)
        && h.upper_bounds_ms.windows(2).all(|w| w[0] < w[1]);
    if !ok {
        return None;
    }
    let pairs: Vec<(f64, u64)> = h.upper_bounds_ms.iter().copied().zip(h.counts.iter().copied()).collect();
    let exact = histogram_is_exact(t, &pairs);
    Some(Dist { pairs, exact })
}

/// Whether a histogram holds every distinct value (each bucket one value). A bucket's bound is the
/// largest value in it, so the bounds times the counts add up to the samples' sum only when no
/// bucket holds two different values: for integer values (JMeter, Gatling) two values differ by at
/// least 1 ms, far above the rounding of `mean_ms`, so the test is exact; for fractional values it
/// is taken at a relative 1e-12. The extremes and the nearest-rank percentiles must agree too.
pub fn histogram_is_exact(t: &Transaction, pairs: &[(f64, u64)]) -> bool {
    let n: u64 = pairs.iter().map(|p| p.1).sum();
    let (Some(first), Some(last), Some(mean)) = (pairs.first(), pairs.last(), t.mean_ms) else { return false };
    if n == 0 || t.min_ms.is_some_and(|m| m != first.0) || t.max_ms.is_some_and(|m| m != last.0) {
        return false;
    }
    let integral = pairs.iter().all(|p| p.0.fract() == 0.0 && p.0 < 9.0e15);
    let sum_ok = if integral {
        let sum: u128 = pairs.iter().map(|(v, c)| *v as u128 * u128::from(*c)).sum();
        (mean * n as f64 - sum as f64).abs() < 0.5_f64.max(sum as f64 * 1e-15)
    } else {
        let sum: f64 = pairs.iter().map(|(v, c)| v * *c as f64).sum();
        (mean * n as f64 - sum).abs() <= sum.abs() * 1e-12
    };
    let pct = [(t.median_ms, 50.0), (t.p90_ms, 90.0), (t.p95_ms, 95.0), (t.p99_ms, 99.0)];
    sum_ok && pct.iter().all(|(v, p)| v.is_none_or(|v| nearest_rank(pairs, n, *p) == v))
}

/// The whole-run distribution of transaction `name` from an exact, well-formed timeline.
fn from_timeline(name: &str, tl: &Timeline) -> Option<Dist> {
    if !tl.is_well_formed() {
        return None;
    }
    let t = tl.transaction(name).filter(|t| t.exact && !t.cells.is_empty())?;
    let mut counts = vec![0u64; t.values_ms.len()];
    for cell in &t.cells {
        for p in cell.chunks_exact(2) {
            if let Some(c) = counts.get_mut(p[0] as usize) {
                *c += p[1];
            }
        }
    }
    let pairs: Vec<(f64, u64)> = t.values_ms.iter().copied().zip(counts).filter(|p| p.1 > 0).collect();
    (!pairs.is_empty()).then_some(Dist { pairs, exact: true })
}
