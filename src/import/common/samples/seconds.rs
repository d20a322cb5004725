//! The raw material of a run's timeline, per label: samples bucketed by the epoch second of their
//! start (count, errors, sum of elapsed times, the elapsed values), and per run the most active
//! users per second. Cheap to add to (samples come mostly in time order, so the second being
//! filled is kept at hand) and merged exactly by appending (`Seconds::merge`, borsh for workers).
//! `buckets.rs` folds the seconds into the bundle's `Timeline`.

use borsh::{BorshDeserialize, BorshSerialize};

/// The elapsed values of a label's timed samples, in the order they were added: integer
/// milliseconds below 2^32 in 4 bytes each; any other value (a fraction, a huge number) turns
/// the label's list into f64 bit patterns, 8 bytes each.
#[derive(Debug, Clone, BorshSerialize, BorshDeserialize)]
pub(super) enum Keys {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Default for Keys {
    fn default() -> Self {
        Keys::Narrow(Vec::new())
    }
}

impl Keys {
    #[inline]
    fn push_int(&mut self, v: u64) {
        match self {
            Keys::Narrow(k) if v < u64::from(u32::MAX) => k.push(v as u32),
            _ => self.push_f64(v as f64),
        }
    }

    #[inline]
    fn push_f64(&mut self, v: f64) {
        if let Keys::Narrow(k) = self {
            if v.fract() == 0.0 && (0.0..u32::MAX as f64).contains(&v) {
                return k.push(v as u32);
            }
            *self = Keys::Wide(k.iter().map(|x| f64::from(*x).to_bits()).collect());
        }
        if let Keys::Wide(k) = self {
            k.push(v.to_bits());
        }
    }

    fn append(&mut self, other: &Keys) {
        match other {
            Keys::Narrow(o) => o.iter().for_each(|v| self.push_int(u64::from(*v))),
            Keys::Wide(o) => o.iter().for_each(|b| self.push_f64(f64::from_bits(*b))),
        }
    }

    /// Values `from..to` as f64 bit patterns (which order non-negative values like the values),
    /// appended to `out`.
    pub(super) fn bits_into(&self, from: usize, to: usize, out: &mut Vec<u64>) {
        match self {
            Keys::Narrow(k) => out.extend(k.get(from..to).unwrap_or(&[]).iter().map(|v| f64::from(*v).to_bits())),
            Keys::Wide(k) => out.extend_from_slice(k.get(from..to).unwrap_or(&[])),
        }
    }
}

/// Consecutive additions whose samples started in the same epoch second. A second may have
/// several segments (samples out of order, merged ranges); `buckets.rs` adds them up.
#[derive(Debug, Clone, Copy, Default, BorshSerialize, BorshDeserialize)]
pub(super) struct Seg {
    pub second: i64,
    pub samples: u64,
    pub errors: u64,
    /// Values this segment added to `Keys` (timed samples).
    pub timed: u32,
    pub sum_ms: f64,
}

/// One label's samples per second of their start.
#[derive(Debug, Clone, Default, BorshSerialize, BorshDeserialize)]
pub struct Seconds {
    pub(super) segs: Vec<Seg>,
    pub(super) keys: Keys,
    /// Epoch ms range `[lo, hi)` of the last segment's second (empty: no segment to add to).
    lo: i64,
    hi: i64,
    /// Earliest and latest start seen, epoch ms.
    pub(super) first_ms: Option<i64>,
    pub(super) last_ms: Option<i64>,
}

impl Seconds {
    /// The segment a sample starting at `t` (epoch ms) adds to: the last one when it is that
    /// second's and has room for `count` samples, else a new one.
    #[inline]
    fn seg(&mut self, t: i64, count: u64) -> Option<&mut Seg> {
        let fits = t >= self.lo && t < self.hi && self.segs.last().is_some_and(|s| s.timed < u32::MAX);
        if !fits {
            let second = t.div_euclid(1000);
            self.lo = second.saturating_mul(1000);
            self.hi = self.lo.saturating_add(1000);
            self.segs.push(Seg { second, ..Seg::default() });
        }
        self.first_ms = Some(match self.first_ms {
            Some(f) if f <= t => f,
            _ => t,
        });
        self.last_ms = Some(match self.last_ms {
            Some(l) if l >= t => l,
            _ => t,
        });
        let s = self.segs.last_mut()?;
        s.samples = s.samples.saturating_add(count);
        Some(s)
    }

