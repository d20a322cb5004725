//! 95 % intervals for the change between two runs, so a verdict can tell a change from noise.
//!
//! **Latency quantiles (median, p95) from histograms: a percentile bootstrap.** Each replicate
//! resamples both runs with replacement, multinomially from their histogram counts, as many
//! samples as each run had; every resampled value sits at its bucket's upper bound. The
//! replicate's quantile is the nearest rank (as the importers compute it) and the replicate's
//! change is q_b / q_a − 1. The interval is the 2.5th to 97.5th percentile of `REPLICATES`
//! changes. Rather than drawing n values per replicate, the r-th smallest of n draws is drawn
//! directly: it is F⁻¹(U₍ᵣ₎), where U₍ᵣ₎ ~ Beta(r, n − r + 1) is the r-th order statistic of n
//! uniforms (David & Nagaraja, *Order Statistics*, 3rd ed., §2.2). That is exact for multinomial
//! resampling and costs O(1) per replicate however many samples a run had. When both Beta
//! parameters are at least `APPROX_FROM` the Beta draw is a normal draw corrected for the Beta's
//! skew (first-order Cornish–Fisher expansion; its error there is a few hundredths of a standard
//! deviation); below that, exact gamma draws. The normal draws are shared by all transactions
//! and sorted, so a run's replicate quantiles come out in order: as runs of equal values, each
//! run's end found by a binary search over the normals (the skew-corrected draw rises over their
//! range, checked per call; else one sweep of the histogram, which gives the same runs).
//! Sorted, they are runs of equal values (a bucket each); when both runs' replicates fall in few
//! buckets, the changes are counted per pair of buckets through a prefix-count table of the
//! random pairing instead of being listed and selected from: the same multiset of changes, so
//! the same interval (a test checks), in a fraction of the time.
//! Assumptions: samples are independent within a run (think time and load make consecutive
//! requests correlated, which narrows the interval); the resolution is the bucket width (runlens'
//! importers keep up to 256 distinct values exactly, else buckets about 3 % wide).
//!
//! **Error rates: Newcombe's hybrid score interval** for a difference of two proportions
//! (Newcombe 1998, "Interval estimation for the difference between independent proportions",
//! method 10), from errors and samples of each run.
//!
//! The random numbers come from SplitMix64 (Steele, Lea & Flood 2014), seeded by the
//! transaction name and the quantile: the same data always give the same interval. It is written
//! here (ten lines) rather than taken from `rand`, which the browser build does not otherwise need;
//! normal variates use Marsaglia's polar method, gamma variates Marsaglia & Tsang (2000).

use crate::bundle::Histogram;

/// Bootstrap replicates per interval.
pub const REPLICATES: usize = 1000;
/// Beta(a, b) draws use the skew-corrected normal approximation when both a and b are at least
/// this; exact gamma draws below.
const APPROX_FROM: f64 = 30.0;
/// Above this many (baseline run, candidate run) pairs of equal replicate values, counting pairs
/// costs more than selecting from the list of every replicate's change (a p95 in a thin tail of
/// narrow buckets spreads over dozens of values; a median over a handful).
const MAX_PAIRED_RUNS: usize = 200;
/// z of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A 95 % interval of a change: relative (a fraction) for quantiles, percentage points for error
/// rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

/// SplitMix64: a small, well-mixed, seedable generator (not for cryptography).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in the open interval (0, 1).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    /// Standard normal (Marsaglia's polar method; the second value of a pair is dropped, which
    /// keeps the generator stateless beyond its counter).
    pub fn normal(&mut self) -> f64 {
        loop {
            let (u, v) = (2.0 * self.uniform() - 1.0, 2.0 * self.uniform() - 1.0);
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                return u * (-2.0 * s.ln() / s).sqrt();
            }
        }
    }
    /// Gamma(shape, 1) for shape ≥ 1 (Marsaglia & Tsang).
    pub fn gamma(&mut self, shape: f64) -> f64 {
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = 1.0 + c * x;
            if v <= 0.0 {
                continue;
            }
            let v = v * v * v;
            let u = self.uniform();
            if u < 1.0 - 0.0331 * x * x * x * x || u.ln() < 0.5 * x * x + d * (1.0 - v + v.ln()) {
                return d * v;
            }
        }
    }
    /// Beta(a, b) for a, b ≥ 1 (exact, through two gamma draws).
    pub fn beta(&mut self, a: f64, b: f64) -> f64 {
        let x = self.gamma(a);
        x / (x + self.gamma(b))
    }
}

