//! A run cut to a window of test time: every figure the views judge recomputed from whole buckets
//! of its timeline (transactions, the run's sample KPIs, resource series), exactly where the
//! timeline carries exact distributions.

use crate::bundle::{CauseTimeline, Kpi, Resource, Run, Timeline, Transaction, TransactionTimeline, Unit};
use crate::import::common::civil;
use crate::import::common::samples::{compact_histogram, nearest_rank};
use std::ops::Range;

/// Where a window fell on one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The window snapped to whole buckets, seconds of test time.
    pub from_s: f64,
    pub to_s: f64,
    /// Samples of every transaction in it.
    pub samples: u64,
    /// Whether every latency figure in it is exact (all transactions' timelines are).
    pub exact: bool,
}

/// The KPIs importers compute from all samples (`run_kpis`), recomputed for a window.
const SAMPLE_KPIS: [&str; 5] = ["Samples", "Error rate", "Throughput", "Mean response time", "p95 response time"];

/// The buckets whose middle lies in `[from_s, to_s)` of test time.
pub fn buckets_in(tl: &Timeline, from_s: f64, to_s: f64) -> Range<usize> {
    let half = tl.interval_s as f64 / 2.0;
    let inside = |b: u32| {
        let mid = tl.bucket_start_s(b) + half;
        mid >= from_s && mid < to_s
    };
    let first = (0..tl.buckets).find(|b| inside(*b));
    match first {
        Some(f) => {
            let end = (f..tl.buckets).take_while(|b| inside(*b)).last().map_or(f, |l| l + 1);
            f as usize..end as usize
        }
        None => 0..0,
    }
}

/// The run cut to `[from_s, to_s)` seconds of test time; `None` when it has no usable timeline.
pub fn window_run(run: &Run, from_s: f64, to_s: f64) -> Option<(Run, Applied)> {
    let tl = run.usable_timeline()?;
    let r = buckets_in(tl, from_s, to_s);
    let (lo, hi) = match r.is_empty() {
        true => (from_s, from_s),
        false => (tl.bucket_start_s(r.start as u32), tl.bucket_start_s(r.end as u32)),
    };
    let seconds = hi - lo;
    let mut out = Run { transactions: Vec::new(), timeline: None, ..run.clone() };
    let mut exact = true;
    for t in &run.transactions {
        match tl.transaction(&t.name) {
            Some(x) => {
                exact &= x.exact || x.cells.is_empty();
                out.transactions.push(window_transaction(t, x, r.clone(), seconds));
            }
            None => out
                .transactions
                .push(Transaction { note: Some("Whole run: this transaction has no timeline.".into()), ..t.clone() }),
        }
    }
    let samples = window_kpis(&mut out, tl, r.clone(), seconds);
    window_errors(&mut out, tl, r.clone());
    let shift = resource_offset_s(run, tl);
    for res in &mut out.resources {
        window_resource(res, lo + shift, hi + shift);
    }
    out.duration_s = Some(seconds);
    out.notes.push(format!(
        "Judged on {} to {} of test time (the window), not the whole run.",
        crate::format::duration_s(lo),
        crate::format::duration_s(hi)
    ));
    out.timeline = run.timeline.clone();
    Some((out, Applied { from_s: lo, to_s: hi, samples, exact }))
}

/// Seconds from the run's `start` (where resource series count from) to its first sample.
pub fn resource_offset_s(run: &Run, tl: &Timeline) -> f64 {
    let start = run.start.as_deref().and_then(civil::parse_datetime).map(|(ms, _)| ms);
    start.map_or(0.0, |s| (tl.origin_ms - s) as f64 / 1000.0)
}

/// A transaction's window: counts summed, its distribution merged from the buckets' cells.
struct Merged {
    samples: u64,
    errors: u64,
    sum_ms: Option<f64>,
    sorted: Vec<(f64, u64)>,
}

fn merge(t: &TransactionTimeline, r: Range<usize>) -> Merged {
    let sum = |v: &[u64]| v.get(r.clone()).map_or(0, |s| s.iter().sum());
    let mut counts = vec![0u64; t.values_ms.len()];
    for (i, _, n) in r.clone().flat_map(|b| t.cell(b)) {
        if let Some(c) = counts.get_mut(i) {
            *c += n;
        }
    }
    Merged {
        samples: sum(&t.samples),
        errors: sum(&t.errors),
        sum_ms: t.sum_ms.get(r).filter(|_| !t.sum_ms.is_empty()).map(|s| s.iter().sum()),
        sorted: t.values_ms.iter().zip(counts).filter(|(_, c)| *c > 0).map(|(v, c)| (*v, c)).collect(),
    }
}

