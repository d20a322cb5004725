//! The raw material of a run's timeline, per label: every sample's start second, failure and
//! elapsed time, packed in 8 bytes (`Seconds`), and per run the most active users per second
//! (`Users`). Adding is a push, in any time order; merging (ranges of one file, borsh between
//! workers) appends. `buckets.rs` folds the samples into the bundle's `Timeline`.

use borsh::{BorshDeserialize, BorshSerialize};

/// Low 31 bits of a packed sample: its elapsed ms, or this when it has none.
pub(super) const NO_VALUE: u64 = 0x7FFF_FFFF;
/// Bit 31 of a packed sample: it failed.
const FAILED: u64 = 1 << 31;

/// What does not pack: a fractional or huge elapsed time, a second far from the base, a batch
/// row's samples, failures counted apart (k6).
#[derive(Debug, Clone, Copy, Default, BorshSerialize, BorshDeserialize)]
pub(super) struct Wide {
    pub second: i64,
    pub value: Option<f64>,
    pub samples: u64,
    pub errors: u64,
}

/// One label's samples by the epoch second of their start.
#[derive(Debug, Clone, BorshSerialize, BorshDeserialize)]
pub struct Seconds {
    /// The epoch second packed offsets count from (the first sample's).
    pub(super) base: i64,
    /// Per sample: second − base (high 32 bits, signed), `FAILED`, elapsed ms or `NO_VALUE`.
    #[borsh(
        serialize_with = "crate::bundle::words::write_words",
        deserialize_with = "crate::bundle::words::read_words"
    )]
    pub(super) packed: Vec<u64>,
    /// Earlier samples compacted: (packed sample, how many), ascending, each sample once. Memory
    /// so grows with the distinct (second, failure, value) triples, not with the samples.
    #[borsh(
        serialize_with = "crate::bundle::words::write_pairs",
        deserialize_with = "crate::bundle::words::read_pairs"
    )]
    pub(super) runs: Vec<(u64, u64)>,
    pub(super) wide: Vec<Wide>,
    /// Earliest and latest start, epoch ms (`i64::MAX`, `i64::MIN` before any).
    first_ms: i64,
    last_ms: i64,
    /// `packed` is compacted when this long (see `compact`; not sent between workers).
    #[borsh(skip)]
    compact_at: usize,
    /// The last sample's second: (its first epoch ms, its offset from `base`), so that samples
    /// of the same second skip the division (not sent between workers).
    #[borsh(skip)]
    last_second: Option<(i64, i64)>,
}

impl Default for Seconds {
    fn default() -> Self {
        Seconds {
            base: 0,
            packed: Vec::new(),
            runs: Vec::new(),
            wide: Vec::new(),
            first_ms: i64::MAX,
            last_ms: i64::MIN,
            compact_at: COMPACT_AT,
            last_second: None,
        }
    }
}

/// Samples kept unsorted before they are compacted into runs.
const COMPACT_AT: usize = 1 << 16;

/// Two ascending run lists merged into one (equal samples add up).
fn merge_runs(a: Vec<(u64, u64)>, b: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    if a.is_empty() {
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.0 < y.0 => a.next(),
            (Some(x), Some(y)) if x.0 > y.0 => b.next(),
            (Some(_), Some(_)) => a.next().zip(b.next()).map(|(x, y)| (x.0, x.1 + y.1)),
            (Some(_), None) => a.next(),
            (None, Some(_)) => b.next(),
            (None, None) => break,
        };
        out.extend(next);
    }
    out
}

/// A packed sample's parts: second offset, failed, elapsed ms (`NO_VALUE`: none).
#[inline(always)]
pub(super) fn unpack(p: u64) -> (i64, bool, u64) {
    (i64::from((p >> 32) as u32 as i32), p & FAILED != 0, p & NO_VALUE)
}

impl Seconds {
    #[inline(always)]
    fn widen(&mut self, t: i64) {
        if self.first_ms == i64::MAX {
            self.base = t.div_euclid(1000);
        }
        self.first_ms = self.first_ms.min(t);
        self.last_ms = self.last_ms.max(t);
    }