/// Beta(a, b) variates from standard normals: mean and variance exact, skew corrected to first
/// order (Cornish–Fisher). Monotone in z for |z| < 3 / |skew| (over 8 here).
#[derive(Clone, Copy)]
struct BetaDraw {
    mean: f64,
    sd: f64,
    /// The skew over 6.
    k: f64,
}

impl BetaDraw {
    fn new(a: f64, b: f64) -> BetaDraw {
        let n = a + b;
        let sd = (a * b / (n * n * (n + 1.0))).sqrt();
        let k = 2.0 * (b - a) * (n + 1.0).sqrt() / ((n + 2.0) * (a * b).sqrt()) / 6.0;
        BetaDraw { mean: a / n, sd, k }
    }

    fn at(&self, z: f64) -> f64 {
        (self.mean + self.sd * (z + self.k * (z * z - 1.0))).clamp(0.0, 1.0)
    }

    /// Whether the draw rises with z over `lo..=hi`: its slope sd·(1 + 2kz) is linear in z, so
    /// the ends tell.
    fn rises_over(&self, lo: f64, hi: f64) -> bool {
        1.0 + 2.0 * self.k * lo >= 0.0 && 1.0 + 2.0 * self.k * hi >= 0.0
    }
}

#[cfg(test)]
fn beta_from_normal(a: f64, b: f64) -> impl Fn(f64) -> f64 {
    let d = BetaDraw::new(a, b);
    move |z| d.at(z)
}

/// A histogram ready for resampling: bounds, cumulative counts, total.
struct Cdf<'h> {
    bounds: &'h [f64],
    cum: Vec<f64>,
    n: u64,
}

