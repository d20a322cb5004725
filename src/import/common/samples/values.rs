//! `Values`: a multiset of non-negative values, counted exactly per distinct value (buckets past
//! `MAX_DISTINCT`), and its `Summary` (count, mean, extremes, nearest-rank percentiles, histogram).

use crate::bundle::Histogram;
use borsh::{BorshDeserialize, BorshSerialize};
use rustc_hash::FxHashMap;

/// Values below this are counted in a dense array (fast path for typical latencies).
const DENSE_LIMIT: u64 = 4096;
/// Distinct values kept exactly per label before falling back to buckets.
pub const MAX_DISTINCT: usize = 1 << 20;
/// Relative error of the fallback buckets (0.5 %).
pub const APPROX_RELATIVE_ERROR: f64 = 0.005;
/// Histograms with at most this many distinct values are carried exactly; others in buckets about
/// 3 % wide.
const EXACT_HISTOGRAM_VALUES: usize = 256;

/// A multiset of non-negative values. Integers are keyed by value; non-integers by their f64 bit
/// pattern, which orders non-negative floats like their values. Serializable so that the workers
/// aggregating ranges of one file can hand their parts to the one that merges them.
#[derive(Debug, Clone, Default, BorshSerialize, BorshDeserialize)]
pub struct Values {
    dense: Vec<u32>,
    sparse: FxHashMap<u64, u64>,
    /// Whether `sparse` keys are f64 bit patterns (some value was not an integer).
    float_keys: bool,
    approx: Option<LogBuckets>,
    n: u64,
    /// Sum of integer values (exact while it fits), and of float values (compensated).
    sum_int: u64,
    sum_float: f64,
    sum_comp: f64,
}

