//! An aggregation's seconds (`seconds.rs`) folded into the bundle's `Timeline`: epoch-aligned
//! buckets of `interval_for`'s width, per transaction the samples, errors, sum of elapsed times
//! and cells. A transaction keeps its exact values when it has at most `EXACT_VALUES` distinct
//! values or at most `EXACT_CELLS` cells; else its values are logarithmic buckets,
//! `LOG_BUCKETS_PER_OCTAVE` per doubling, each shown by its geometric centre
//! (docs/decisions/0052-timeline-buckets.md).

use super::cells::{dense, Scratch};
use super::fold::fold;
use super::seconds::{unpack, Seconds, Users, NO_VALUE};
use super::{Aggregator, LabelStats};
use crate::bundle::{interval_for, Timeline, TransactionTimeline};

/// A transaction with at most this many distinct values keeps them exactly.
pub const EXACT_VALUES: usize = 64;
/// A transaction whose exact cells number at most this keeps its values exactly.
pub const EXACT_CELLS: usize = 4096;
/// Logarithmic buckets per doubling of the value when a transaction is not exact.
pub const LOG_BUCKETS_PER_OCTAVE: f64 = 24.0;

/// The largest relative distance from a logarithmic bucket's geometric centre to a value in it:
/// half the bucket's width as a ratio, 2^(1/48) − 1 ≈ 1.45 %.
pub fn log_relative_error() -> f64 {
    (2f64.ln() / (2.0 * LOG_BUCKETS_PER_OCTAVE)).exp() - 1.0
}

/// The bucket grid of samples starting from `first_ms` to `last_ms`.
#[derive(Debug, Clone, Copy)]
pub struct Grid {
    pub start_ms: i64,
    pub interval_s: u32,
    pub buckets: u32,
}

impl Grid {
    pub fn new(first_ms: i64, last_ms: i64) -> Grid {
        let (interval_s, start_ms, buckets) = interval_for(first_ms, last_ms);
        Grid { start_ms, interval_s, buckets }
    }

    /// The bucket of epoch second `second`, if inside the grid.
    pub fn of_second(&self, second: i64) -> Option<usize> {
        let b = (second.saturating_mul(1000) - self.start_ms).div_euclid(i64::from(self.interval_s) * 1000);
        (0..i64::from(self.buckets)).contains(&b).then_some(b as usize)
    }

    /// Per bucket, the most users of the seconds in it (empty when none were reported).
    pub fn users(&self, users: &Users) -> Vec<u32> {
        if users.is_empty() {
            return Vec::new();
        }
        let mut out = vec![0u32; self.buckets as usize];
        for (second, n) in users.points() {
            if let Some(b) = self.of_second(second).and_then(|b| out.get_mut(b)) {
                *b = (*b).max(n);
            }
        }
        out
    }
}

impl Aggregator {
    /// The timeline of every label that has samples with a start time, in the order and with the
    /// names of `transactions()`; `None` when no sample has one.
    pub fn timeline(&self) -> Option<Timeline> {
        let mut order: Vec<&LabelStats> = self.labels.iter().collect();
        order.sort_by_key(|l| l.first_seen);
        timeline_of(order.iter().map(|l| (l.name.as_str(), l.is_controller, &l.seconds)), &self.users)
    }
}

/// The timeline of labels given as (name, controller, seconds), in their order; `None` when no
/// label has a sample with a start time.
pub fn timeline_of<'a>(
    labels: impl Iterator<Item = (&'a str, bool, &'a Seconds)> + Clone,
    users: &Users,
) -> Option<Timeline> {
    let spans = labels.clone().filter_map(|l| l.2.span());
    let first = spans.clone().map(|s| s.0).min()?;
    let last = spans.map(|s| s.1).max()?;
    let mut scratch = Scratch::default();
    let grid = Grid::new(first, last);
    Some(Timeline {
        start_ms: grid.start_ms,
        origin_ms: first,
        interval_s: grid.interval_s,
        buckets: grid.buckets,
        users: grid.users(users),
        transactions: labels
            .map(|(name, controller, s)| transaction(&grid, name, controller, s, &mut scratch))
            .collect(),
        causes: Vec::new(),
    })
}

/// A transaction's distribution over the buckets.
pub(super) struct Cells {
    pub values_ms: Vec<f64>,
    pub cells: Vec<Vec<u64>>,
    pub exact: bool,
}

/// Offsets in seconds counted per table entry at most (a label spread wider looks each up).
const MAX_LOOKUP: i64 = 1 << 22;

/// The bucket of a label's packed second offsets: a table over their range, else `Grid::of_second`.
pub(super) struct Lookup<'a> {
    pub grid: &'a Grid,
    base: i64,
    first: i64,
    /// Per offset from `first`: bucket + 1, 0 outside the grid.
    table: Vec<u32>,
}

