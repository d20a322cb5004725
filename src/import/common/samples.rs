//! Exact statistics from raw samples. Per label, a count per distinct elapsed value: JTL times are
//! integer milliseconds, so this is exact, mergeable across workers, and its memory grows with the
//! number of distinct values, not of samples. Percentiles use one definition everywhere, nearest
//! rank: the smallest value with at least p % of the samples at or below it (`sorted[⌈p·n/100⌉−1]`).
//!
//! A label with more than `MAX_DISTINCT` distinct values (only float-valued inputs get there) falls
//! back to logarithmic buckets with a relative error of at most `APPROX_RELATIVE_ERROR`, and its
//! transaction says so in `note`.

use crate::bundle::{Direction, Histogram, Kpi, Transaction, Unit};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

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
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
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
            histogram: histogram(&sorted),
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
fn histogram(sorted: &[(f64, u64)]) -> Histogram {
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
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
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

/// Everything counted for one label (or for all samples).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct LabelStats {
    pub name: String,
    /// Where the label first appeared (byte offset or record number): labels are listed in that
    /// order, which stays the same when ranges of a file are aggregated separately and merged.
    pub first_seen: u64,
    pub elapsed: Values,
    /// Samples counted without an elapsed time (files that have no such column).
    pub untimed: u64,
    pub errors: u64,
    /// Earliest start and latest end (start + elapsed), epoch milliseconds.
    pub first_start_ms: Option<i64>,
    pub last_end_ms: Option<i64>,
    pub bytes_received: Option<u64>,
    pub bytes_sent: Option<u64>,
    /// A JMeter Transaction Controller parent sample (its children are counted on their own).
    pub is_controller: bool,
}

/// One raw record's fields (those a format has). Usually one sample; JMeter's batch rows
/// (`SampleCount`, `ErrorCount`) stand for several.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub elapsed_ms: Option<u64>,
    /// Samples this record stands for (1 for a plain sample).
    pub count: u64,
    /// Failed samples among them.
    pub errors: u64,
    pub start_ms: Option<i64>,
    pub bytes_received: Option<u64>,
    pub bytes_sent: Option<u64>,
}

impl Default for Sample {
    fn default() -> Self {
        Sample { elapsed_ms: None, count: 1, errors: 0, start_ms: None, bytes_received: None, bytes_sent: None }
    }
}

impl LabelStats {
    #[inline]
    pub fn add(&mut self, s: &Sample) {
        match s.elapsed_ms {
            Some(e) => {
                self.elapsed.add_int(e);
                self.untimed += s.count.saturating_sub(1);
            }
            None => self.untimed += s.count,
        }
        self.errors += s.errors;
        if let Some(t) = s.start_ms {
            self.first_start_ms = Some(self.first_start_ms.map_or(t, |f| f.min(t)));
            let end = t.saturating_add(s.elapsed_ms.unwrap_or(0) as i64);
            self.last_end_ms = Some(self.last_end_ms.map_or(end, |l| l.max(end)));
        }
        if let Some(b) = s.bytes_received {
            self.bytes_received = Some(self.bytes_received.unwrap_or(0).saturating_add(b));
        }
        if let Some(b) = s.bytes_sent {
            self.bytes_sent = Some(self.bytes_sent.unwrap_or(0).saturating_add(b));
        }
    }

    pub fn samples(&self) -> u64 {
        self.elapsed.len() + self.untimed
    }

    pub fn merge(&mut self, o: &LabelStats) {
        self.first_seen = self.first_seen.min(o.first_seen);
        self.elapsed.merge(&o.elapsed);
        self.untimed += o.untimed;
        self.errors += o.errors;
        self.first_start_ms = opt(self.first_start_ms, o.first_start_ms, i64::min);
        self.last_end_ms = opt(self.last_end_ms, o.last_end_ms, i64::max);
        self.bytes_received = opt(self.bytes_received, o.bytes_received, u64::saturating_add);
        self.bytes_sent = opt(self.bytes_sent, o.bytes_sent, u64::saturating_add);
        self.is_controller |= o.is_controller;
    }