impl Values {
    pub fn len(&self) -> u64 {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Whether percentiles are exact (no bucket fallback happened).
    pub fn is_exact(&self) -> bool {
        self.approx.is_none()
    }

    /// Adds an integer value (the hot path for JTL rows).
    #[inline]
    pub fn add_int(&mut self, v: u64) {
        self.n += 1;
        match self.sum_int.checked_add(v) {
            Some(s) => self.sum_int = s,
            None => self.sum_float += v as f64,
        }
        if let Some(a) = &mut self.approx {
            a.add(v as f64, 1);
            return;
        }
        if self.float_keys {
            self.add_sparse((v as f64).to_bits(), 1);
            return;
        }
        if v < DENSE_LIMIT {
            let i = v as usize;
            if i >= self.dense.len() {
                self.dense.resize((i + 1).next_power_of_two().min(DENSE_LIMIT as usize), 0);
            }
            let c = &mut self.dense[i];
            if *c < u32::MAX {
                *c += 1;
                return;
            }
        }
        self.add_sparse(v, 1);
    }

    /// Adds `count` copies of `v` (a distribution read back from a histogram that carries every
    /// distinct value): the same multiset, sum and statistics as adding them one by one, exactly
    /// for integers. Negative and non-finite values are the caller's to reject.
    pub fn add_repeated(&mut self, v: f64, count: u64) {
        if count == 0 {
            return;
        }
        if v.fract() == 0.0 && (0.0..9.0e15).contains(&v) && !self.float_keys && self.approx.is_none() {
            let iv = v as u64;
            self.n += count;
            match iv.checked_mul(count).and_then(|x| self.sum_int.checked_add(x)) {
                Some(s) => self.sum_int = s,
                None => self.sum_float += v * count as f64,
            }
            match usize::try_from(iv).ok().filter(|i| *i < DENSE_LIMIT as usize) {
                Some(i) if u32::try_from(count).is_ok() => {
                    if i >= self.dense.len() {
                        self.dense.resize((i + 1).next_power_of_two().min(DENSE_LIMIT as usize), 0);
                    }
                    let (sum, overflow) = self.dense[i].overflowing_add(count as u32);
                    if overflow {
                        self.add_sparse(iv, count);
                    } else {
                        self.dense[i] = sum;
                    }
                }
                _ => self.add_sparse(iv, count),
            }
            return;
        }
        let integral = v.fract() == 0.0 && (0.0..9.0e15).contains(&v);
        let mut part = Values {
            n: count,
            sum_int: if integral { (v as u64).saturating_mul(count) } else { 0 },
            sum_float: if integral { 0.0 } else { v * count as f64 },
            float_keys: !integral,
            ..Default::default()
        };
        part.sparse.insert(if part.float_keys { v.to_bits() } else { v as u64 }, count);
        self.merge(&part);
    }

    /// Replaces the sum of the values (a distribution read back from buckets, whose bounds are not
    /// the values, with the sum its source reported).
    pub fn set_sum(&mut self, sum: f64) {
        (self.sum_int, self.sum_float, self.sum_comp) = (0, sum, 0.0);
    }

    /// Adds a value that may have a fraction (k6, Gatling in some versions). Negative and
    /// non-finite values are the caller's to reject.
    pub fn add_f64(&mut self, v: f64) {
        if v.fract() == 0.0 && (0.0..9.0e15).contains(&v) {
            return self.add_int(v as u64);
        }
        self.n += 1;
        let y = v - self.sum_comp;
        let t = self.sum_float + y;
        self.sum_comp = (t - self.sum_float) - y;
        self.sum_float = t;
        if let Some(a) = &mut self.approx {
            a.add(v, 1);
            return;
        }
        if !self.float_keys {
            self.switch_to_float_keys();
        }
        self.add_sparse(v.to_bits(), 1);
    }

    fn add_sparse(&mut self, key: u64, count: u64) {
        if self.approx.is_some() {
            let v = self.value_of(key);
            if let Some(a) = &mut self.approx {
                a.add(v, count);
            }
            return;
        }
        *self.sparse.entry(key).or_insert(0) += count;
        if self.sparse.len() > MAX_DISTINCT {
            self.give_up_exactness();
        }
    }

    fn value_of(&self, key: u64) -> f64 {
        if self.float_keys {
            f64::from_bits(key)
        } else {
            key as f64
        }
    }

    /// Re-keys integer entries as float bit patterns (the first non-integer value arrived).
    fn switch_to_float_keys(&mut self) {
        let mut sparse = FxHashMap::default();
        for (v, c) in self.dense.drain(..).enumerate().filter(|(_, c)| *c > 0) {
            *sparse.entry((v as f64).to_bits()).or_insert(0) += u64::from(c);
        }
        for (k, c) in self.sparse.drain() {
            *sparse.entry((k as f64).to_bits()).or_insert(0) += c;
        }
        self.sparse = sparse;
        self.float_keys = true;
    }

    fn give_up_exactness(&mut self) {
        let mut b = LogBuckets::default();
        for (v, c) in self.sorted() {
            b.add(v, c);
        }
        self.dense = Vec::new();
        self.sparse = FxHashMap::default();
        self.approx = Some(b);
    }

    /// (value, count) pairs in ascending order of value.
    pub fn sorted(&self) -> Vec<(f64, u64)> {
        if let Some(a) = &self.approx {
            return a.sorted();
        }
        let mut out: Vec<(f64, u64)> = Vec::with_capacity(self.sparse.len() + 64);
        if self.float_keys {
            let mut keys: Vec<(u64, u64)> = self.sparse.iter().map(|(k, c)| (*k, *c)).collect();
            keys.sort_unstable_by_key(|(k, _)| *k);
            out.extend(keys.into_iter().map(|(k, c)| (self.value_of(k), c)));
            return out;
        }
        let mut keys: Vec<(u64, u64)> = self.sparse.iter().map(|(k, c)| (*k, *c)).collect();
        keys.sort_unstable_by_key(|(k, _)| *k);
        let mut sp = keys.into_iter().peekable();
        for (v, c) in self.dense.iter().enumerate() {
            let v = v as u64;
            let mut c = u64::from(*c);
            if sp.peek().is_some_and(|(k, _)| *k == v) {
                c += sp.next().map_or(0, |(_, x)| x);
            }
            if c > 0 {
                out.push((v as f64, c));
            }
        }
        out.extend(sp.map(|(k, c)| (k as f64, c)));
        out
    }

    /// Adds every value of `other`.
    pub fn merge(&mut self, other: &Values) {
        if other.n == 0 {
            return;
        }
        match self.sum_int.checked_add(other.sum_int) {
            Some(s) => self.sum_int = s,
            None => self.sum_float += other.sum_int as f64,
        }
        let y = other.sum_float - self.sum_comp;
        let t = self.sum_float + y;
        self.sum_comp = (t - self.sum_float) - y;
        self.sum_float = t;
        let n = self.n + other.n;
        if self.approx.is_some() || other.approx.is_some() {
            if self.approx.is_none() {
                self.give_up_exactness();
            }
            if let Some(a) = &mut self.approx {
                for (v, c) in other.sorted() {
                    a.add(v, c);
                }
            }
        } else if other.float_keys || self.float_keys {
            if !self.float_keys {
                self.switch_to_float_keys();
            }
            for (v, c) in other.sorted() {
                self.add_sparse(v.to_bits(), c);
            }
        } else {
            if self.dense.len() < other.dense.len() {
                self.dense.resize(other.dense.len(), 0);
            }
            for (v, c) in other.dense.iter().enumerate().filter(|(_, c)| **c > 0) {
                let (sum, overflow) = self.dense[v].overflowing_add(*c);
                if overflow {
                    self.add_sparse(v as u64, u64::from(*c));
                } else {
                    self.dense[v] = sum;
                }
            }
            for (k, c) in &other.sparse {
                self.add_sparse(*k, *c);
            }
        }
        self.n = n;
    }

    /// Summary statistics; `None` when empty.
    pub fn summary(&self, percentiles: &[f64]) -> Option<Summary> {
        if self.n == 0 {
            return None;
        }
        let sorted = self.sorted();
        let mean = (self.sum_int as f64 + self.sum_float) / self.n as f64;
        Some(Summary {
            count: self.n,
            mean,
            min: sorted.first().map_or(0.0, |x| x.0),
            max: sorted.last().map_or(0.0, |x| x.0),
            percentiles: percentiles.iter().map(|p| nearest_rank(&sorted, self.n, *p)).collect(),
            histogram: compact_histogram(&sorted),
            exact: self.is_exact(),
        })
    }
}

/// Statistics of one multiset of values.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub count: u64,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    /// In the order asked for.
    pub percentiles: Vec<f64>,
    pub histogram: Histogram,
    pub exact: bool,
}