impl<'h> Cdf<'h> {
    /// None for a histogram that cannot be resampled: lengths differ, bounds not increasing or
    /// negative, no samples.
    fn new(h: &'h Histogram) -> Option<Cdf<'h>> {
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
    fn inverse_sorted(&self, us: &[f64]) -> Vec<(usize, f64)> {
        if us.windows(2).all(|w| w[0] <= w[1]) {
            self.inverse_rising(us.len(), |i| us[i])
        } else {
            self.inverse_sweep(us.iter().copied())
        }
    }

    /// `inverse_sorted` of `u(0), …, u(len − 1)` for a `u` that does not fall, asking `u` only
    /// where the searches look (a few dozen of the `len` values): the bootstrap's replicates of
    /// one quantile fall in a few buckets, so this is most of the interval's work saved.
    fn inverse_rising(&self, len: usize, u: impl Fn(usize) -> f64) -> Vec<(usize, f64)> {
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
    fn inverse_sweep(&self, us: impl Iterator<Item = f64>) -> Vec<(usize, f64)> {
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
    fn inverse(&self, u: f64) -> f64 {
        let target = u * self.n as f64;
        let i = self.cum.partition_point(|c| *c < target);
        self.bounds[i.min(self.bounds.len() - 1)]
    }

    /// Beta parameters of the nearest-rank q-quantile's order statistic.
    fn order(&self, q: f64) -> (f64, f64) {
        let n = self.n as f64;
        let r = (q * n).ceil().clamp(1.0, n);
        (r, n - r + 1.0)
    }
}

/// Total samples of a histogram (None when it cannot be resampled).
pub fn histogram_samples(h: &Histogram) -> Option<u64> {
    Cdf::new(h).map(|c| c.n)
}

/// A stable seed from a name and a quantile (FNV-1a; stable across platforms and builds).
pub fn seed(name: &str, q: f64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes().chain(q.to_bits().to_le_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// The random numbers of a bootstrap, shared by every transaction it is asked about: two sorted
/// streams of standard normals (one per run) and a permutation that pairs them at random.
pub struct Bootstrap {
    za: Vec<f64>,
    zb: Vec<f64>,
    pair: Vec<usize>,
    /// `pairs_below[x * (R + 1) + y]`: how many i < x have pair[i] < y (R = `REPLICATES`), so
    /// the replicates pairing a run of equal baseline values with a run of equal candidate values
    /// are counted in four lookups (`pairs_in`).
    pairs_below: Vec<u16>,
}

/// Replicate quantiles of one run in the order of the shared normals: sorted, as runs of equal
/// values (most replicates of a quantile land in a few buckets), or in no order (exact draws).
enum Replicates {
    Sorted(Vec<(usize, f64)>),
    Unsorted(Vec<f64>),
}

impl Replicates {
    fn values(&self) -> Vec<f64> {
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
    fn replicates(c: &Cdf, q: f64, z: &[f64], seed: u64) -> Replicates {
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
    fn interval_of_list(&self, qa: &[f64], qb: &[f64]) -> Option<Interval> {
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
    fn interval_of_runs(&self, ra: &[(usize, f64)], rb: &[(usize, f64)]) -> Option<Interval> {
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

/// Wilson score interval of a proportion x / n.
fn wilson(x: f64, n: f64) -> (f64, f64) {
    let p = x / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// 95 % interval of the change in error rate, b − a, in percentage points (Newcombe's hybrid
/// score interval). None without samples.
pub fn error_rate_change(errors_a: f64, samples_a: f64, errors_b: f64, samples_b: f64) -> Option<Interval> {
    if !(samples_a > 0.0 && samples_b > 0.0) {
        return None;
    }
    let (xa, xb) = (errors_a.clamp(0.0, samples_a), errors_b.clamp(0.0, samples_b));
    let (pa, pb) = (xa / samples_a, xb / samples_b);
    let ((la, ua), (lb, ub)) = (wilson(xa, samples_a), wilson(xb, samples_b));
    let d = pb - pa;
    let lo = d - ((pb - lb).powi(2) + (ua - pa).powi(2)).sqrt();
    let hi = d + ((ub - pb).powi(2) + (pa - la).powi(2)).sqrt();
    Some(Interval { lo: lo * 100.0, hi: hi * 100.0 })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A histogram of `n` samples drawn from a log-normal latency (median `median` ms), bucketed
    /// to whole milliseconds: an independent sample each call with a different seed.
    pub(crate) fn lognormal(n: usize, median: f64, seed: u64) -> Histogram {
        let mut rng = Rng::new(seed);
        let mut values: Vec<f64> = (0..n).map(|_| (median * (0.4 * rng.normal()).exp()).round().max(1.0)).collect();
        values.sort_by(f64::total_cmp);
        let mut h = Histogram::default();
        for v in values {
            if h.upper_bounds_ms.last() == Some(&v) {
                if let Some(c) = h.counts.last_mut() {
                    *c += 1;
                }
            } else {
                h.upper_bounds_ms.push(v);
                h.counts.push(1);
            }
        }
        h
    }

    fn scaled(h: &Histogram, k: f64) -> Histogram {
        Histogram { upper_bounds_ms: h.upper_bounds_ms.iter().map(|b| b * k).collect(), counts: h.counts.clone() }
    }

    #[test]
    fn identical_distributions_give_an_interval_around_zero() {
        let h = lognormal(2000, 300.0, 1);
        for q in [0.5, 0.95] {
            let i = quantile_change(&h, &h, q, 7).unwrap();
            assert!(i.lo < 0.0 && i.hi > 0.0, "{q}: {i:?}");
            assert!(i.hi - i.lo < 0.15, "2,000 samples pin the {q} quantile within a few percent: {i:?}");
        }
    }

    #[test]
    fn a_shifted_distribution_gives_an_interval_with_the_right_sign() {
        let a = lognormal(3000, 300.0, 2);
        let slower = scaled(&lognormal(3000, 300.0, 3), 1.2);
        let i = quantile_change(&a, &slower, 0.5, 9).unwrap();
        assert!(i.lo > 0.1 && i.hi < 0.3, "20 % slower: {i:?}");
        let faster = scaled(&lognormal(3000, 300.0, 4), 0.8);
        let j = quantile_change(&a, &faster, 0.95, 9).unwrap();
        assert!(j.hi < -0.1 && j.lo > -0.3, "20 % faster: {j:?}");
    }

    #[test]
    fn the_interval_covers_no_change_about_95_percent_of_the_time() {
        // Pairs of independent samples of one distribution: the 95 % interval should contain 0
        // in about 95 of 100 pairs (a badly calibrated method would be far off).
        let covered = (0..100u64)
            .filter(|s| {
                let i = quantile_change(&lognormal(400, 250.0, 1000 + s), &lognormal(400, 250.0, 5000 + s), 0.5, *s)
                    .unwrap();
                i.lo <= 0.0 && i.hi >= 0.0
            })
            .count();
        assert!((88..=100).contains(&covered), "covered {covered} of 100");
    }

    #[test]
    fn several_quantiles_at_once_equal_one_at_a_time() {
        let boot = Bootstrap::shared();
        // Exact draws (few samples) and the sorted path (many), a quantile of each.
        for (n, seed) in [(40, 11), (5000, 12)] {
            let (a, b) = (lognormal(n, 100.0, seed), lognormal(n, 120.0, seed + 100));
            let both = boot.quantile_changes(&a, &b, [(0.5, 1), (0.95, 2)]);
            assert_eq!(both, [boot.quantile_change(&a, &b, 0.5, 1), boot.quantile_change(&a, &b, 0.95, 2)]);
            assert!(both.iter().all(Option::is_some) && both[0] != both[1], "{both:?}");
        }
        let bad = Histogram { upper_bounds_ms: vec![2.0, 1.0], counts: vec![1, 1] };
        assert_eq!(boot.quantile_changes(&lognormal(50, 10.0, 1), &bad, [(0.5, 1), (0.95, 2)]), [None, None]);
    }

    #[test]
    fn same_input_same_interval_and_bad_histograms_give_none() {
        let (a, b) = (lognormal(500, 100.0, 5), lognormal(500, 110.0, 6));
        assert_eq!(quantile_change(&a, &b, 0.95, 3), quantile_change(&a, &b, 0.95, 3));
        let bad = Histogram { upper_bounds_ms: vec![2.0, 1.0], counts: vec![1, 1] };
        assert_eq!(quantile_change(&a, &bad, 0.5, 1), None);
        assert_eq!(quantile_change(&a, &Histogram { upper_bounds_ms: vec![1.0], counts: vec![0] }, 0.5, 1), None);
        assert_eq!(quantile_change(&a, &Histogram { upper_bounds_ms: vec![1.0, 2.0], counts: vec![3] }, 0.5, 1), None);
    }

    #[test]
    fn counting_pairs_of_equal_runs_gives_the_interval_of_every_replicate() {
        // The weighted shortcut against the plain list of 1,000 changes, on histograms from
        // whole-millisecond (many runs of equal values) to 3 %-wide buckets, and a baseline
        // whose replicates can be 0 (those replicates are left out by both).
        let boot = Bootstrap::shared();
        let mut compared = 0;
        for s in 0..60u64 {
            let (n, median) = (600 + 97 * s as usize, 20.0 + 11.0 * s as f64);
            let a = lognormal(n, median, 100 + s);
            let b = if s % 3 == 0 {
                scaled(&lognormal(n / 2 + 300, median, 200 + s), 1.07)
            } else {
                lognormal(n + 50, median * 1.02, 300 + s)
            };
            let a = if s % 7 == 0 {
                Histogram {
                    upper_bounds_ms: [0.0].iter().chain(&a.upper_bounds_ms).copied().collect(),
                    counts: [n as u64 / 2].iter().chain(&a.counts).copied().collect(),
                }
            } else {
                a
            };
            for q in [0.5, 0.95] {
                let (ca, cb) = (Cdf::new(&a).unwrap(), Cdf::new(&b).unwrap());
                let qa = Bootstrap::replicates(&ca, q, &boot.za, 1);
                let qb = Bootstrap::replicates(&cb, q, &boot.zb, 2);
                let (Replicates::Sorted(ra), Replicates::Sorted(rb)) = (&qa, &qb) else { continue };
                assert_eq!(
                    boot.interval_of_runs(ra, rb),
                    boot.interval_of_list(&qa.values(), &qb.values()),
                    "seed {s}, q {q}"
                );
                compared += 1;
            }
        }
        assert!(compared >= 100, "compared {compared}");
    }

    #[test]
    fn runs_found_by_binary_search_equal_the_sweep() {
        // Every (histogram, quantile) of the pairing test above plus thin and one-bucket ones:
        // the replicate quantiles as runs, by search and by the sweep, bit for bit; and a
        // sequence that bends back (not monotone) takes the sweep.
        let boot = Bootstrap::shared();
        let mut hs: Vec<Histogram> =
            (0..40u64).map(|s| lognormal(600 + 97 * s as usize, 20.0 + 11.0 * s as f64, 100 + s)).collect();
        hs.push(Histogram { upper_bounds_ms: vec![5.0], counts: vec![400] });
        hs.push(Histogram { upper_bounds_ms: vec![1.0, 2.0, 3.0], counts: vec![0, 200, 0] });
        hs.push(Histogram {
            upper_bounds_ms: (1..=300).map(f64::from).collect(),
            counts: (1..=300).map(|i| 1 + (i % 3)).collect(),
        });
        let mut checked = 0;
        for h in &hs {
            let c = Cdf::new(h).unwrap();
            for q in [0.5, 0.9, 0.95, 0.99] {
                let (r, s) = c.order(q);
                if r < APPROX_FROM || s < APPROX_FROM {
                    continue;
                }
                let draw = BetaDraw::new(r, s);
                for z in [&boot.za, &boot.zb] {
                    let us: Vec<f64> = z.iter().map(|z| draw.at(*z)).collect();
                    let sweep = c.inverse_sweep(us.iter().copied());
                    assert_eq!(c.inverse_sorted(&us), sweep, "q {q}");
                    assert!(draw.rises_over(z[0], z[z.len() - 1]));
                    assert_eq!(c.inverse_rising(z.len(), |i| draw.at(z[i])), sweep, "q {q}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 200, "checked {checked}");
        // A skewed draw bends back far out (beyond 3 / skew): then every value is drawn and swept.
        assert!(!BetaDraw::new(30.0, 1e5).rises_over(-20.0, 20.0));
        let c = Cdf::new(&hs[3]).unwrap();
        let bent = [0.1, 0.5, 0.3, 0.9, 0.2];
        assert_eq!(c.inverse_sorted(&bent), c.inverse_sweep(bent.iter().copied()));
    }

    #[test]
    fn beta_draws_have_the_right_mean_and_tails() {
        let mut rng = Rng::new(42);
        for (a, b) in [(2.0, 5.0), (30.0, 3.0), (950.0, 51.0), (5000.0, 5000.0)] {
            let m = (0..20_000).map(|_| rng.beta(a, b)).sum::<f64>() / 20_000.0;
            assert!((m - a / (a + b)).abs() < 0.005, "Beta({a}, {b}) mean {m}");
        }
        // The approximation against exact draws where it is used: the 2.5th and 97.5th
        // percentiles agree within a tenth of a standard deviation.
        for (a, b) in [(30.0, 971.0), (950.0, 51.0), (500.0, 501.0)] {
            let mut exact: Vec<f64> = (0..40_000).map(|_| rng.beta(a, b)).collect();
            let draw = beta_from_normal(a, b);
            let mut approx: Vec<f64> = (0..40_000).map(|_| draw(rng.normal())).collect();
            exact.sort_by(f64::total_cmp);
            approx.sort_by(f64::total_cmp);
            let n = a + b;
            let sd = (a * b / (n * n * (n + 1.0))).sqrt();
            for i in [1000, 39_000] {
                assert!(
                    (exact[i] - approx[i]).abs() < 0.1 * sd,
                    "Beta({a}, {b}) at {i}: {} vs {}",
                    exact[i],
                    approx[i]
                );
            }
        }
    }

    #[test]
    fn error_rate_interval_newcombe_example() {
        // Newcombe (1998), table II, example (a): 56/70 vs 48/80, difference 0.2 with the
        // hybrid score interval 0.0524 to 0.3339 (there a − b; here b − a, so signs flip).
        let i = error_rate_change(48.0, 80.0, 56.0, 70.0).unwrap();
        assert!((i.lo - 5.24).abs() < 0.01 && (i.hi - 33.39).abs() < 0.01, "{i:?}");
        let same = error_rate_change(10.0, 1000.0, 20.0, 2000.0).unwrap();
        assert!(same.lo < 0.0 && same.hi > 0.0, "same rate, twice the samples: {same:?}");
        assert_eq!(error_rate_change(1.0, 0.0, 1.0, 10.0), None);
    }
}
