//! Change points in a series of runs: E-divisive means (Matteson & James 2014, "A nonparametric
//! approach for multiple change point analysis of multivariate data", JASA 109:505), so that a
//! persistent shift in a nightly history reads as one event and a noisy night as a blip.
//!
//! The series is split where the energy distance between the part before and the part after is
//! largest (exponent 1: absolute differences), Q̂(τ) = nm/(n+m) · (2/(nm) Σ|xᵢ−yⱼ| − Σ|xᵢ−xₖ|/C(n,2)
//! − Σ|yⱼ−yₗ|/C(m,2)), the segment's end fixed as the second part's end. A split is kept when a
//! permutation test finds it significant: the values are shuffled within each current segment
//! `permutations` times, the best split of the shuffled series is found the same way, and
//! p = (1 + #{shuffled Q̂ ≥ observed Q̂}) / (1 + permutations). Splitting goes on, over every
//! segment, until the best split is not significant at `alpha`. Both parts of a split hold at
//! least `min_segment` values, so one spike is never a change point. Shuffles are seeded (the
//! project's SplitMix64): the same series always gives the same answer.
//!
//! Cost: the sums for every split point of a segment come in one pass with a Fenwick tree over
//! the values' ranks (O(n log n)); a permutation test stops as soon as it cannot end significant.
//! Why this is written here and how it differs from apache-otava: docs/decisions/0047.

pub mod history;
#[cfg(test)]
mod tests;

use crate::analysis::noise::Rng;

/// How change points are found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The significance level: a split with p above it ends the search.
    pub alpha: f64,
    /// Shuffles per significance test (the smallest p is 1 / (1 + permutations)).
    pub permutations: u32,
    /// The fewest values on each side of a change point.
    pub min_segment: usize,
    /// The shuffles' seed.
    pub seed: u64,
}

/// The settings runlens uses: α = 0.01, 199 shuffles, at least 3 runs on each side.
pub const DEFAULT: Settings = Settings { alpha: 0.01, permutations: 199, min_segment: 3, seed: 0x5eed_c4a9 };

impl Default for Settings {
    fn default() -> Self {
        DEFAULT
    }
}

/// A change point: the series shifts at `index` (the first value after the change).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangePoint {
    pub index: usize,
    /// The mean of the segment before (from the previous change point or the start).
    pub mean_before: f64,
    /// The mean of the segment after (to the next change point or the end).
    pub mean_after: f64,
    /// The permutation test's p-value.
    pub p_value: f64,
}

impl ChangePoint {
    /// (after − before) / |before|; none when the mean before is 0.
    pub fn relative_shift(&self) -> Option<f64> {
        (self.mean_before != 0.0).then(|| (self.mean_after - self.mean_before) / self.mean_before.abs())
    }
}

/// The change points of `series`, in order. A series with a non-finite value has none.
pub fn change_points(series: &[f64], s: &Settings) -> Vec<ChangePoint> {
    let min = s.min_segment.max(2);
    if series.len() < 2 * min || series.iter().any(|v| !v.is_finite()) {
        return Vec::new();
    }
    let mut d = Detector::new(series, min);
    let mut rng = Rng::new(s.seed);
    let mut cuts: Vec<(usize, f64)> = Vec::new();
    while let Some((tau, q)) = d.best(&d.ranks.clone()) {
        let p = d.p_value(q, s, &mut rng);
        if p > s.alpha {
            break;
        }
        cuts.push((tau, p));
        d.cut(tau);
    }
    crate::order::sort_by_key(&mut cuts, |c| c.0);
    let bounds: Vec<usize> = std::iter::once(0).chain(cuts.iter().map(|c| c.0)).chain([series.len()]).collect();
    let mean = |a: usize, b: usize| series[a..b].iter().sum::<f64>() / (b - a) as f64;
    cuts.iter()
        .enumerate()
        .map(|(k, &(index, p_value))| ChangePoint {
            index,
            mean_before: mean(bounds[k], index),
            mean_after: mean(index, bounds[k + 2]),
            p_value,
        })
        .collect()
}

/// The search's state: the series as ranks (ties broken by position), the segments so far, and
/// each value's sum of distances to the others of its segment (unchanged by shuffles).
struct Detector {
    sorted: Vec<f64>,
    ranks: Vec<u32>,
    /// Segment bounds, in order: 0, the cuts, the length.
    bounds: Vec<usize>,
    /// By rank: Σ |v − w| over the values w of its segment.
    row: Vec<f64>,
    fenwick: Fenwick,
    min: usize,
}

impl Detector {
    fn new(series: &[f64], min: usize) -> Detector {
        let mut by_value: Vec<usize> = (0..series.len()).collect();
        crate::order::sort_by(&mut by_value, |a, b| series[*a].total_cmp(&series[*b]));
        let mut ranks = vec![0u32; series.len()];
        for (r, &i) in by_value.iter().enumerate() {
            ranks[i] = r as u32;
        }
        let sorted = by_value.iter().map(|&i| series[i]).collect();
        let n = series.len();
        let mut d = Detector { sorted, ranks, bounds: vec![0, n], row: vec![0.0; n], fenwick: Fenwick::new(n), min };
        d.fill_rows(0, n);
        d
    }