    /// Samples per second over the label's own window (first start to last end), as JMeter's
    /// Aggregate Report and dashboard compute it.
    pub fn throughput(&self) -> Option<f64> {
        per_second(self.samples(), self.first_start_ms, self.last_end_ms)
    }

    /// The transaction: exact statistics of the elapsed times, throughput over the label's
    /// window, and the same over `run_window` (first start to last end of the whole run).
    pub fn to_transaction(&self, run_window: (Option<i64>, Option<i64>)) -> Transaction {
        let s = self.elapsed.summary(&[50.0, 90.0, 95.0, 99.0]);
        let p = |i: usize| s.as_ref().map(|s| s.percentiles[i]);
        let note = match &s {
            Some(s) if !s.exact => Some(format!(
                "Percentiles approximate (within ±{}%): more than {MAX_DISTINCT} distinct values.",
                APPROX_RELATIVE_ERROR * 100.0
            )),
            _ => None,
        };
        Transaction {
            name: self.name.clone(),
            samples: Some(self.samples()),
            errors: Some(self.errors),
            mean_ms: s.as_ref().map(|s| s.mean),
            median_ms: p(0),
            p90_ms: p(1),
            p95_ms: p(2),
            p99_ms: p(3),
            min_ms: s.as_ref().map(|s| s.min),
            max_ms: s.as_ref().map(|s| s.max),
            throughput_per_s: self.throughput(),
            throughput_run_per_s: per_second(self.samples(), run_window.0, run_window.1),
            bytes_received: self.bytes_received,
            bytes_sent: self.bytes_sent,
            percentiles: Default::default(),
            histogram: s.map(|s| s.histogram),
            note,
        }
    }
}

fn opt<T>(a: Option<T>, b: Option<T>, f: impl Fn(T, T) -> T) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(f(a, b)),
        (a, None) => a,
        (None, b) => b,
    }
}

fn per_second(n: u64, start: Option<i64>, end: Option<i64>) -> Option<f64> {
    let (s, e) = (start?, end?);
    (e > s).then(|| n as f64 * 1000.0 / (e - s) as f64)
}

/// Per-label aggregation of a whole file (or of a byte range of it, merged later).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Aggregator {
    index: FxHashMap<Box<[u8]>, u32>,
    pub labels: Vec<LabelStats>,
    /// In front of `index` for `label_id` (not sent between workers).
    #[serde(skip)]
    cache: crate::import::common::label_cache::LabelCache,
}

impl Aggregator {
    /// The id of a label given as raw bytes; `first_seen` orders labels; `name` makes the display
    /// name the first time the label is seen (decoding, warnings).
    #[inline]
    pub fn label_id(&mut self, raw: &[u8], first_seen: u64, name: impl FnOnce() -> String) -> usize {
        let hash = crate::import::common::label_cache::hash(raw);
        if let Some(i) = self.cache.get(hash, raw) {
            return i as usize;
        }
        if let Some(i) = self.index.get(raw) {
            self.cache.put(hash, raw, *i);
            return *i as usize;
        }
        let i = self.labels.len();
        self.index.insert(raw.into(), i as u32);
        self.cache.put(hash, raw, i as u32);
        self.labels.push(LabelStats { name: name(), first_seen, ..Default::default() });
        i
    }

    /// Adds every label of `other` (another range of the same file).
    pub fn merge(&mut self, other: Aggregator) {
        let mut by_index: Vec<(Box<[u8]>, u32)> = other.index.into_iter().collect();
        by_index.sort_by_key(|(_, i)| *i);
        for ((raw, _), stats) in by_index.into_iter().zip(other.labels) {
            match self.index.get(&raw) {
                Some(i) => self.labels[*i as usize].merge(&stats),
                None => {
                    self.index.insert(raw, self.labels.len() as u32);
                    self.labels.push(stats);
                }
            }
        }
    }