impl Lookup<'_> {
    #[inline(always)]
    pub(super) fn bucket(&self, off: i64) -> Option<usize> {
        match self.table.get(off.wrapping_sub(self.first) as usize) {
            Some(&b) => (b > 0).then(|| b as usize - 1),
            None => self.far(off),
        }
    }

    /// The bucket of an offset past the table.
    #[inline(never)]
    pub(super) fn far(&self, off: i64) -> Option<usize> {
        self.grid.of_second(self.base.saturating_add(off))
    }

    /// The table and the offset its first entry stands for.
    pub(super) fn table(&self) -> (&[u32], i64) {
        (&self.table, self.first)
    }
}

/// A label's timed samples inside the grid, packed ones only when `narrow` (see `each`).
pub(super) struct Timed<'a> {
    s: &'a Seconds,
    at: Lookup<'a>,
}

impl Timed<'_> {
    /// Calls `f(bucket, elapsed ms, samples)` for every packed timed entry inside the grid.
    #[inline(always)]
    pub(super) fn each(&self, mut f: impl FnMut(usize, u64, u64)) {
        for (p, c) in self.s.entries() {
            let (off, _, v) = unpack(p);
            if v != NO_VALUE {
                if let Some(b) = self.at.bucket(off) {
                    f(b, v, c);
                }
            }
        }
    }
}

/// One label over the grid.
fn transaction(grid: &Grid, name: &str, controller: bool, s: &Seconds, sc: &mut Scratch) -> TransactionTimeline {
    let n = grid.buckets as usize;
    let (mut samples, mut errors, mut sum_ms) = (vec![0u64; n], vec![0u64; n], vec![0f64; n]);
    let mut per_bucket = vec![0usize; n];
    // The grid's seconds as offsets from the label's base (every sample lies in them).
    let first = (grid.start_ms.div_euclid(1000)).saturating_sub(s.base);
    let span = i64::from(grid.buckets) * i64::from(grid.interval_s);
    let table = if span <= MAX_LOOKUP {
        let per = grid.interval_s as usize;
        (0..grid.buckets).flat_map(|b| std::iter::repeat_n(b + 1, per)).collect()
    } else {
        Vec::new()
    };
    let at = Lookup { grid, base: s.base, first, table };
    if let Some(f) = fold(n, &at, s, &mut sc.fold) {
        return TransactionTimeline {
            name: name.to_string(),
            controller,
            samples: f.sums.iter().map(|b| b.samples).collect(),
            errors: f.sums.iter().map(|b| b.errors).collect(),
            sum_ms: if f.timed > 0 { f.sums.iter().map(|b| b.sum_ms).collect() } else { Vec::new() },
            relative_error: (f.timed > 0).then(log_relative_error),
            values_ms: f.values_ms,
            exact: false,
            cells: f.cells,
            total: false,
        };
    }
    let (mut max, mut wide_values) = (0u64, false);
    let mut timed = 0u64;
    for (p, c) in s.entries() {
        let (off, failed, v) = unpack(p);
        if let Some(b) = at.bucket(off) {
            samples[b] += c;
            errors[b] += u64::from(failed) * c;
            if v != NO_VALUE {
                sum_ms[b] += v as f64 * c as f64;
                per_bucket[b] += 1;
                max = max.max(v);
                timed += c;
            }
        }
    }
    for w in &s.wide {
        if let Some(b) = grid.of_second(w.second) {
            samples[b] = samples[b].saturating_add(w.samples);
            errors[b] = errors[b].saturating_add(w.errors);
            if let Some(v) = w.value {
                sum_ms[b] += v;
                per_bucket[b] += 1;
                timed += 1;
                wide_values = true;
            }
        }
    }
    let values = Timed { s, at };
    let c = if !wide_values && timed > EXACT_CELLS as u64 { dense(n, &per_bucket, max, &values, sc) } else { None }
        .unwrap_or_else(|| sorted(grid, &per_bucket, &values));
    TransactionTimeline {
        name: name.to_string(),
        controller,
        samples,
        errors,
        sum_ms: if timed > 0 { sum_ms } else { Vec::new() },
        relative_error: (timed > 0 && !c.exact).then(log_relative_error),
        values_ms: c.values_ms,
        exact: c.exact,
        cells: c.cells,
        total: false,
    }
}