/// The nearest-rank p-th percentile of `n` values given as sorted (value, count) pairs:
/// the value at 1-based rank ⌈p·n/100⌉ (at least 1).
pub fn nearest_rank(sorted: &[(f64, u64)], n: u64, p: f64) -> f64 {
    // p in thousandths keeps 99.9 exact in integers.
    let p_milli = (p * 1000.0).round().clamp(0.0, 100_000.0) as u128;
    let rank = ((p_milli * u128::from(n)).div_ceil(100_000)).max(1);
    let mut seen = 0u128;
    for (v, c) in sorted {
        seen += u128::from(*c);
        if seen >= rank {
            return *v;
        }
    }
    sorted.last().map_or(0.0, |x| x.0)
}

/// A compact histogram: every distinct value when there are few, else buckets about 3 % wide
/// (32 per power of two). Each bucket's bound is the largest value in it, so the last bound is the
/// maximum and "counts[i] values in (bounds[i-1], bounds[i]]" holds exactly.
pub fn compact_histogram(sorted: &[(f64, u64)]) -> Histogram {
    if sorted.len() <= EXACT_HISTOGRAM_VALUES {
        return Histogram {
            upper_bounds_ms: sorted.iter().map(|x| x.0).collect(),
            counts: sorted.iter().map(|x| x.1).collect(),
        };
    }
    let mut h = Histogram::default();
    let mut current: Option<i64> = None;
    for (v, c) in sorted {
        let b = bucket_of(*v);
        if current == Some(b) {
            if let (Some(last_bound), Some(last_count)) = (h.upper_bounds_ms.last_mut(), h.counts.last_mut()) {
                *last_bound = *v;
                *last_count += c;
            }
        } else {
            h.upper_bounds_ms.push(*v);
            h.counts.push(*c);
            current = Some(b);
        }
    }
    h
}

/// Bucket index: exact below 64, then 32 linear sub-buckets per power of two.
fn bucket_of(v: f64) -> i64 {
    if v < 64.0 {
        return v.floor() as i64;
    }
    let e = v.log2().floor();
    let base = 2f64.powf(e);
    let sub = ((v - base) / base * 32.0).floor().min(31.0);
    64 + ((e as i64 - 6) * 32) + sub as i64
}

/// Logarithmic buckets (DDSketch's mapping): value v > 0 goes to ⌈log_γ v⌉ with
/// γ = (1+α)/(1−α); a bucket's representative is within α of every value in it.
#[derive(Debug, Clone, Default, BorshSerialize, BorshDeserialize)]
struct LogBuckets {
    zero: u64,
    buckets: FxHashMap<i32, u64>,
}

impl LogBuckets {
    fn gamma() -> f64 {
        (1.0 + APPROX_RELATIVE_ERROR) / (1.0 - APPROX_RELATIVE_ERROR)
    }

    fn add(&mut self, v: f64, c: u64) {
        if v <= 0.0 {
            self.zero += c;
        } else {
            *self.buckets.entry((v.ln() / Self::gamma().ln()).ceil() as i32).or_insert(0) += c;
        }
    }

    fn sorted(&self) -> Vec<(f64, u64)> {
        let g = Self::gamma();
        let mut keys: Vec<(i32, u64)> = self.buckets.iter().map(|(k, c)| (*k, *c)).collect();
        keys.sort_unstable();
        let mut out = Vec::with_capacity(keys.len() + 1);
        if self.zero > 0 {
            out.push((0.0, self.zero));
        }
        out.extend(keys.into_iter().map(|(k, c)| (2.0 * g.powi(k) / (g + 1.0), c)));
        out
    }
}
