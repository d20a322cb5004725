//! A run cut to a window of test time: every figure the views judge recomputed from whole buckets
//! of its timeline (transactions, the run's sample KPIs, resource series), exactly where the
//! timeline carries exact distributions.

use crate::bundle::{CauseTimeline, Kpi, Resource, Run, Timeline, Transaction, TransactionTimeline, Unit};
use crate::import::common::civil;
use crate::import::common::samples::{compact_histogram, nearest_rank};
use crate::model::Section;
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
    Some(cut(run, run.usable_timeline()?, from_s, to_s, Focus::All))
}

/// What a cut recomputes. Every view but Trends reads all of a cut run (`All`); a trend reads one
/// metric of each run (`Metric`, its section and key), so the rest need not be recomputed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Focus<'a> {
    /// Everything: every transaction's counts and distribution, the sample KPIs, errors,
    /// resources; the timeline is kept.
    All,
    /// What the facts of this key read, and what decides whether a run has the key's section:
    /// every transaction's counts (samples, errors, throughput), but a distribution (mean,
    /// percentiles, histogram) only for the transactions of this key (section `Transaction`); the
    /// sample KPIs only for section `Kpi` (else they are left out, never kept whole); errors,
    /// resources and duration as `All` cuts them. No timeline: a trend does not read it.
    Metric(Section, &'a str),
}

/// `run` cut to `[from_s, to_s)` by its usable timeline `tl`, as far as `focus` asks.
pub(super) fn cut(run: &Run, tl: &Timeline, from_s: f64, to_s: f64, focus: Focus) -> (Run, Applied) {
    let r = buckets_in(tl, from_s, to_s);
    let (lo, hi) = match r.is_empty() {
        true => (from_s, from_s),
        false => (tl.bucket_start_s(r.start as u32), tl.bucket_start_s(r.end as u32)),
    };
    let seconds = hi - lo;
    let mut out = head_of(run);
    // Each timeline entry's distribution merged at most once, shared by its transaction and the KPIs.
    let mut merged: Vec<Option<Merged>> = tl.transactions.iter().map(|_| None).collect();
    let distribution = |name: &str| match focus {
        Focus::All => true,
        Focus::Metric(section, key) => section == Section::Transaction && key == name,
    };
    let mut exact = true;
    for t in &run.transactions {
        match tl.transactions.iter().position(|x| x.name == t.name && !x.total) {
            Some(i) => {
                let x = &tl.transactions[i];
                exact &= x.exact || x.cells.is_empty();
                let cut = match distribution(&t.name) {
                    true => window_transaction(t, x, merged_at(&mut merged, tl, i, &r), seconds),
                    false => counted(t, sum_in(&x.samples, &r), sum_in(&x.errors, &r), seconds),
                };
                out.transactions.push(cut);
            }
            None => out
                .transactions
                .push(Transaction { note: Some("Whole run: this transaction has no timeline.".into()), ..t.clone() }),
        }
    }
    let has_plain = tl.transactions.iter().any(|t| !t.controller);
    let counted_in_kpis = |t: &TransactionTimeline| !(has_plain && t.controller);
    let samples: u64 = tl.transactions.iter().filter(|t| counted_in_kpis(t)).map(|t| sum_in(&t.samples, &r)).sum();
    if matches!(focus, Focus::All | Focus::Metric(Section::Kpi, _)) {
        for (i, t) in tl.transactions.iter().enumerate() {
            if counted_in_kpis(t) {
                merged_at(&mut merged, tl, i, &r);
            }
        }
        let parts: Vec<&Merged> = (merged.iter().zip(&tl.transactions))
            .filter(|(_, t)| counted_in_kpis(t))
            .filter_map(|(m, _)| m.as_ref())
            .collect();
        window_kpis(&mut out, &parts, samples, seconds);
    } else {
        out.kpis.retain(|k| !is_sample_kpi(k));
    }
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
    if focus == Focus::All {
        out.timeline = run.timeline.clone();
    }
    (out, Applied { from_s: lo, to_s: hi, samples, exact })
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

/// The sum of a per-bucket list over the buckets `r` (none past its end).
fn sum_in(v: &[u64], r: &Range<usize>) -> u64 {
    v.get(r.clone()).map_or(0, |s| s.iter().sum())
}

fn merge(t: &TransactionTimeline, r: Range<usize>) -> Merged {
    let mut counts = vec![0u64; t.values_ms.len()];
    // As `TransactionTimeline::cell` reads them: pairs past `values_ms` and a dangling last entry
    // are skipped (a plain loop: this is the hot path of every window move).
    for cell in t.cells.get(r.clone()).unwrap_or_default() {
        for p in cell.chunks_exact(2) {
            if let Some(c) = usize::try_from(p[0]).ok().and_then(|i| counts.get_mut(i)) {
                *c += p[1];
            }
        }
    }
    Merged {
        samples: sum_in(&t.samples, &r),
        errors: sum_in(&t.errors, &r),
        sum_ms: t.sum_ms.get(r).filter(|_| !t.sum_ms.is_empty()).map(|s| s.iter().sum()),
        sorted: t.values_ms.iter().zip(counts).filter(|(_, c)| *c > 0).map(|(v, c)| (*v, c)).collect(),
    }
}

/// Timeline entry `i` merged over `r`, merging it on first use.
fn merged_at<'m>(merged: &'m mut [Option<Merged>], tl: &Timeline, i: usize, r: &Range<usize>) -> &'m Merged {
    merged[i].get_or_insert_with(|| merge(&tl.transactions[i], r.clone()))
}