    /// Each value's row sum within `ranks[a..b]`, from the segment's values in order.
    fn fill_rows(&mut self, a: usize, b: usize) {
        let mut seg: Vec<u32> = self.ranks[a..b].to_vec();
        crate::order::sort_by_key(&mut seg, |r| *r);
        let total: f64 = seg.iter().map(|&r| self.sorted[r as usize]).sum();
        let (n, mut below) = (seg.len() as f64, 0.0);
        for (k, &r) in seg.iter().enumerate() {
            let v = self.sorted[r as usize];
            let k = k as f64;
            let above = total - below - v;
            self.row[r as usize] = v * k - below + above - v * (n - k - 1.0);
            below += v;
        }
    }

    fn cut(&mut self, tau: usize) {
        let at = self.bounds.partition_point(|&b| b < tau);
        self.bounds.insert(at, tau);
        self.fill_rows(self.bounds[at - 1], tau);
        self.fill_rows(tau, self.bounds[at + 1]);
    }

    /// The best split over every segment of `ranks` (the series or a shuffle): (index, Q̂).
    fn best(&mut self, ranks: &[u32]) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for w in 0..self.bounds.len() - 1 {
            let (a, b) = (self.bounds[w], self.bounds[w + 1]);
            if let Some((t, q)) = self.best_in(&ranks[a..b]) {
                if best.is_none_or(|(_, bq)| q > bq) {
                    best = Some((a + t, q));
                }
            }
        }
        best
    }

    /// The best split of one segment: (offset, Q̂), each part at least `min` long.
    fn best_in(&mut self, seg: &[u32]) -> Option<(usize, f64)> {
        let len = seg.len();
        if len < 2 * self.min {
            return None;
        }
        let total = seg.iter().map(|&r| self.row[r as usize]).sum::<f64>() / 2.0;
        let (mut within_before, mut rows_before, mut best) = (0.0, 0.0, None::<(usize, f64)>);
        for (t, &r) in seg.iter().enumerate() {
            if t >= self.min && len - t >= self.min {
                let (n, m) = (t as f64, (len - t) as f64);
                let between = rows_before - 2.0 * within_before;
                let within_after = total - within_before - between;
                let q = 2.0 / (n + m) * between
                    - 2.0 * m / ((n + m) * (n - 1.0)) * within_before
                    - 2.0 * n / ((n + m) * (m - 1.0)) * within_after;
                if best.is_none_or(|(_, bq)| q > bq) {
                    best = Some((t, q));
                }
            }
            let v = self.sorted[r as usize];
            within_before += self.fenwick.distance_sum(r as usize, v);
            rows_before += self.row[r as usize];
            self.fenwick.add(r as usize, v);
        }
        self.fenwick.clear(seg);
        best
    }

    /// The share of shuffles (within each segment) whose best split reaches `q`, the observed
    /// one counted in; stops once the answer cannot end at or below `alpha`.
    fn p_value(&mut self, q: f64, s: &Settings, rng: &mut Rng) -> f64 {
        let total = f64::from(s.permutations) + 1.0;
        let mut shuffled = self.ranks.clone();
        let mut reached = 1.0;
        for _ in 0..s.permutations {
            for w in 0..self.bounds.len() - 1 {
                shuffle(&mut shuffled[self.bounds[w]..self.bounds[w + 1]], rng);
            }
            if self.best(&shuffled).is_some_and(|(_, sq)| sq >= q) {
                reached += 1.0;
                if reached / total > s.alpha {
                    return reached / total;
                }
            }
        }
        reached / total
    }
}

/// Fisher–Yates.
fn shuffle(v: &mut [u32], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        let j = (rng.uniform() * (i + 1) as f64) as usize;
        v.swap(i, j.min(i));
    }
}

/// Counts and sums of the values seen so far, by rank: the sum of distances from a new value to
/// them in O(log n).
struct Fenwick {
    count: Vec<f64>,
    sum: Vec<f64>,
    /// (count, sum) of everything added.
    all: (f64, f64),
}

impl Fenwick {
    fn new(n: usize) -> Fenwick {
        Fenwick { count: vec![0.0; n + 1], sum: vec![0.0; n + 1], all: (0.0, 0.0) }
    }

    fn add(&mut self, rank: usize, value: f64) {
        self.all = (self.all.0 + 1.0, self.all.1 + value);
        let mut i = rank + 1;
        while i < self.count.len() {
            self.count[i] += 1.0;
            self.sum[i] += value;
            i += i & i.wrapping_neg();
        }
    }

    /// (count, sum) of the values of rank below `rank`.
    fn below(&self, rank: usize) -> (f64, f64) {
        let (mut c, mut s, mut i) = (0.0, 0.0, rank);
        while i > 0 {
            c += self.count[i];
            s += self.sum[i];
            i -= i & i.wrapping_neg();
        }
        (c, s)
    }

    /// Empties the tree, whose values were those of `ranks` (zeroing their paths is exact where
    /// subtracting would leave rounding behind).
    fn clear(&mut self, ranks: &[u32]) {
        self.all = (0.0, 0.0);
        for &r in ranks {
            let mut i = r as usize + 1;
            while i < self.count.len() && self.count[i] != 0.0 {
                (self.count[i], self.sum[i]) = (0.0, 0.0);
                i += i & i.wrapping_neg();
            }
        }
    }

    /// Σ |v − w| over the values w added so far (`v` has rank `rank`; ranks order values).
    fn distance_sum(&self, rank: usize, v: f64) -> f64 {
        let (c, s) = self.below(rank);
        let (ca, sa) = (self.all.0 - c, self.all.1 - s);
        (v * c - s) + (sa - v * ca)
    }
}