    /// First start and last end over every label.
    pub fn run_window(&self) -> (Option<i64>, Option<i64>) {
        let start = self.labels.iter().filter_map(|l| l.first_start_ms).min();
        let end = self.labels.iter().filter_map(|l| l.last_end_ms).max();
        (start, end)
    }

    /// All samples as one label: every label's samples, except Transaction Controller parents
    /// when the file also has ordinary samples (their children are already counted).
    pub fn total(&self) -> LabelStats {
        let has_plain = self.labels.iter().any(|l| !l.is_controller);
        let mut t = LabelStats { name: "All samples".into(), ..Default::default() };
        for l in self.labels.iter().filter(|l| !(has_plain && l.is_controller)) {
            t.merge(l);
        }
        t
    }

    /// Transactions in order of first appearance.
    pub fn transactions(&self) -> Vec<Transaction> {
        let window = self.run_window();
        let mut order: Vec<&LabelStats> = self.labels.iter().collect();
        order.sort_by_key(|l| l.first_seen);
        order.into_iter().map(|l| l.to_transaction(window)).collect()
    }
}

/// Run-level KPIs from all samples: throughput over the run, error rate, sample count, and the
/// mean and p95 of all elapsed times.
pub fn run_kpis(total: &LabelStats, window: (Option<i64>, Option<i64>)) -> Vec<Kpi> {
    let kpi = |name: &str, value: f64, unit: Unit, direction: Direction, note: Option<String>| Kpi {
        name: name.into(),
        value,
        unit,
        direction: Some(direction),
        note,
    };
    let n = total.samples();
    if n == 0 {
        return vec![];
    }
    let mut out = vec![kpi("Samples", n as f64, Unit::Count, Direction::Neutral, None)];
    out.push(kpi("Error rate", total.errors as f64 * 100.0 / n as f64, Unit::Percent, Direction::LowerIsBetter, None));
    if let Some(t) = per_second(n, window.0, window.1) {
        out.push(kpi(
            "Throughput",
            t,
            Unit::PerSecond,
            Direction::HigherIsBetter,
            Some("all samples over the run's first start to last end".into()),
        ));
    }
    if let Some(s) = total.elapsed.summary(&[95.0]) {
        out.push(kpi("Mean response time", s.mean, Unit::Ms, Direction::LowerIsBetter, Some("all samples".into())));
        out.push(kpi(
            "p95 response time",
            s.percentiles[0],
            Unit::Ms,
            Direction::LowerIsBetter,
            Some("all samples, nearest rank".into()),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(mut v: Vec<f64>, p: f64) -> f64 {
        v.sort_by(f64::total_cmp);
        let rank = ((p * v.len() as f64) / 100.0).ceil().max(1.0) as usize;
        v[rank - 1]
    }

    #[test]
    fn nearest_rank_matches_sorting() {
        let data: Vec<u64> = (0..10_007u64).map(|i| (i * 7919) % 9001 + (i % 3) * 5000).collect();
        let mut v = Values::default();
        data.iter().for_each(|x| v.add_int(*x));
        let s = v.summary(&[50.0, 90.0, 95.0, 99.0, 99.9, 100.0, 0.0]).unwrap();
        let f: Vec<f64> = data.iter().map(|x| *x as f64).collect();
        for (i, p) in [50.0, 90.0, 95.0, 99.0, 99.9, 100.0, 0.0].iter().enumerate() {
            assert_eq!(s.percentiles[i], naive(f.clone(), *p), "p{p}");
        }
        assert_eq!(s.count, 10_007);
        assert_eq!(s.mean, f.iter().sum::<f64>() / f.len() as f64);
        assert_eq!((s.min, s.max), (0.0, *f.iter().max_by(|a, b| a.total_cmp(b)).unwrap()));
        assert_eq!(s.histogram.counts.iter().sum::<u64>(), 10_007);
        assert_eq!(*s.histogram.upper_bounds_ms.last().unwrap(), s.max);
    }

    #[test]
    fn small_cases_follow_the_definition() {
        let mut v = Values::default();
        [1u64, 2, 3, 4].iter().for_each(|x| v.add_int(*x));
        // ⌈0.5·4⌉ = 2 → 2; ⌈0.9·4⌉ = 4 → 4.
        assert_eq!(v.summary(&[50.0, 90.0]).unwrap().percentiles, vec![2.0, 4.0]);
        let mut one = Values::default();
        one.add_int(7);
        assert_eq!(one.summary(&[1.0, 99.0]).unwrap().percentiles, vec![7.0, 7.0]);
    }

    #[test]
    fn merging_equals_adding_everything_to_one() {
        let (mut a, mut b, mut all) = (Values::default(), Values::default(), Values::default());
        for i in 0..5000u64 {
            let x = (i * 31) % 7000;
            if i % 2 == 0 {
                a.add_int(x)
            } else {
                b.add_int(x)
            }
            all.add_int(x);
        }
        a.merge(&b);
        assert_eq!(a.sorted(), all.sorted());
        assert_eq!(a.summary(&[95.0]), all.summary(&[95.0]));
    }

    #[test]
    fn floats_and_integers_mix_exactly() {
        let mut v = Values::default();
        for x in [3.0, 1.5, 2.0, 2.25, 4096.0, 5000.0] {
            v.add_f64(x);
        }
        assert_eq!(v.sorted().iter().map(|x| x.0).collect::<Vec<_>>(), vec![1.5, 2.0, 2.25, 3.0, 4096.0, 5000.0]);
        assert!((v.summary(&[50.0]).unwrap().mean - 9104.75 / 6.0).abs() < 1e-9);
    }

    #[test]
    fn many_distinct_floats_fall_back_within_the_stated_error() {
        let mut v = Values::default();
        let data: Vec<f64> = (0..(MAX_DISTINCT + 10)).map(|i| 1.0 + i as f64 * 0.001).collect();
        data.iter().for_each(|x| v.add_f64(*x));
        let s = v.summary(&[50.0, 99.0]).unwrap();
        assert!(!s.exact);
        for (i, p) in [50.0, 99.0].iter().enumerate() {
            let truth = naive(data.clone(), *p);
            assert!(
                (s.percentiles[i] - truth).abs() <= truth * APPROX_RELATIVE_ERROR,
                "p{p}: {} vs {truth}",
                s.percentiles[i]
            );
        }
        assert_eq!(s.count, data.len() as u64);
    }

    #[test]
    fn labels_keep_first_appearance_order_across_merges() {
        let (mut a, mut b) = (Aggregator::default(), Aggregator::default());
        let s = Sample { elapsed_ms: Some(5), start_ms: Some(1000), ..Default::default() };
        let i = a.label_id(b"x", 10, || "x".into());
        a.labels[i].add(&s);
        let j = b.label_id(b"y", 500, || "y".into());
        b.labels[j].add(&Sample { errors: 1, start_ms: Some(3000), ..s });
        let k = b.label_id(b"x", 400, || "x".into());
        b.labels[k].add(&s);
        a.merge(b);
        let t = a.transactions();
        assert_eq!(
            t.iter().map(|t| (t.name.as_str(), t.samples)).collect::<Vec<_>>(),
            vec![("x", Some(2)), ("y", Some(1))]
        );
        assert_eq!(t[1].errors, Some(1));
        assert_eq!(a.run_window(), (Some(1000), Some(3005)));
        let kpis = run_kpis(&a.total(), a.run_window());
        assert_eq!(kpis.iter().find(|k| k.name == "Error rate").unwrap().value, 100.0 / 3.0);
    }
}