fn window_transaction(whole: &Transaction, t: &TransactionTimeline, r: Range<usize>, seconds: f64) -> Transaction {
    let m = merge(t, r);
    let mut out = Transaction {
        name: whole.name.clone(),
        samples: Some(m.samples),
        errors: Some(m.errors),
        throughput_per_s: (seconds > 0.0).then(|| m.samples as f64 / seconds),
        throughput_run_per_s: (seconds > 0.0).then(|| m.samples as f64 / seconds),
        ..Default::default()
    };
    let n: u64 = m.sorted.iter().map(|x| x.1).sum();
    if n > 0 {
        let p = |q: f64| Some(nearest_rank(&m.sorted, n, q));
        let weighted: f64 = m.sorted.iter().map(|(v, c)| v * *c as f64).sum();
        out.mean_ms = Some(m.sum_ms.unwrap_or(weighted) / n as f64);
        out.median_ms = p(50.0);
        out.p90_ms = p(90.0);
        out.p95_ms = p(95.0);
        out.p99_ms = p(99.0);
        out.min_ms = m.sorted.first().map(|x| x.0);
        out.max_ms = m.sorted.last().map(|x| x.0);
        out.histogram = Some(compact_histogram(&m.sorted));
    }
    if !t.exact && n > 0 {
        let pct = t
            .relative_error
            .map_or(String::new(), |e| format!(" (within ±{})", crate::format::value(e * 100.0, Unit::Percent)));
        out.note = Some(format!("Percentiles in the window are approximate{pct}."));
    }
    out
}

/// Recomputes the sample KPIs from the transactions' timelines (Transaction Controller parents
/// left out when there are plain samples, as importers count them); returns the window's samples.
fn window_kpis(run: &mut Run, tl: &Timeline, r: Range<usize>, seconds: f64) -> u64 {
    let has_plain = tl.transactions.iter().any(|t| !t.controller);
    let parts: Vec<Merged> =
        tl.transactions.iter().filter(|t| !(has_plain && t.controller)).map(|t| merge(t, r.clone())).collect();
    let samples: u64 = parts.iter().map(|m| m.samples).sum();
    let errors: u64 = parts.iter().map(|m| m.errors).sum();
    let mut all: Vec<(f64, u64)> = parts.iter().flat_map(|m| m.sorted.iter().copied()).collect();
    crate::order::sort_by(&mut all, |a, b| a.0.total_cmp(&b.0));
    let n: u64 = all.iter().map(|x| x.1).sum();
    let sums: Option<f64> = parts.iter().map(|m| m.sum_ms).sum();
    let weighted: f64 = all.iter().map(|(v, c)| v * *c as f64).sum();
    let value = |name: &str| -> Option<f64> {
        match name {
            "Samples" => Some(samples as f64),
            "Error rate" => (samples > 0).then(|| errors as f64 * 100.0 / samples as f64),
            "Throughput" => (seconds > 0.0).then(|| samples as f64 / seconds),
            "Mean response time" => (n > 0).then(|| sums.unwrap_or(weighted) / n as f64),
            "p95 response time" => (n > 0).then(|| nearest_rank(&all, n, 95.0)),
            _ => None,
        }
    };
    run.kpis.retain_mut(|k: &mut Kpi| {
        if !SAMPLE_KPIS.contains(&k.name.as_str()) || k.unit == Unit::None {
            return true;
        }
        match value(&k.name) {
            Some(v) => {
                k.value = v;
                true
            }
            None => false,
        }
    });
    samples
}

/// The errors of the causes the timeline follows, counted in the window (first and last at their
/// buckets' edges); a cause with none there leaves the list. Errors the timeline does not follow
/// (run-wide ones, a tool without times) stay whole and say so.
fn window_errors(run: &mut Run, tl: &Timeline, r: Range<usize>) {
    if tl.causes.is_empty() {
        return;
    }
    let width = tl.interval_s as f64;
    run.errors.retain_mut(|e| {
        let same = |c: &&CauseTimeline| {
            c.message == e.message && c.code == e.code && c.transaction == e.transaction.clone().unwrap_or_default()
        };
        let Some(cause) = tl.causes.iter().find(same) else {
            e.note = Some("Whole run: this error has no timeline.".into());
            return true;
        };
        let inside: Vec<(u64, u64)> = cause
            .counts
            .chunks_exact(2)
            .map(|p| (p[0], p[1]))
            .filter(|(b, c)| r.contains(&(*b as usize)) && *c > 0)
            .collect();
        let count: u64 = inside.iter().map(|x| x.1).sum();
        e.count = Some(count);
        e.first_s = inside.first().map(|(b, _)| tl.bucket_start_s(*b as u32));
        e.last_s = inside.last().map(|(b, _)| tl.bucket_start_s(*b as u32) + width);
        count > 0
    });
}

/// A resource's figures over the part of its series inside `[from_s, to_s)` (seconds after the
/// run's start); a resource without a series keeps its whole-run figures and says so.
fn window_resource(res: &mut Resource, from_s: f64, to_s: f64) {
    let Some(series) = res.series.as_mut() else {
        res.note = Some("Whole run: no series to cut to the window.".into());
        return;
    };
    let keep: Vec<(f64, f64)> = series
        .t_s
        .iter()
        .zip(&series.values)
        .filter(|(t, _)| **t >= from_s && **t < to_s)
        .map(|(t, v)| (*t, *v))
        .collect();
    series.t_s = keep.iter().map(|x| x.0).collect();
    series.values = keep.iter().map(|x| x.1).collect();
    let vals = &series.values;
    res.phases.clear();
    res.average = (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64);
    res.peak = vals.iter().copied().reduce(f64::max);
    res.min = vals.iter().copied().reduce(f64::min);
}