    /// `count` samples (`errors` of them failed) that started at `t` (epoch ms); `elapsed_ms` is
    /// the record's one elapsed time (a JMeter batch row has one for all its samples), if any.
    #[inline(always)]
    pub fn add(&mut self, t: i64, elapsed_ms: Option<u64>, count: u64, errors: u64) {
        self.widen(t);
        let off = match self.last_second {
            Some((from, off)) if (t.wrapping_sub(from) as u64) < 1000 => off,
            _ => self.new_second(t),
        };
        let value = match elapsed_ms {
            Some(e) if e < NO_VALUE => e,
            None => NO_VALUE,
            Some(_) => u64::MAX,
        };
        if count == 1 && errors <= 1 && value <= NO_VALUE && off == i64::from(off as i32) {
            self.packed.push((u64::from(off as i32 as u32) << 32) | (errors << 31) | value);
            if self.packed.len() >= self.compact_at {
                self.compact();
            }
        } else {
            self.add_wide(t, elapsed_ms.map(|e| e as f64), count, errors);
        }
    }

    /// The offset of the second of `t` (epoch ms), kept as the last second.
    #[inline(always)]
    fn new_second(&mut self, t: i64) -> i64 {
        let second = t.div_euclid(1000);
        let off = second.wrapping_sub(self.base);
        self.last_second = Some((second.wrapping_mul(1000), off));
        off
    }

    /// Folds `packed` into `runs`. Next time when `packed` is as long as `runs` (at least
    /// `COMPACT_AT`): each sample is sorted and merged a few times at most. When fewer than a
    /// quarter of the samples folded into runs of others (nearly every sample is distinct, and a
    /// run takes twice a sample's bytes), next time only when `packed` is twice as long as now.
    #[cold]
    #[inline(never)]
    fn compact(&mut self) {
        let (samples, runs_before) = (self.packed.len(), self.runs.len());
        self.packed.sort_unstable();
        let mut fresh: Vec<(u64, u64)> = Vec::new();
        for p in self.packed.drain(..) {
            match fresh.last_mut() {
                Some(last) if last.0 == p => last.1 += 1,
                _ => fresh.push((p, 1)),
            }
        }
        self.runs = merge_runs(std::mem::take(&mut self.runs), fresh);
        let folded = (runs_before + samples).saturating_sub(self.runs.len());
        let poor = folded < samples / 4;
        self.compact_at = if poor { samples.saturating_mul(2) } else { COMPACT_AT.max(self.runs.len()) };
    }

    /// Every sample as (packed sample, how many): the compacted ones, then the others.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.runs.iter().copied().chain(self.packed.iter().map(|p| (*p, 1)))
    }

    #[cold]
    #[inline(never)]
    fn add_wide(&mut self, t: i64, value: Option<f64>, samples: u64, errors: u64) {
        self.wide.push(Wide { second: t.div_euclid(1000), value, samples, errors });
    }

    /// One sample with a float elapsed time (k6), non-negative and finite.
    pub fn add_f64(&mut self, t: i64, elapsed_ms: f64, failed: bool) {
        if elapsed_ms.fract() == 0.0 && (0.0..NO_VALUE as f64).contains(&elapsed_ms) {
            return self.add(t, Some(elapsed_ms as u64), 1, u64::from(failed));
        }
        self.widen(t);
        self.add_wide(t, Some(elapsed_ms), 1, u64::from(failed));
    }

    /// Failed samples counted apart from their samples (k6's `http_req_failed` points).
    pub fn add_errors(&mut self, t: i64, errors: u64) {
        self.widen(t);
        self.add_wide(t, None, 0, errors);
    }

    /// Adds every sample of `other` (another range of the same file, or another file's label).
    pub fn merge(&mut self, other: &Seconds) {
        if other.first_ms == i64::MAX {
            return;
        }
        if self.first_ms == i64::MAX {
            self.base = other.base;
        }
        let shift = other.base.wrapping_sub(self.base);
        let mut theirs: Vec<(u64, u64)> = Vec::with_capacity(other.runs.len());
        for (p, count) in other.entries() {
            let (off, failed, v) = unpack(p);
            let off = off.saturating_add(shift);
            if off == i64::from(off as i32) {
                let p = (u64::from(off as i32 as u32) << 32) | (p & (FAILED | NO_VALUE));
                if count == 1 {
                    self.packed.push(p);
                } else {
                    theirs.push((p, count));
                }
            } else {
                let value = (v != NO_VALUE).then_some(v as f64);
                let second = off.saturating_add(self.base);
                self.wide.push(Wide { second, value, samples: count, errors: u64::from(failed) * count });
            }
        }
        if !theirs.is_empty() {
            // A shift keeps the order of theirs unless offsets changed sign; sort to be sure.
            theirs.sort_unstable();
            self.runs = merge_runs(std::mem::take(&mut self.runs), theirs);
        }
        self.wide.extend_from_slice(&other.wide);
        self.first_ms = self.first_ms.min(other.first_ms);
        self.last_ms = self.last_ms.max(other.last_ms);
    }

    /// Replaces the failures with those of `errors` (a label whose failures are counted apart,
    /// then chosen: k6).
    pub fn take_errors_from(&mut self, errors: &Seconds) {
        for p in &mut self.packed {
            *p &= !FAILED;
        }
        let runs: Vec<(u64, u64)> = std::mem::take(&mut self.runs).into_iter().map(|(p, c)| (p & !FAILED, c)).collect();
        let mut cleared = Vec::new();
        let mut sorted = runs;
        sorted.sort_unstable();
        for (p, c) in sorted {
            match cleared.last_mut() {
                Some((q, d)) if *q == p => *d += c,
                _ => cleared.push((p, c)),
            }
        }
        self.runs = cleared;
        for w in &mut self.wide {
            w.errors = 0;
        }
        let (first, last) = (self.first_ms, self.last_ms);
        self.merge(errors);
        // Failures alone do not move the label's span.
        if first != i64::MAX {
            (self.first_ms, self.last_ms) = (first, last);
        }
    }

    /// The earliest and latest start, epoch ms; `None` without samples.
    pub fn span(&self) -> Option<(i64, i64)> {
        (self.first_ms != i64::MAX).then_some((self.first_ms, self.last_ms))
    }
}

