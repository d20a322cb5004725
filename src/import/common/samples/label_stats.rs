//! `LabelStats`: everything counted for one label (or for all samples) from raw `Sample`s, made
//! into a transaction; `run_kpis` makes the run's KPIs from the total.

use super::{Seconds, Values, APPROX_RELATIVE_ERROR, MAX_DISTINCT};
use crate::bundle::{Direction, Kpi, Transaction, Unit};
use borsh::{BorshDeserialize, BorshSerialize};

/// Everything counted for one label (or for all samples).
#[derive(Debug, Clone, Default, BorshSerialize, BorshDeserialize)]
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
    /// The samples per second of their start (the timeline's raw material).
    pub seconds: Seconds,
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
    #[inline(always)]
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
            self.seconds.add(t, s.elapsed_ms, s.count, s.errors);
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

    /// Adds every sample of `o` (another range of the same file).
    pub fn merge(&mut self, o: &LabelStats) {
        self.merge_counts(o);
        self.seconds.merge(&o.seconds);
    }

    /// `merge` without the seconds (for totals, which have no timeline).
    pub(super) fn merge_counts(&mut self, o: &LabelStats) {
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