/// The cells by sorting each bucket's values (any values; `cells.rs` is quicker for many integers).
fn sorted(grid: &Grid, per_bucket: &[usize], t: &Timed) -> Cells {
    // Values grouped by bucket (a counting sort), as f64 bits (which order like the values) with
    // their counts.
    let mut starts: Vec<usize> = per_bucket
        .iter()
        .scan(0, |acc, c| {
            *acc += c;
            Some(*acc - c)
        })
        .collect();
    let ends: Vec<usize> = starts.iter().zip(per_bucket).map(|(a, c)| a + c).collect();
    let mut bits = vec![(0u64, 0u64); ends.last().copied().unwrap_or(0)];
    let mut put = |b: usize, v: f64, c: u64| {
        if let Some(slot) = starts.get_mut(b).and_then(|i| {
            *i += 1;
            bits.get_mut(*i - 1)
        }) {
            *slot = (v.to_bits(), c);
        }
    };
    t.each(|b, v, c| put(b, v as f64, c));
    for w in &t.s.wide {
        if let (Some(b), Some(v)) = (grid.of_second(w.second), w.value) {
            put(b, v, 1);
        }
    }
    let (mut pairs, mut pair_ends) = (Vec::new(), Vec::with_capacity(ends.len()));
    let mut from = 0;
    for end in &ends {
        let slice = bits.get_mut(from..*end).unwrap_or(&mut []);
        slice.sort_unstable();
        run_lengths(slice.iter().copied(), &mut pairs);
        pair_ends.push(pairs.len());
        from = *end;
    }
    let mut ends = pair_ends;
    if pairs.is_empty() {
        return Cells { values_ms: Vec::new(), cells: Vec::new(), exact: false };
    }
    let mut distinct: Vec<u64> = pairs.iter().map(|p| p.0).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() <= EXACT_VALUES || pairs.len() <= EXACT_CELLS {
        let values_ms = distinct.iter().map(|b| f64::from_bits(*b)).collect();
        return Cells { values_ms, cells: cells_of(&pairs, &ends, &distinct), exact: true };
    }
    let mut logged = Vec::with_capacity(pairs.len());
    let mut from = 0;
    for end in ends.iter_mut() {
        let slice = pairs.get(from..*end).unwrap_or(&[]);
        run_lengths(slice.iter().map(|(k, c)| (log_key(f64::from_bits(*k)), *c)), &mut logged);
        from = *end;
        *end = logged.len();
    }
    let mut keys: Vec<u64> = logged.iter().map(|p| p.0).collect();
    keys.sort_unstable();
    keys.dedup();
    let values_ms = keys.iter().map(|k| log_centre(*k)).collect();
    Cells { values_ms, cells: cells_of(&logged, &ends, &keys), exact: false }
}

/// Appends `(key, count)` pairs merged where consecutive keys are equal (keys come ascending).
fn run_lengths(items: impl Iterator<Item = (u64, u64)>, out: &mut Vec<(u64, u64)>) {
    let start = out.len();
    for (k, c) in items {
        let len = out.len();
        match out.last_mut() {
            Some(last) if len > start && last.0 == k => last.1 += c,
            _ => out.push((k, c)),
        }
    }
}

/// Per bucket, `[value index, count, …]` from the flat pairs, `keys` the sorted distinct keys.
fn cells_of(pairs: &[(u64, u64)], ends: &[usize], keys: &[u64]) -> Vec<Vec<u64>> {
    let mut from = 0;
    ends.iter()
        .map(|end| {
            let slice = pairs.get(from..*end).unwrap_or(&[]);
            from = *end;
            slice.iter().flat_map(|(k, c)| [keys.binary_search(k).map_or(0, |i| i as u64), *c]).collect()
        })
        .collect()
}

/// The logarithmic bucket of a value, as a key that orders like the values: 0 for zero (and
/// anything not positive), else ⌊log2(v)·24⌋ offset to stay positive.
pub(super) fn log_key(v: f64) -> u64 {
    if v.is_nan() || v <= 0.0 {
        return 0;
    }
    let k = (v.log2() * LOG_BUCKETS_PER_OCTAVE).floor();
    (k.clamp(-1e9, 1e9) as i64 + (1 << 40)) as u64
}

/// The geometric centre of a logarithmic bucket (0 for the zero bucket).
pub(super) fn log_centre(key: u64) -> f64 {
    if key == 0 {
        return 0.0;
    }
    let k = key as i64 - (1 << 40);
    ((k as f64 + 0.5) / LOG_BUCKETS_PER_OCTAVE).exp2()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_centre_is_within_the_stated_error_of_its_values() {
        let e = log_relative_error();
        assert!((e - 0.014545).abs() < 1e-5, "{e}");
        for i in 1..20_000u32 {
            let v = f64::from(i) * 0.37;
            let c = log_centre(log_key(v));
            assert!((v - c).abs() <= c * e * (1.0 + 1e-12), "{v} → {c}");
        }
        assert_eq!(log_centre(log_key(0.0)), 0.0);
    }
}
