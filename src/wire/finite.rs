//! Numbers on the wire follow JSON's rule, as every bundle file's do: a non-finite number (which a
//! bundle file cannot hold, and which no importer writes) is a missing value where the field is
//! optional (a percentile included), and an error where a number is required. borsh would carry
//! infinities as they are (and refuses NaN), so the worker applies the rule before it writes.
//!
//! `Run` and each type under it that holds a number are destructured in full: a new field is a
//! compile error here until it is placed (a number that must be checked, or `_`). The parts skipped
//! whole (`indices`, `errors`, `modules`, `infrastructure`, the text fields, the thresholds'
//! `criteria`) hold no `f64`; were one added there, a NaN in it would make the run's piece fail to
//! read (an error, never a panic).

use crate::bundle::{
    Histogram, Kpi, Phase, Resource, Run, TenantResult, Thresholds, TimeSeries, Timeline, Transaction,
};

fn optional(x: &mut Option<f64>) {
    if x.is_some_and(|v| !v.is_finite()) {
        *x = None;
    }
}

fn required<'a>(xs: impl IntoIterator<Item = &'a f64>, at: impl FnOnce() -> String) -> Result<(), String> {
    match xs.into_iter().find(|v| !v.is_finite()) {
        Some(v) => Err(format!("{} is {v}, which is not a number", at())),
        None => Ok(()),
    }
}

pub fn thresholds(t: &mut Thresholds) {
    let Thresholds { latency, throughput, error_rate, cpu, memory, size, duration, count, min_samples: _, criteria: _ } =
        t;
    [latency, throughput, error_rate, cpu, memory, size, duration, count].into_iter().for_each(optional);
}

/// Applies the rule to a run; `Err` names the first required number that is not finite.
pub fn run(r: &mut Run) -> Result<(), String> {
    let Run {
        id: _,
        label: _,
        release: _,
        version: _,
        start: _,
        end: _,
        duration_s,
        status: _,
        status_reason: _,
        conditions: _,
        notes: _,
        dimensions: _,
        transactions,
        resources,
        indices: _,
        kpis,
        errors: _,
        tenants,
        modules: _,
        infrastructure: _,
        annotation: _,
        timeline,
    } = r;
    optional(duration_s);
    if timeline.as_ref().is_some_and(|t| !timeline_finite(t)) {
        *timeline = None;
    }
    transactions.iter_mut().enumerate().try_for_each(|(i, t)| transaction(t, || format!("transactions[{i}]")))?;
    for (i, res) in resources.iter_mut().enumerate() {
        let Resource { service: _, metric: _, unit: _, peak, average, min, phases, series, note: _ } = res;
        [peak, average, min].into_iter().for_each(optional);
        for Phase { label: _, average, peak } in phases {
            [average, peak].into_iter().for_each(optional);
        }
        if let Some(TimeSeries { t_s, values }) = series {
            required(t_s.iter().chain(values.iter()), || format!("a value of resources[{i}].series"))?;
        }
    }
    kpis.iter().enumerate().try_for_each(|(i, k)| kpi(k, || format!("kpis[{i}]")))?;
    for (i, t) in tenants.iter_mut().enumerate() {
        let TenantResult { tenant: _, kpis, transactions, notes: _ } = t;
        kpis.iter().enumerate().try_for_each(|(j, k)| kpi(k, || format!("tenants[{i}].kpis[{j}]")))?;
        transactions
            .iter_mut()
            .enumerate()
            .try_for_each(|(j, t)| transaction(t, || format!("tenants[{i}].transactions[{j}]")))?;
    }
    Ok(())
}

/// A timeline is optional as a whole: one with a number that is not finite is left out.
fn timeline_finite(t: &Timeline) -> bool {
    t.transactions.iter().all(|x| x.sum_ms.iter().chain(&x.values_ms).chain(&x.relative_error).all(|v| v.is_finite()))
}

fn kpi(k: &Kpi, at: impl FnOnce() -> String) -> Result<(), String> {
    let Kpi { name: _, value, unit: _, direction: _, note: _ } = k;
    required([value], || format!("{}.value", at()))
}

fn transaction(t: &mut Transaction, at: impl FnOnce() -> String) -> Result<(), String> {
    let Transaction {
        name: _,
        samples: _,
        errors: _,
        mean_ms,
        median_ms,
        p90_ms,
        p95_ms,
        p99_ms,
        min_ms,
        max_ms,
        throughput_per_s,
        throughput_run_per_s,
        bytes_received: _,
        bytes_sent: _,
        percentiles,
        histogram,
        note: _,
    } = t;
    [mean_ms, median_ms, p90_ms, p95_ms, p99_ms, min_ms, max_ms, throughput_per_s, throughput_run_per_s]
        .into_iter()
        .for_each(optional);
    percentiles.retain(|_, v| v.is_finite());
    let bounds = histogram.iter().flat_map(|Histogram { upper_bounds_ms, counts: _ }| upper_bounds_ms);
    required(bounds, || format!("a histogram bound of {}", at()))
}