/// A transaction's counts in a window of `seconds`: samples, errors, throughput.
fn counted(whole: &Transaction, samples: u64, errors: u64, seconds: f64) -> Transaction {
    Transaction {
        name: whole.name.clone(),
        samples: Some(samples),
        errors: Some(errors),
        throughput_per_s: (seconds > 0.0).then(|| samples as f64 / seconds),
        throughput_run_per_s: (seconds > 0.0).then(|| samples as f64 / seconds),
        ..Default::default()
    }
}

fn window_transaction(whole: &Transaction, t: &TransactionTimeline, m: &Merged, seconds: f64) -> Transaction {
    let mut out = counted(whole, m.samples, m.errors, seconds);
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

/// A KPI importers compute from all samples, which a cut recomputes.
fn is_sample_kpi(k: &Kpi) -> bool {
    SAMPLE_KPIS.contains(&k.name.as_str()) && k.unit != Unit::None
}

/// Recomputes the sample KPIs from the transactions' timelines merged (`parts`: Transaction
/// Controller parents left out when there are plain samples, as importers count them; `samples`
/// theirs).
fn window_kpis(run: &mut Run, parts: &[&Merged], samples: u64, seconds: f64) {
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
        if !is_sample_kpi(k) {
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
            c.message == e.message && c.code == e.code && c.transaction == e.transaction.as_deref().unwrap_or_default()
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

/// A copy of `run` without its transactions and timeline, which a cut makes anew: cloning them
/// whole (every bucket's cells) to drop them was most of a cut's time. Every field is named, so a
/// field added to `Run` is not forgotten here.
fn head_of(run: &Run) -> Run {
    let Run {
        id,
        label,
        release,
        version,
        start,
        end,
        duration_s,
        status,
        status_reason,
        conditions,
        notes,
        dimensions,
        transactions: _,
        resources,
        indices,
        kpis,
        errors,
        tenants,
        modules,
        infrastructure,
        annotation,
        timeline: _,
    } = run;
    Run {
        id: id.clone(),
        label: label.clone(),
        release: release.clone(),
        version: version.clone(),
        start: start.clone(),
        end: end.clone(),
        duration_s: *duration_s,
        status: *status,
        status_reason: status_reason.clone(),
        conditions: conditions.clone(),
        notes: notes.clone(),
        dimensions: dimensions.clone(),
        transactions: Vec::with_capacity(run.transactions.len()),
        resources: resources.clone(),
        indices: indices.clone(),
        kpis: kpis.clone(),
        errors: errors.clone(),
        tenants: tenants.clone(),
        modules: modules.clone(),
        infrastructure: infrastructure.clone(),
        annotation: annotation.clone(),
        timeline: None,
    }
}
