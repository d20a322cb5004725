//! The percentile bootstrap of a quantile's change (see the parent module): shared normals,
//! replicates per run, and the interval of their changes.

use super::cdf::Cdf;
use super::random::{BetaDraw, Rng};
use super::{Interval, APPROX_FROM, MAX_PAIRED_RUNS, REPLICATES};
use crate::bundle::Histogram;

/// The random numbers of a bootstrap, shared by every transaction it is asked about: two sorted
/// streams of standard normals (one per run) and a permutation that pairs them at random.
pub struct Bootstrap {
    pub(super) za: Vec<f64>,
    pub(super) zb: Vec<f64>,
    pair: Vec<usize>,
    /// `pairs_below[x * (R + 1) + y]`: how many i < x have pair[i] < y (R = `REPLICATES`), so
    /// the replicates pairing a run of equal baseline values with a run of equal candidate values
    /// are counted in four lookups (`pairs_in`).
    pairs_below: Vec<u16>,
}

/// Replicate quantiles of one run in the order of the shared normals: sorted, as runs of equal
/// values (most replicates of a quantile land in a few buckets), or in no order (exact draws).
pub(super) enum Replicates {
    Sorted(Vec<(usize, f64)>),
    Unsorted(Vec<f64>),
}

impl Replicates {
    pub(super) fn values(&self) -> Vec<f64> {
        match self {
            Replicates::Unsorted(v) => v.clone(),
            Replicates::Sorted(runs) => {
                let mut start = 0;
                let mut out = Vec::with_capacity(REPLICATES);
                for (end, v) in runs {
                    out.extend(std::iter::repeat_n(*v, end - start));
                    start = *end;
                }
                out
            }
        }
    }
}

/// The 2.5th and 97.5th percentiles of `k` changes, by the ranks `select_nth` would pick.
fn ranks(k: usize) -> Option<(usize, usize)> {
    if k < REPLICATES / 2 {
        return None;
    }
    let lo_at = ((0.025 * k as f64).floor() as usize).min(k - 1);
    let hi_at = ((0.975 * k as f64).ceil() as usize).saturating_sub(1).min(k - 1);
    Some((lo_at, hi_at))
}

impl Bootstrap {
    pub fn new(seed: u64) -> Bootstrap {
        let mut rng = Rng::new(seed);
        let sorted = |rng: &mut Rng| {
            let mut z: Vec<f64> = (0..REPLICATES).map(|_| rng.normal()).collect();
            crate::order::sort_by(&mut z, f64::total_cmp);
            z
        };
        let (za, zb) = (sorted(&mut rng), sorted(&mut rng));
        // Fisher–Yates shuffle.
        let mut pair: Vec<usize> = (0..REPLICATES).collect();
        for i in (1..REPLICATES).rev() {
            pair.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let w = REPLICATES + 1;
        let mut pairs_below = vec![0u16; w * w];
        for x in 0..REPLICATES {
            for y in 0..w {
                pairs_below[(x + 1) * w + y] = pairs_below[x * w + y] + u16::from(pair[x] < y);
            }
        }
        Bootstrap { za, zb, pair, pairs_below }
    }

    /// The bootstrap of the fixed seed `SEED`, built once (its pairing table is 2 MB of work).
    pub fn shared() -> &'static Bootstrap {
        static SHARED: std::sync::OnceLock<Bootstrap> = std::sync::OnceLock::new();
        SHARED.get_or_init(|| Bootstrap::new(SEED))
    }

    /// How many replicates pair a baseline index in `x0..x1` with a candidate index in `y0..y1`.
    fn pairs_in(&self, (x0, x1): (usize, usize), (y0, y1): (usize, usize)) -> usize {
        let w = REPLICATES + 1;
        let c = |x: usize, y: usize| usize::from(self.pairs_below[x * w + y]);
        c(x1, y1) + c(x0, y0) - c(x0, y1) - c(x1, y0)
    }

    /// The replicate q-quantiles of one run, in the order of `z` (exact draws when the Beta's
    /// parameters are small, seeded by `seed`).
    pub(super) fn replicates(c: &Cdf, q: f64, z: &[f64], seed: u64) -> Replicates {
        let (r, s) = c.order(q);
        if r >= APPROX_FROM && s >= APPROX_FROM {
            let draw = BetaDraw::new(r, s);
            let (lo, hi) = (z.first().copied().unwrap_or(0.0), z.last().copied().unwrap_or(0.0));
            if draw.rises_over(lo, hi) {
                Replicates::Sorted(c.inverse_rising(z.len(), |i| draw.at(z[i])))
            } else {
                let us: Vec<f64> = z.iter().map(|z| draw.at(*z)).collect();
                Replicates::Sorted(c.inverse_sorted(&us))
            }
        } else {
            let mut rng = Rng::new(seed);
            Replicates::Unsorted(z.iter().map(|_| c.inverse(rng.beta(r, s))).collect())
        }
    }