/// Seconds after the first report kept in `Users::dense` (about 116 days); others go to `far`.
const MAX_DENSE_SECONDS: i64 = 10_000_000;

/// The most users (threads, virtual users) active in each second, as reported. Reports come
/// with samples, whose start times go back and forth across seconds: a dense array per second
/// takes them in any order.
#[derive(Debug, Clone, Default, BorshSerialize, BorshDeserialize)]
pub struct Users {
    /// Whether any report came, and the epoch second of `dense[0]` (the first report's).
    started: bool,
    base: i64,
    dense: Vec<u32>,
    /// (epoch second, users) of reports before `base` or too far after it.
    far: Vec<(i64, u32)>,
    /// The last report's second in `dense`: (its first epoch ms, its index), so that reports of
    /// the same second skip the division (not sent between workers).
    #[borsh(skip)]
    last_second: Option<(i64, usize)>,
}

impl Users {
    /// `n` users active at `t` (epoch ms).
    #[inline(always)]
    pub fn add(&mut self, t: i64, n: u64) {
        let n = n.min(u64::from(u32::MAX)) as u32;
        if let Some((from, i)) = self.last_second {
            if let Some(u) = self.dense.get_mut(i).filter(|_| (t.wrapping_sub(from) as u64) < 1000) {
                *u = (*u).max(n);
                return;
            }
        }
        self.add_new(t, n);
    }

    #[inline(never)]
    fn add_new(&mut self, t: i64, n: u32) {
        let second = t.div_euclid(1000);
        self.add_at(second, n);
        let i = second.wrapping_sub(self.base);
        if (0..self.dense.len() as i64).contains(&i) {
            self.last_second = Some((second.wrapping_mul(1000), i as usize));
        }
    }

    #[inline]
    fn add_at(&mut self, second: i64, n: u32) {
        if !self.started {
            (self.started, self.base) = (true, second);
        }
        let off = second.wrapping_sub(self.base);
        if !(0..MAX_DENSE_SECONDS).contains(&off) {
            return self.far.push((second, n));
        }
        let i = off as usize;
        if i >= self.dense.len() {
            self.dense.resize(i + 1, 0);
        }
        if let Some(u) = self.dense.get_mut(i) {
            *u = (*u).max(n);
        }
    }

    pub fn merge(&mut self, other: &Users) {
        for (second, n) in other.points() {
            self.add_at(second, n);
        }
    }

    /// (epoch second, most users) of every report, a second possibly more than once.
    pub(super) fn points(&self) -> impl Iterator<Item = (i64, u32)> + '_ {
        let dense = self.dense.iter().enumerate().filter(|(_, n)| **n > 0);
        dense.map(|(i, n)| (self.base + i as i64, *n)).chain(self.far.iter().copied())
    }

    pub fn is_empty(&self) -> bool {
        !self.started
    }
}
