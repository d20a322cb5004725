//! A histogram ready for resampling: its cumulative counts, inverse and the order statistics a
//! quantile's replicates are drawn from.

use crate::bundle::Histogram;

/// A histogram ready for resampling: bounds, cumulative counts, total.
pub(super) struct Cdf<'h> {
    bounds: &'h [f64],
    cum: Vec<f64>,
    pub(super) n: u64,
}

impl<'h> Cdf<'h> {
    /// None for a histogram that cannot be resampled: lengths differ, bounds not increasing or
    /// negative, no samples.
    pub(super) fn new(h: &'h Histogram) -> Option<Cdf<'h>> {
        if h.upper_bounds_ms.len() != h.counts.len() || h.counts.is_empty() {
            return None;
        }
        let ok = h.upper_bounds_ms.iter().all(|b| b.is_finite() && *b >= 0.0)
            && h.upper_bounds_ms.windows(2).all(|w| w[0] < w[1]);
        let n: u64 = h.counts.iter().try_fold(0u64, |a, c| a.checked_add(*c))?;
        if !ok || n == 0 {
            return None;
        }
        let mut acc = 0.0;
        let cum = h
            .counts
            .iter()
            .map(|c| {
                acc += *c as f64;
                acc
            })
            .collect();
        Some(Cdf { bounds: &h.upper_bounds_ms, cum, n })
    }

    /// F⁻¹ of each of `us`, which must be ascending, as runs of equal values: (end of the run,
    /// value), ends increasing. Where `us` is non-decreasing (the skew-corrected draw is monotone
    /// over the shared normals, and checking costs one pass), each run is found by two binary
    /// searches, a few dozen steps instead of a step per replicate; otherwise (a draw that bends
    /// back, or NaN) one sweep of the buckets, as `inverse_sweep`, which gives the same runs.
    pub(super) fn inverse_sorted(&self, us: &[f64]) -> Vec<(usize, f64)> {
        if us.windows(2).all(|w| w[0] <= w[1]) {
            self.inverse_rising(us.len(), |i| us[i])
        } else {
            self.inverse_sweep(us.iter().copied())
        }
    }

    /// `inverse_sorted` of `u(0), …, u(len − 1)` for a `u` that does not fall, asking `u` only
    /// where the searches look (a few dozen of the `len` values): the bootstrap's replicates of
    /// one quantile fall in a few buckets, so this is most of the interval's work saved.
    pub(super) fn inverse_rising(&self, len: usize, u: impl Fn(usize) -> f64) -> Vec<(usize, f64)> {
        let (n, last) = (self.n as f64, self.cum.len() - 1);
        let mut runs: Vec<(usize, f64)> = Vec::new();
        let mut i = 0;
        while i < len {
            // The sweep's bucket for u(i): the first whose cumulative count reaches it, or the last.
            let target = u(i) * n;
            let j = self.cum[..last].partition_point(|c| *c < target);
            // The run lasts while the sweep would stay in bucket j: to the first k with
            // cum[j] < u(k)·n.
            let end = if j < last {
                let cj = self.cum[j];
                let (mut lo, mut hi) = (i + 1, len);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if cj < u(mid) * n {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                lo
            } else {
                len
            };
            runs.push((end, self.bounds[j]));
            i = end;
        }
        runs
    }

    /// `inverse_sorted` as one sweep of the buckets, a step per value (the reference).
    pub(super) fn inverse_sweep(&self, us: impl Iterator<Item = f64>) -> Vec<(usize, f64)> {
        let (n, last) = (self.n as f64, self.cum.len() - 1);
        let mut j = 0;
        let mut runs: Vec<(usize, f64)> = Vec::new();
        for (i, u) in us.enumerate() {
            while j < last && self.cum[j] < u * n {
                j += 1;
            }
            match runs.last_mut() {
                Some((end, v)) if *v == self.bounds[j] => *end = i + 1,
                _ => runs.push((i + 1, self.bounds[j])),
            }
        }
        runs
    }

    /// The value below which a fraction `u` of the samples lies: F⁻¹(u).
    pub(super) fn inverse(&self, u: f64) -> f64 {
        let target = u * self.n as f64;
        let i = self.cum.partition_point(|c| *c < target);
        self.bounds[i.min(self.bounds.len() - 1)]
    }

    /// Beta parameters of the nearest-rank q-quantile's order statistic.
    pub(super) fn order(&self, q: f64) -> (f64, f64) {
        let n = self.n as f64;
        let r = crate::number::clamp((q * n).ceil(), 1.0, n);
        (r, n - r + 1.0)
    }
}
