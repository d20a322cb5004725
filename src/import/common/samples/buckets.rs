//! An aggregation's seconds (`seconds.rs`) folded into the bundle's `Timeline`: epoch-aligned
//! buckets of `interval_for`'s width, per transaction the samples, errors, sum of elapsed times
//! and cells. A transaction keeps its exact values when it has at most `EXACT_VALUES` distinct
//! values or at most `EXACT_CELLS` cells; else its values are logarithmic buckets,
//! `LOG_BUCKETS_PER_OCTAVE` per doubling, each shown by its geometric centre
//! (docs/decisions/0052-timeline-buckets.md).

use super::seconds::{Seconds, Users};
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
        for (second, n) in &users.points {
            if let Some(b) = self.of_second(*second).and_then(|b| out.get_mut(b)) {
                *b = (*b).max(*n);
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
    let first = labels.clone().filter_map(|l| l.2.first_ms).min()?;
    let last = labels.clone().filter_map(|l| l.2.last_ms).max()?;
    let grid = Grid::new(first, last);
    Some(Timeline {
        start_ms: grid.start_ms,
        origin_ms: first,
        interval_s: grid.interval_s,
        buckets: grid.buckets,
        users: grid.users(users),
        transactions: labels.map(|(name, controller, s)| transaction(&grid, name, controller, s)).collect(),
        causes: Vec::new(),
    })
}

/// One label over the grid.
fn transaction(grid: &Grid, name: &str, controller: bool, s: &Seconds) -> TransactionTimeline {
    let n = grid.buckets as usize;
    let (mut samples, mut errors, mut sum_ms) = (vec![0u64; n], vec![0u64; n], vec![0f64; n]);
    // Segments by bucket, with where their values start in `keys`.
    let mut segs: Vec<(usize, usize, u32)> = Vec::with_capacity(s.segs.len());
    let mut at = 0usize;
    for seg in &s.segs {
        if let Some(b) = grid.of_second(seg.second) {
            samples[b] += seg.samples;
            errors[b] += seg.errors;
            sum_ms[b] += seg.sum_ms;
            segs.push((b, at, seg.timed));
        }
        at += seg.timed as usize;
    }
    segs.sort_by_key(|x| x.0);
    // Per bucket, its (value bits, count) pairs ascending, one flat list with bucket ends.
    let (mut pairs, mut ends, mut scratch) = (Vec::new(), vec![0usize; n], Vec::new());
    let mut i = 0;
    for (b, end) in ends.iter_mut().enumerate() {
        scratch.clear();
        while let Some(&(_, from, timed)) = segs.get(i).filter(|x| x.0 == b) {
            s.keys.bits_into(from, from + timed as usize, &mut scratch);
            i += 1;
        }
        scratch.sort_unstable();
        run_lengths(scratch.iter().map(|k| (*k, 1)), &mut pairs);
        *end = pairs.len();
    }
    let mut distinct: Vec<u64> = pairs.iter().map(|p| p.0).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let timed = !pairs.is_empty();
    let exact = timed && (distinct.len() <= EXACT_VALUES || pairs.len() <= EXACT_CELLS);
    let (values_ms, cells) = if !timed {
        (Vec::new(), Vec::new())
    } else if exact {
        let values = distinct.iter().map(|b| f64::from_bits(*b)).collect();
        (values, cells_of(&pairs, &ends, &distinct))
    } else {
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
        let values = keys.iter().map(|k| log_centre(*k)).collect();
        (values, cells_of(&logged, &ends, &keys))
    };
    TransactionTimeline {
        name: name.to_string(),
        controller,
        samples,
        errors,
        sum_ms: if timed { sum_ms } else { Vec::new() },
        values_ms,
        exact,
        relative_error: (timed && !exact).then(log_relative_error),
        cells,
    }
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
fn log_key(v: f64) -> u64 {
    if v.is_nan() || v <= 0.0 {
        return 0;
    }
    let k = (v.log2() * LOG_BUCKETS_PER_OCTAVE).floor();
    (k.clamp(-1e9, 1e9) as i64 + (1 << 40)) as u64
}

/// The geometric centre of a logarithmic bucket (0 for the zero bucket).
fn log_centre(key: u64) -> f64 {
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