    /// `count` samples (`errors` of them failed) that started at `t`; `elapsed_ms` is the
    /// record's one elapsed time (a JMeter batch row has one for all its samples), if it has one.
    #[inline]
    pub fn add(&mut self, t: i64, elapsed_ms: Option<u64>, count: u64, errors: u64) {
        let Some(s) = self.seg(t, count) else { return };
        s.errors = s.errors.saturating_add(errors);
        if let Some(e) = elapsed_ms {
            s.timed += 1;
            s.sum_ms += e as f64;
            self.keys.push_int(e);
        }
    }

    /// One sample with a float elapsed time (k6, Gatling groups), non-negative and finite.
    pub fn add_f64(&mut self, t: i64, elapsed_ms: f64, failed: bool) {
        let Some(s) = self.seg(t, 1) else { return };
        s.errors += u64::from(failed);
        s.timed += 1;
        s.sum_ms += elapsed_ms;
        self.keys.push_f64(elapsed_ms);
    }

    /// Failed samples counted apart from their samples (k6's `http_req_failed` points).
    pub fn add_errors(&mut self, t: i64, errors: u64) {
        if let Some(s) = self.seg(t, 0) {
            s.errors = s.errors.saturating_add(errors);
        }
    }

    /// Adds every sample of `other` (another range of the same file, or another file's label).
    pub fn merge(&mut self, other: &Seconds) {
        if other.segs.is_empty() {
            return;
        }
        self.segs.extend_from_slice(&other.segs);
        self.keys.append(&other.keys);
        // The last segment is now `other`'s: add to it only through its own range.
        (self.lo, self.hi) = (other.lo, other.hi);
        self.first_ms = [self.first_ms, other.first_ms].into_iter().flatten().min();
        self.last_ms = [self.last_ms, other.last_ms].into_iter().flatten().max();
    }

    /// Replaces the errors per second with those of `errors` (a label whose failures are
    /// counted apart, then chosen: k6).
    pub fn take_errors_from(&mut self, errors: &Seconds) {
        for s in &mut self.segs {
            s.errors = 0;
        }
        let mut only = errors.clone();
        only.keys = Keys::default();
        for s in &mut only.segs {
            (s.samples, s.timed, s.sum_ms) = (0, 0, 0.0);
        }
        self.merge(&only);
    }

    pub fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }
}

/// The most users (threads, virtual users) active in each second, as reported.
#[derive(Debug, Clone, Default, BorshSerialize, BorshDeserialize)]
pub struct Users {
    /// (epoch second, most users), a second possibly more than once.
    pub(super) points: Vec<(i64, u32)>,
    lo: i64,
    hi: i64,
}

impl Users {
    /// `n` users active at `t` (epoch ms).
    #[inline]
    pub fn add(&mut self, t: i64, n: u64) {
        let n = n.min(u64::from(u32::MAX)) as u32;
        match self.points.last_mut() {
            Some(p) if t >= self.lo && t < self.hi => p.1 = p.1.max(n),
            _ => {
                let second = t.div_euclid(1000);
                self.lo = second.saturating_mul(1000);
                self.hi = self.lo.saturating_add(1000);
                self.points.push((second, n));
            }
        }
    }

    pub fn merge(&mut self, other: &Users) {
        if !other.points.is_empty() {
            self.points.extend_from_slice(&other.points);
            (self.lo, self.hi) = (other.lo, other.hi);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}