    /// 95 % bootstrap interval of the relative change (b / a − 1) of the q-quantile (0 < q < 1).
    /// None when either histogram cannot be resampled or the baseline's quantile is 0.
    pub fn quantile_change(&self, a: &Histogram, b: &Histogram, q: f64, seed: u64) -> Option<Interval> {
        self.quantile_changes(a, b, [(q, seed)])[0]
    }

    /// `quantile_change` of several quantiles, each with its seed, of one pair of histograms:
    /// each histogram is checked and accumulated once, not once per quantile.
    pub fn quantile_changes<const N: usize>(
        &self,
        a: &Histogram,
        b: &Histogram,
        qs: [(f64, u64); N],
    ) -> [Option<Interval>; N] {
        match (Cdf::new(a), Cdf::new(b)) {
            (Some(ca), Some(cb)) => qs.map(|(q, seed)| self.change_of(&ca, &cb, q, seed)),
            _ => [None; N],
        }
    }

    fn change_of(&self, ca: &Cdf, cb: &Cdf, q: f64, seed: u64) -> Option<Interval> {
        let qa = Self::replicates(ca, q, &self.za, seed);
        let qb = Self::replicates(cb, q, &self.zb, seed ^ 0x5bd1_e995);
        match (&qa, &qb) {
            (Replicates::Sorted(ra), Replicates::Sorted(rb)) if ra.len() * rb.len() <= MAX_PAIRED_RUNS => {
                self.interval_of_runs(ra, rb)
            }
            _ => self.interval_of_list(&qa.values(), &qb.values()),
        }
    }

    /// The interval from every replicate's change: b[pair[i]] / a[i] − 1 for a[i] > 0.
    pub(super) fn interval_of_list(&self, qa: &[f64], qb: &[f64]) -> Option<Interval> {
        let mut changes: Vec<f64> =
            qa.iter().zip(&self.pair).filter(|(a, _)| **a > 0.0).map(|(a, j)| qb[*j] / a - 1.0).collect();
        let (lo_at, hi_at) = ranks(changes.len())?;
        let lo = *changes.select_nth_unstable_by(lo_at, f64::total_cmp).1;
        let hi = *changes.select_nth_unstable_by(hi_at, f64::total_cmp).1;
        Some(Interval { lo, hi })
    }

    /// The same interval when both runs' replicates are runs of equal values: every pair of runs
    /// gives one change value, as many times as the pairing puts replicates there, so the
    /// changes are a short weighted list rather than `REPLICATES` values to select from.
    pub(super) fn interval_of_runs(&self, ra: &[(usize, f64)], rb: &[(usize, f64)]) -> Option<Interval> {
        let mut weighted: Vec<(f64, usize)> = Vec::with_capacity(ra.len() * rb.len());
        let mut x0 = 0;
        for (x1, a) in ra {
            if *a > 0.0 {
                let mut y0 = 0;
                for (y1, b) in rb {
                    let n = self.pairs_in((x0, *x1), (y0, *y1));
                    if n > 0 {
                        weighted.push((b / a - 1.0, n));
                    }
                    y0 = *y1;
                }
            }
            x0 = *x1;
        }
        let (lo_at, hi_at) = ranks(weighted.iter().map(|w| w.1).sum())?;
        crate::order::sort_by(&mut weighted, |x, y| x.0.total_cmp(&y.0));
        let at = |rank: usize| {
            let mut seen = 0;
            weighted.iter().find(|(_, n)| {
                seen += n;
                seen > rank
            })
        };
        Some(Interval { lo: at(lo_at)?.0, hi: at(hi_at)?.0 })
    }
}

/// The seed of the shared normal streams: fixed, so the same data always give the same intervals.
pub const SEED: u64 = 0x72756e6c656e73;

/// 95 % bootstrap interval of the relative change (b / a − 1) of the q-quantile, with a
/// bootstrap of its own (for one-off use; `Bootstrap` shares the work across transactions).
pub fn quantile_change(a: &Histogram, b: &Histogram, q: f64, seed: u64) -> Option<Interval> {
    Bootstrap::new(SEED ^ seed).quantile_change(a, b, q, seed)
}
